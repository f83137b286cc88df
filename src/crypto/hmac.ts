/**
 * HMAC-SHA256 (crypto-js submodules).
 * @module
 */
import Hex from 'crypto-js/enc-hex.js';
import HmacSHA256 from 'crypto-js/hmac-sha256.js';

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
  return HmacSHA256(message, secret).toString(Hex);
}
