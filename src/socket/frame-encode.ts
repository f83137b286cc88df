/**
 * Socket frame encoding (protocol §4 "Frames") and the frame error: what the client needs from its
 * construction on (a message is encoded when it is sent, to check its size, even before the socket
 * code loads). Decoding is in `frame-decode.ts`, loaded with the socket stack.
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

/** Describes a value's kind for an error message. @internal */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Checks the decoded JSON value and normalises `dataContent` to a string (see {@link decodeFrame}).
 * @throws FrameError when the value is not an object or its `type` is not a finite number
 * @internal
 */
export function toMessage(value: unknown): ChatMessage {
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
  // toMessage changes only a `dataContent` that is not a string: then it works on a copy
  const copy = typeof message === 'object' && message !== null && message.dataContent !== undefined && typeof message.dataContent !== 'string';
  const normalised = toMessage(copy ? { ...message } : message);
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

