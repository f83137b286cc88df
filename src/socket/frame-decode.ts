/**
 * Socket frame decoding (protocol §4 "Frames"): only an open socket receives frames, so this loads
 * with the socket stack, not at start-up.
 * @module
 */
import { aesEcb } from '../crypto/load-aes-ecb.js';
import { FrameError, kindOf, toMessage, type DecodedFrame } from './frame-encode.js';

/** Shortens a value for an error message. */
function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
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
