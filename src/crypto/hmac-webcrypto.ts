/**
 * HMAC-SHA256 through WebCrypto (`subtle.sign`): native and asynchronous. The connect's signature
 * (protocol §3) is made with it: the synchronous `hmacSha256Hex` (`hmac.ts`, `@noble/hashes`) ran once
 * per connect in code the engine had not compiled yet, 8-16 ms of a phone's main thread (4x) on a
 * first visit, and brought SHA-256 into the connect's chunk for that one call.
 * @module
 */
import { subtle } from './aes-gcm.js';
import { utf8Encode } from './encoding.js';
import { bytesToHex } from './hex.js';

/**
 * HMAC-SHA256 of a UTF-8 message under a UTF-8 secret, as `hmacSha256Hex` computes it.
 * @param secret - the key (its UTF-8 bytes); not empty (WebCrypto refuses a zero-length key)
 * @param message - the message (its UTF-8 bytes)
 * @returns the MAC as 64 lowercase hex characters
 * @throws TypeError when `secret` is not a non-empty string or `message` not a string
 * @throws Error when the environment has no WebCrypto
 */
export async function hmacSha256HexAsync(secret: string, message: string): Promise<string> {
  if (typeof secret !== 'string' || secret === '' || typeof message !== 'string') {
    throw new TypeError('hmacSha256HexAsync: secret must be a non-empty string and message a string.');
  }
  const crypto = subtle('HMAC-SHA256');
  const key = await crypto.importKey('raw', new Uint8Array(utf8Encode(secret)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return bytesToHex(new Uint8Array(await crypto.sign('HMAC', key, new Uint8Array(utf8Encode(message)))));
}
