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

/** Random bytes drawn at once for {@link randomUuid}: 256 UUIDs per `getRandomValues` call. */
const UUID_POOL_BYTES = 4_096;
/** Two lowercase hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
let uuidPool: Uint8Array = new Uint8Array(0);
let uuidAt = 0;
/** The generator that filled {@link uuidPool}: another one (a test's stub) starts a new pool. */
let uuidPoolSource: unknown = null;

/**
 * A random RFC 4122 version 4 UUID (lowercase, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`), 122
 * random bits from `crypto.getRandomValues`. One is drawn per read receipt, so it must be cheap:
 * the bytes of 256 UUIDs are drawn at once (Chromium's `crypto.randomUUID` costs ~3 µs a call,
 * this ~0.4 µs; about the same in Node).
 * @returns the UUID
 * @throws Error {@link NO_RANDOM_ERROR} when there is no secure random source
 */
export function randomUuid(): string {
  const getRandomValues = (globalThis as { crypto?: { getRandomValues?: unknown } }).crypto?.getRandomValues;
  if (typeof getRandomValues !== 'function') throw new Error(NO_RANDOM_ERROR);
  if (uuidAt + 16 > uuidPool.length || uuidPoolSource !== getRandomValues) {
    uuidPool = randomBytes(UUID_POOL_BYTES);
    uuidPoolSource = getRandomValues;
    uuidAt = 0;
  }
  const b = uuidPool;
  const i = uuidAt;
  uuidAt += 16;
  const h = (k: number): string => HEX[b[i + k] as number] as string;
  return (
    `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${HEX[((b[i + 6] as number) & 0x0f) | 0x40] as string}${h(7)}-` +
    `${HEX[((b[i + 8] as number) & 0x3f) | 0x80] as string}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`
  );
}
