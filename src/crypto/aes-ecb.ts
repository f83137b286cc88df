/**
 * AES-256-ECB with PKCS#7 padding, base64 output (protocol conventions `AES-ECB(k, s)`).
 *
 * The AES key expansion and rounds are `aes-blocks.ts` (noble's rounds with small tables, in the
 * lazy AES chunk), with the key schedules cached per key: frames are encrypted and decrypted one by
 * one under the same user key, which noble's `ecb()` expanded (and wiped) again per call. ECB and
 * PKCS#7 padding are done here, so that every failure (a wrong key included) gives the same error.
 * The tests compare every result with node:crypto's aes-256-ecb.
 * @module
 */
import { decryptWords, encryptWords, expandDecryptionKey, expandEncryptionKey } from './aes-blocks.js';
import { utf8Decode } from './encoding.js';
import { base64ToCiphertext, ciphertextToBase64 } from './frame-base64.js';

import { DECRYPT_ERROR, INVALID_KEY_LENGTH } from './errors.js';

export { DECRYPT_ERROR, INVALID_KEY_LENGTH } from './errors.js';

/**
 * A key checked once, with its AES key schedules expanded on first use. A client uses one user
 * key for every frame it sends and receives, so each frame costs the blocks only, not a key
 * expansion and its buffers (noble's `ecb()` expands the key on every call).
 */
interface KeySchedule {
  /** Round keys for encryption (little-endian words). */
  enc?: Uint32Array;
  /** Round keys for decryption. */
  dec?: Uint32Array;
  /** The key's 32 UTF-8 bytes, which the schedules are expanded from. */
  bytes: Uint8Array;
}

/** The schedules of the last few keys used (a client uses one user key; a server a few). */
const keyCache = new Map<string, KeySchedule>();
const KEY_CACHE_SIZE = 8;

/** One UTF-8 encoder for keys and plaintexts. */
const encoder = new TextEncoder();

/** The key's schedules; throws {@link INVALID_KEY_LENGTH} unless its UTF-8 is 32 bytes. */
function scheduleOf(key: string): KeySchedule {
  const cached = keyCache.get(key);
  if (cached) return cached;
  if (typeof key !== 'string') throw new Error(INVALID_KEY_LENGTH);
  const bytes = encoder.encode(key);
  if (bytes.length !== 32) throw new Error(INVALID_KEY_LENGTH);
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value as string);
  const schedule: KeySchedule = { bytes };
  keyCache.set(key, schedule);
  return schedule;
}

/**
 * A reusable buffer for the padded plaintext being encrypted (encryption is synchronous, so one
 * suffices); grown up to {@link SCRATCH_MAX} bytes, wiped after each use.
 */
let scratch = new Uint8Array(1024);
/** Larger plaintexts (rare: frames are small) get a buffer of their own. */
const SCRATCH_MAX = 65_536;

/** A buffer of at least `room` bytes for a plaintext and its padding. */
function plaintextBuffer(room: number): Uint8Array {
  if (scratch.length >= room) return scratch;
  const buffer = new Uint8Array((room + 15) & ~15);
  if (room <= SCRATCH_MAX) scratch = buffer;
  return buffer;
}

/** Whether this platform stores words little-endian (every browser's and Node's does). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Reverses the bytes of each word on a big-endian platform: the rounds work on little-endian words. */
function swap32IfBE(words: Uint32Array): void {
  if (LITTLE_ENDIAN) return;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as number;
    words[i] = (w << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24);
  }
}

/** Encrypts `words` (4 words a block, little-endian lanes) in place. */
function encryptBlocks(words: Uint32Array, xk: Uint32Array): void {
  swap32IfBE(words);
  encryptWords(words, xk);
  swap32IfBE(words);
}

/** Decrypts `words` in place. */
function decryptBlocks(words: Uint32Array, xk: Uint32Array): void {
  swap32IfBE(words);
  decryptWords(words, xk);
  swap32IfBE(words);
}

/**
 * Encrypts text with AES-256-ECB and PKCS#7 padding.
 * @param key - the key: a string whose UTF-8 bytes are exactly 32 (e.g. the user token)
 * @param plaintext - the text; its UTF-8 bytes are encrypted
 * @returns the ciphertext as base64
 * @throws Error {@link INVALID_KEY_LENGTH} when the key is not 32 bytes
 */
export function aesEcbEncrypt(key: string, plaintext: string): string {
  const schedule = scheduleOf(key);
  if (typeof plaintext !== 'string') throw new TypeError('aesEcbEncrypt: plaintext must be a string.');
  const xk = (schedule.enc ??= expandEncryptionKey(schedule.bytes));
  // UTF-8 takes at most 3 bytes per UTF-16 unit; room for that plus a block of padding
  const buffer = plaintextBuffer(plaintext.length * 3 + 16);
  const written = encoder.encodeInto(plaintext, buffer).written;
  const pad = 16 - (written % 16);
  const blocks = buffer.subarray(0, written + pad);
  blocks.fill(pad, written);
  encryptBlocks(new Uint32Array(buffer.buffer, 0, blocks.length / 4), xk);
  const base64 = ciphertextToBase64(blocks);
  blocks.fill(0);
  return base64;
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
  const schedule = scheduleOf(key);
  let plain: Uint8Array;
  try {
    plain = base64ToCiphertext(base64);
  } catch {
    throw new Error(DECRYPT_ERROR);
  }
  if (plain.length === 0 || plain.length % 16 !== 0) throw new Error(DECRYPT_ERROR);
  const xk = (schedule.dec ??= expandDecryptionKey(schedule.bytes));
  try {
    // at offset 0 of its buffer (reused, so wiped below): decrypted in place, through an aligned word view
    decryptBlocks(new Uint32Array(plain.buffer, plain.byteOffset, plain.length / 4), xk);
    // The padding is checked here, so that every failure is DECRYPT_ERROR.
    const pad = plain[plain.length - 1] ?? 0;
    if (pad < 1 || pad > 16 || pad >= plain.length) throw new Error(DECRYPT_ERROR);
    for (let i = plain.length - pad; i < plain.length; i++) {
      if (plain[i] !== pad) throw new Error(DECRYPT_ERROR);
    }
    return utf8Decode(plain.subarray(0, plain.length - pad));
  } catch {
    throw new Error(DECRYPT_ERROR);
  } finally {
    // no plaintext is left in the reused buffer
    plain.fill(0);
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
  if (typeof prefix !== 'string' || encoder.encode(prefix).length > 32) throw new Error(INVALID_KEY_LENGTH);
  return {
    encrypt: (suffix, text) => aesEcbEncrypt(prefix + String(suffix), text),
    decrypt: (suffix, b64) => aesEcbDecrypt(prefix + String(suffix), b64),
  };
}
