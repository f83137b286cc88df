/**
 * HMAC-SHA256 (`@noble/hashes`, audited; synchronous, unlike WebCrypto's `subtle.sign`).
 * @module
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8Encode } from './encoding.js';

/**
 * HMAC-SHA256 of a UTF-8 message under a UTF-8 secret.
 * @param secret - the key (its UTF-8 bytes)
 * @param message - the message (its UTF-8 bytes)
 * @returns the MAC as 64 lowercase hex characters
 */
export function hmacSha256Hex(secret: string, message: string): string {
  if (typeof secret !== 'string' || typeof message !== 'string') {
    throw new TypeError('hmacSha256Hex: secret and message must be strings.');
  }
  return bytesToHex(hmac(sha256, utf8Encode(secret), utf8Encode(message)));
}
