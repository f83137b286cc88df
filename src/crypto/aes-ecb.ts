/**
 * AES-256-ECB with PKCS#7 padding, base64 output (protocol conventions `AES-ECB(k, s)`).
 *
 * Uses `@noble/ciphers` (audited, tree-shakeable; only its AES module is bundled). Padding is
 * removed and checked here, so that every failure (a wrong key included) gives the same error.
 * @module
 */
import { ecb } from '@noble/ciphers/aes.js';
import { base64ToBytes, bytesToBase64, utf8Decode, utf8Encode } from './encoding.js';

import { DECRYPT_ERROR, INVALID_KEY_LENGTH } from './errors.js';

export { DECRYPT_ERROR, INVALID_KEY_LENGTH } from './errors.js';

/**
 * The key bytes of the last few keys used (a client uses one user key; a server a few), checked
 * once. A noble cipher object is single-use for encryption, so one is made per call (cheap: AES's
 * key schedule is computed per call either way).
 */
const keyCache = new Map<string, Uint8Array>();
const KEY_CACHE_SIZE = 8;

/** The key's UTF-8 bytes; throws {@link INVALID_KEY_LENGTH} unless 32 bytes. */
function keyBytes(key: string): Uint8Array {
  const cached = keyCache.get(key);
  if (cached) return cached;
  if (typeof key !== 'string') throw new Error(INVALID_KEY_LENGTH);
  const bytes = utf8Encode(key);
  if (bytes.length !== 32) throw new Error(INVALID_KEY_LENGTH);
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value as string);
  keyCache.set(key, bytes);
  return bytes;
}

/**
 * Encrypts text with AES-256-ECB and PKCS#7 padding.
 * @param key - the key: a string whose UTF-8 bytes are exactly 32 (e.g. the user token)
 * @param plaintext - the text; its UTF-8 bytes are encrypted
 * @returns the ciphertext as base64
 * @throws Error {@link INVALID_KEY_LENGTH} when the key is not 32 bytes
 */
export function aesEcbEncrypt(key: string, plaintext: string): string {
  const k = keyBytes(key);
  if (typeof plaintext !== 'string') throw new TypeError('aesEcbEncrypt: plaintext must be a string.');
  return bytesToBase64(ecb(k).encrypt(utf8Encode(plaintext)));
}

/**
 * Decrypts base64 AES-256-ECB/PKCS#7 ciphertext into text.
 *
 * Every failure gives the same error: invalid base64, a length that is not a positive multiple
 * of 16, bad padding (typically a wrong key), a plaintext that is not UTF-8, and an empty
 * plaintext (which the original client also treated as a failure).
 * @param key - the key: a string whose UTF-8 bytes are exactly 32
 * @param base64 - the ciphertext as base64
 * @returns the decrypted text
 * @throws Error {@link INVALID_KEY_LENGTH} when the key is not 32 bytes
 * @throws Error {@link DECRYPT_ERROR} when decryption fails
 */
export function aesEcbDecrypt(key: string, base64: string): string {
  const k = keyBytes(key);
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(base64);
  } catch {
    throw new Error(DECRYPT_ERROR);
  }
  if (bytes.length === 0 || bytes.length % 16 !== 0) throw new Error(DECRYPT_ERROR);
  // No padding removal by the cipher: it is checked here, so that every failure is DECRYPT_ERROR.
  const plain = ecb(k, { disablePadding: true }).decrypt(bytes);
  const pad = plain[plain.length - 1] ?? 0;
  if (pad < 1 || pad > 16 || pad > plain.length) throw new Error(DECRYPT_ERROR);
  for (let i = plain.length - pad; i < plain.length; i++) {
    if (plain[i] !== pad) throw new Error(DECRYPT_ERROR);
  }
  const text = plain.subarray(0, plain.length - pad);
  if (text.length === 0) throw new Error(DECRYPT_ERROR);
  try {
    return utf8Decode(text);
  } catch {
    throw new Error(DECRYPT_ERROR);
  }
}

/** An ECB helper bound to a fixed key prefix (see {@link createPrefixedEcb}). */
export interface PrefixedEcb {
  /** Encrypts `text` under the key `prefix + suffix`; base64 out. */
  encrypt(suffix: string, text: string): string;
  /** Decrypts base64 `b64` under the key `prefix + suffix`. */
  decrypt(suffix: string, b64: string): string;
}

/**
 * Spec §7: "An AES helper in ECB mode with padding, using a fixed key prefix plus a
 * caller-supplied suffix and yielding base64". The key is `prefix + suffix`, whose UTF-8 bytes
 * must be exactly 32.
 * @param prefix - the fixed key prefix
 * @returns the helper
 * @throws Error when `prefix` alone is longer than 32 bytes (no suffix could make a valid key)
 */
export function createPrefixedEcb(prefix: string): PrefixedEcb {
  if (typeof prefix !== 'string' || utf8Encode(prefix).length > 32) throw new Error(INVALID_KEY_LENGTH);
  return {
    encrypt: (suffix, text) => aesEcbEncrypt(prefix + String(suffix), text),
    decrypt: (suffix, b64) => aesEcbDecrypt(prefix + String(suffix), b64),
  };
}
