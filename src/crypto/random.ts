/**
 * Secure random material from `globalThis.crypto.getRandomValues`, looked up at call time.
 * @module
 */
import { bytesToHex } from './hex.js';

/** The error text thrown when no secure random source exists (spec §8). */
export const NO_RANDOM_ERROR = 'No secure random number generator available.';

/** `getRandomValues` fills at most this many bytes per call (WebCrypto quota). */
const QUOTA = 65_536;

/**
 * Draws `n` secure random bytes.
 * @param n - how many bytes (a non-negative integer)
 * @returns `n` random bytes
 * @throws Error {@link NO_RANDOM_ERROR} when `globalThis.crypto.getRandomValues` is missing
 * @throws RangeError when `n` is not a non-negative integer
 */
export function randomBytes(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`randomBytes: expected a non-negative integer byte count, got ${String(n)}.`);
  }
  const source = (globalThis as { crypto?: { getRandomValues?: unknown } }).crypto;
  const getRandomValues = source?.getRandomValues;
  if (typeof getRandomValues !== 'function') throw new Error(NO_RANDOM_ERROR);
  const out = new Uint8Array(n);
  for (let offset = 0; offset < n; offset += QUOTA) {
    getRandomValues.call(source, out.subarray(offset, Math.min(n, offset + QUOTA)));
  }
  return out;
}

/**
 * Draws `byteCount` random bytes as lowercase hex (e.g. the 32-character `requestKey` of
 * protocol §1 is `randomHex(16)`).
 * @param byteCount - how many random bytes
 * @returns `2 * byteCount` lowercase hex characters
 */
export function randomHex(byteCount: number): string {
  return bytesToHex(randomBytes(byteCount));
}

/**
 * A random RFC 4122 version 4 UUID (lowercase, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`): the
 * platform's `crypto.randomUUID` where there is one (Node, secure browser contexts: one per read
 * receipt, so it must be cheap), else built from {@link randomBytes}.
 * @returns the UUID
 * @throws Error {@link NO_RANDOM_ERROR} when there is no secure random source
 */
export function randomUuid(): string {
  const source = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof source?.randomUUID === 'function') return source.randomUUID();
  const b = randomBytes(16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  return bytesToHex(b).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}
