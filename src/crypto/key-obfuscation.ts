/**
 * The AES-key obfuscation of protocol §1.3: the server sends `base64(aesKey XOR R)` where `R`
 * is the start-up `requestKey`.
 * @module
 */
import { INVALID_KEY_LENGTH } from './errors.js';
import { base64ToBytes, bytesToBase64 } from './encoding.js';

/** XORs each byte with the char code of `requestKey` at the same index modulo its length. */
function xorWith(bytes: Uint8Array, requestKey: string): Uint8Array {
  if (typeof requestKey !== 'string' || requestKey.length === 0) {
    throw new Error('The requestKey must be a non-empty string.');
  }
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    out[i] = ((bytes[i] ?? 0) ^ requestKey.charCodeAt(i % requestKey.length)) & 0xff;
  }
  return out;
}

/**
 * Reveals the AES key from the `data` of `getAesKey`: base64-decodes it and XORs each byte with
 * the char code of `requestKey` at the same index modulo `requestKey.length`.
 * @param data - `base64(aesKey XOR requestKey)` as sent by the server
 * @param requestKey - the `requestKey` the call was made with (32 lowercase hex characters)
 * @returns the AES key: 32 ASCII characters
 * @throws Error {@link INVALID_KEY_LENGTH} when the result is not 32 ASCII bytes
 * @throws Error `Invalid base64 string: ...` when `data` is not base64
 */
export function revealAesKey(data: string, requestKey: string): string {
  const bytes = xorWith(base64ToBytes(data), requestKey);
  if (bytes.length !== 32 || bytes.some((b) => b > 0x7f)) throw new Error(INVALID_KEY_LENGTH);
  return String.fromCharCode(...bytes);
}

/**
 * The inverse of {@link revealAesKey} (what the server does; used by tests and mock servers).
 * @param aesKey - the AES key: 32 ASCII characters
 * @param requestKey - the client's `requestKey`
 * @returns `base64(aesKey XOR requestKey)`
 * @throws Error {@link INVALID_KEY_LENGTH} when `aesKey` is not 32 ASCII characters
 */
export function obscureAesKey(aesKey: string, requestKey: string): string {
  if (typeof aesKey !== 'string' || aesKey.length !== 32 || /[^\x00-\x7f]/.test(aesKey)) {
    throw new Error(INVALID_KEY_LENGTH);
  }
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = aesKey.charCodeAt(i);
  return bytesToBase64(xorWith(bytes, requestKey));
}
