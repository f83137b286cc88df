/**
 * Socket frame encoding and decoding (protocol §4 "Frames").
 * @module
 */
import { aesEcb } from '../crypto/load-aes-ecb.js';
import type { ChatMessage } from '../messages/types.js';

/**
 * A frame that cannot be encoded or decoded. `cause` holds the underlying error (the JSON parse
 * error, the decryption error) when there is one.
 */
export class FrameError extends Error {
  /**
   * @param message - what is wrong with the frame
   * @param options - `cause`: the underlying error
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FrameError';
  }
}

/** The result of {@link decodeFrame}. */
export interface DecodedFrame {
  /** The message the frame carried. */
  message: ChatMessage;
  /** True when the frame was AES-ECB ciphertext (the AES switch is on on the server side). */
  encrypted: boolean;
}

/** Shortens a value for an error message. */
function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/** Describes a value's kind for an error message. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Checks the decoded JSON value and normalises `dataContent` to a string (see {@link decodeFrame}).
 * @throws FrameError when the value is not an object or its `type` is not a finite number
 */
function toMessage(value: unknown): ChatMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FrameError(`Frame is not a message object (got ${kindOf(value)}).`);
  }
  const record = value as Record<string, unknown>;
  const type = record['type'];
  if (typeof type !== 'number' || !Number.isFinite(type)) {
    throw new FrameError(`Frame has no numeric type (type is ${JSON.stringify(type) ?? 'undefined'}).`);
  }
  const dataContent = record['dataContent'];
  if (dataContent === null) {
    delete record['dataContent'];
  } else if (dataContent !== undefined && typeof dataContent !== 'string') {
    record['dataContent'] = typeof dataContent === 'object' ? JSON.stringify(dataContent) : String(dataContent);
  }
  return record as ChatMessage;
}

/** The frame's text: strings as they are, binary frames decoded as UTF-8. */
function frameText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (Object.prototype.toString.call(data) === '[object ArrayBuffer]') {
    return new TextDecoder().decode(data as ArrayBuffer);
  }
  if (ArrayBuffer.isView(data)) {
    return new TextDecoder().decode(data);
  }
  throw new FrameError(`Unsupported frame data (${kindOf(data)}); expected a string, ArrayBuffer or Uint8Array.`);
}

/** The first character that is not JSON whitespace, or ''. */
function firstChar(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return text[i] as string;
  }
  return '';
}

/** Decrypts and parses a ciphertext frame; undefined on any failure (the caller then reports it). */
function decryptFrame(userKey: string, text: string): DecodedFrame | undefined {
  try {
    const value: unknown = JSON.parse(aesEcb().aesEcbDecrypt(userKey, text.trim()));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const type = (value as { type?: unknown }).type;
    if (typeof type !== 'number' || !Number.isFinite(type)) return undefined;
    return { message: toMessage(value), encrypted: true };
  } catch {
    return undefined;
  }
}

/**
 * Encodes an outgoing message (protocol §4): its JSON text, or, when `userKey` is given (the AES
 * switch is on), `AES-ECB(userKey, JSON text)` as base64.
 *
 * `dataContent` is sent as a string: an object or array is JSON-encoded, another non-string value
 * is converted with `String()`.
 * @param message - the message; `type` must be a finite number
 * @param userKey - the user token (32 bytes) when the AES switch is on
 * @returns the frame text
 * @throws FrameError when the message is not an object, has no numeric type or cannot be
 * serialised, or when encryption fails (the cause says why, e.g. a key that is not 32 bytes)
 */
export function encodeFrame(message: ChatMessage, userKey?: string): string {
  const normalised = toMessage(typeof message === 'object' && message !== null ? { ...message } : message);
  let json: string;
  try {
    json = JSON.stringify(normalised);
  } catch (cause) {
    throw new FrameError('Message cannot be serialised as JSON.', { cause });
  }
  if (userKey === undefined) return json;
  try {
    return aesEcb().aesEcbEncrypt(userKey, json);
  } catch (cause) {
    throw new FrameError('Message cannot be encrypted.', { cause });
  }
}

/**
 * Decodes an incoming frame (protocol §4). The frame is parsed as JSON first; when that fails (or
 * yields something other than an object) and `userKey` is given, it is decrypted with
 * AES-ECB under `userKey` and the plaintext is parsed.
 *
 * Binary frames (ArrayBuffer, Uint8Array, Node Buffer) are read as UTF-8 text; open sockets with
 * `binaryType = 'arraybuffer'` (Blob is not supported).
 *
 * `dataContent` is always a string on the wire; if the server sent an object or array it is
 * turned back into its JSON text, another non-string value is converted with `String()`, and
 * `null` is dropped, so `message.dataContent` is a string or absent.
 * @param data - the frame (`event.data` of the socket's message event)
 * @param userKey - the user token (32 bytes), to decrypt frames when the AES switch is on
 * @returns the message and whether the frame was encrypted
 * @throws FrameError when the frame neither parses nor decrypts, is not a JSON object, or its
 * `type` is not a finite number
 */
export function decodeFrame(data: unknown, userKey?: string): DecodedFrame {
  const text = frameText(data);
  // Ciphertext (base64) never starts with '{': decrypt it without a JSON.parse that would throw.
  // On any failure, the full path below runs and reports exactly as before.
  if (userKey !== undefined && firstChar(text) !== '{') {
    const fast = decryptFrame(userKey, text);
    if (fast) return fast;
  }
  let parsed: unknown;
  let parseError: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    parseError = error;
  }
  const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  if (parseError === undefined && (isObject || userKey === undefined)) {
    return { message: toMessage(parsed), encrypted: false };
  }
  if (userKey === undefined) {
    throw new FrameError(`Frame is not JSON and there is no key to decrypt it: "${preview(text)}".`, { cause: parseError });
  }
  let plain: string;
  try {
    plain = aesEcb().aesEcbDecrypt(userKey, text.trim());
  } catch (cause) {
    if (parseError === undefined) return { message: toMessage(parsed), encrypted: false };
    throw new FrameError(`Frame is neither JSON nor decryptable: "${preview(text)}".`, { cause });
  }
  let decrypted: unknown;
  try {
    decrypted = JSON.parse(plain);
  } catch (cause) {
    throw new FrameError('Decrypted frame is not JSON.', { cause });
  }
  return { message: toMessage(decrypted), encrypted: true };
}
