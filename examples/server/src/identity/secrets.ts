/**
 * Client secrets (protocol §3a): 32 secure random bytes as base64url, stored only as a hash.
 *
 * Why SHA-256 and not a slow password hash: the secret is 256 bits drawn by the server from a
 * CSPRNG, not chosen by a person. Nobody can guess or enumerate it, so a slow hash (which exists
 * to make guessing low-entropy passwords expensive) would add nothing but CPU per connect; a
 * stolen database still gives no usable secret, because reversing SHA-256 of a 256-bit random
 * value is infeasible.
 * @module
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh client secret: base64url of 32 secure random bytes (43 characters). */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a secret: lowercase hex SHA-256 of its UTF-8 text. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Whether `given` is the secret whose hash is `storedHash`. The comparison runs on the two
 * fixed-length hashes with `timingSafeEqual`, so its time tells nothing about the secret; a
 * missing or non-string `given` is compared too (against a hash of the empty string) and fails.
 */
export function secretMatches(given: unknown, storedHash: string): boolean {
  const text = typeof given === 'string' && given.length <= 256 ? given : '';
  const a = Buffer.from(hashSecret(text), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  if (b.length !== a.length) return false;
  return timingSafeEqual(a, b) && text !== '';
}
