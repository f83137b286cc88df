/**
 * AES-256-ECB with PKCS#7 padding, base64 output (protocol conventions `AES-ECB(k, s)`).
 *
 * Uses crypto-js (imported per submodule so the bundle stays small). Padding is checked by hand:
 * crypto-js's own PKCS#7 unpadding does not validate, so a wrong key would otherwise yield
 * garbage instead of an error.
 * @module
 */
import 'crypto-js/aes.js'; // registers CryptoJS.algo.AES
import CryptoJS from 'crypto-js/core.js';
import Base64 from 'crypto-js/enc-base64.js';
import ECB from 'crypto-js/mode-ecb.js';
import NoPadding from 'crypto-js/pad-nopadding.js';
import Pkcs7 from 'crypto-js/pad-pkcs7.js';
import { base64ToBytes, utf8Decode, utf8Encode } from './encoding.js';

/** The error text for an AES key that is not 32 bytes (spec §8). */
export const INVALID_KEY_LENGTH = 'Invalid key length. Key must be 256 bits (32 bytes).';

/** The error text for any decryption failure (spec §8). */
export const DECRYPT_ERROR = 'Error decrypting text';

type WordArray = CryptoJS.lib.WordArray;

/** Converts bytes to a crypto-js WordArray (big-endian 32-bit words, packed directly). */
function toWords(bytes: Uint8Array): WordArray {
  const words = new Array<number>((bytes.length + 3) >>> 2).fill(0);
  for (let i = 0; i < bytes.length; i++) {
    words[i >>> 2] = (words[i >>> 2] ?? 0) | ((bytes[i] ?? 0) << (24 - (i % 4) * 8));
  }
  return CryptoJS.lib.WordArray.create(words, bytes.length);
}

/** Converts a crypto-js WordArray to bytes. */
function fromWords(words: WordArray): Uint8Array {
  const out = new Uint8Array(Math.max(0, words.sigBytes));
  for (let i = 0; i < out.length; i++) {
    out[i] = ((words.words[i >>> 2] ?? 0) >>> (24 - (i % 4) * 8)) & 0xff;
  }
  return out;
}

/** The key's UTF-8 bytes as a WordArray; throws {@link INVALID_KEY_LENGTH} unless 32 bytes. */
function keyWords(key: string): WordArray {
  if (typeof key !== 'string') throw new Error(INVALID_KEY_LENGTH);
  const bytes = utf8Encode(key);
  if (bytes.length !== 32) throw new Error(INVALID_KEY_LENGTH);
  return toWords(bytes);
}

/** An encryptor and a decryptor for one key: AES's key schedule is computed once, not per frame. */
interface EcbCiphers {
  encryptor: Cipher;
  decryptor: Cipher;
}

type Cipher = ReturnType<typeof CryptoJS.algo.AES.createEncryptor>;

/** The ciphers of the last few keys used (a client uses one user key; a server a few). */
const cipherCache = new Map<string, EcbCiphers>();
const CIPHER_CACHE_SIZE = 8;

function ciphersFor(key: string): EcbCiphers {
  const cached = cipherCache.get(key);
  if (cached) return cached;
  const k = keyWords(key);
  // Decryption removes no padding itself: the padding is checked by hand below (crypto-js
  // accepts bad padding, which would turn a wrong key into garbage instead of an error).
  const ciphers: EcbCiphers = {
    encryptor: CryptoJS.algo.AES.createEncryptor(k, { mode: ECB, padding: Pkcs7 }),
    decryptor: CryptoJS.algo.AES.createDecryptor(k, { mode: ECB, padding: NoPadding }),
  };
  if (cipherCache.size >= CIPHER_CACHE_SIZE) cipherCache.delete(cipherCache.keys().next().value as string);
  cipherCache.set(key, ciphers);
  return ciphers;
}

/**
 * Encrypts text with AES-256-ECB and PKCS#7 padding.
 * @param key - the key: a string whose UTF-8 bytes are exactly 32 (e.g. the user token)
 * @param plaintext - the text; its UTF-8 bytes are encrypted
 * @returns the ciphertext as base64
 * @throws Error {@link INVALID_KEY_LENGTH} when the key is not 32 bytes
 */
export function aesEcbEncrypt(key: string, plaintext: string): string {
  const { encryptor } = ciphersFor(key);
  if (typeof plaintext !== 'string') throw new TypeError('aesEcbEncrypt: plaintext must be a string.');
  encryptor.reset();
  return encryptor.finalize(toWords(utf8Encode(plaintext))).toString(Base64);
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
  const { decryptor } = ciphersFor(key);
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(base64);
  } catch {
    throw new Error(DECRYPT_ERROR);
  }
  if (bytes.length === 0 || bytes.length % 16 !== 0) throw new Error(DECRYPT_ERROR);
  decryptor.reset();
  const plain = fromWords(decryptor.finalize(toWords(bytes)));
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
