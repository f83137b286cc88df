/**
 * Agent password hashes: scrypt from `node:crypto`, stored as
 * `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>` (16-byte salt, 32-byte hash).
 * Verification reads the parameters from the stored string, so stronger parameters can be
 * introduced later without breaking stored hashes.
 * @module
 */

import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The scrypt parameters used for new hashes (N = 2^14, r = 8, p = 1: 16 MiB, about 60 ms). */
export const SCRYPT_PARAMS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const FORMAT = /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{32,128})$/;

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function options(x: { N: number; r: number; p: number }): ScryptOptions {
  return { N: x.N, r: x.r, p: x.p, maxmem: 256 * x.N * x.r + 1024 * 1024 };
}

/** Parses a stored hash; undefined when it is not in the format above or its parameters are unusable. */
export function parsePasswordHash(stored: string): Parsed | undefined {
  const m = FORMAT.exec(stored);
  if (!m) return undefined;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (N < 2 || (N & (N - 1)) !== 0 || N > 1_048_576 || r < 1 || r > 32 || p < 1 || p > 16) return undefined;
  return { N, r, p, salt: Buffer.from(m[4] ?? '', 'base64url'), hash: Buffer.from(m[5] ?? '', 'base64url') };
}

/** Whether `stored` is a usable scrypt hash string. */
export function isPasswordHash(stored: string): boolean {
  return parsePasswordHash(stored) !== undefined;
}

/** Hashes a password (synchronously: start-up and the admin command). */
export function hashPassword(password: string, params: { N: number; r: number; p: number } = SCRYPT_PARAMS): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFC'), salt, KEY_LENGTH, options(params));
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

let dummy: string | undefined;
/** A hash of a random password (made on first use): verifying against it costs what a real one costs. */
export function dummyHash(): string {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

/**
 * Whether `password` matches `stored` (asynchronously, off the event loop). A malformed `stored`
 * never matches. The final comparison is constant-time.
 */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return Promise.resolve(false);
  return new Promise((resolve) => {
    scrypt(password.normalize('NFC'), parsed.salt, parsed.hash.length, options(parsed), (error, derived) => {
      if (error) resolve(false);
      else resolve(derived.length === parsed.hash.length && timingSafeEqual(derived, parsed.hash));
    });
  });
}
