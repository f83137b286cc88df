/**
 * The protocol's ciphers, written against the protocol documents with `node:crypto` only (no code
 * of the SDK or of any server): AES-256-ECB for (enc) payloads and frames, AES-256-GCM for the user
 * token and the connect payload, RSA PKCS#1 v1.5 for the connect key, HMAC-SHA256 for the signature.
 * @module
 */

import { constants, createCipheriv, createDecipheriv, createHmac, createPublicKey, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';

/**
 * `AES-ECB(key, text)`: AES-256-ECB with PKCS#7 padding of the UTF-8 bytes of `text`, base64 out.
 * @param key - the 32 key bytes (the `userKey`)
 * @param text - the plain text
 */
export function ecb(key: Buffer, text: string): string {
  const cipher = createCipheriv('aes-256-ecb', key, null);
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

/**
 * Reverses {@link ecb}.
 * @param key - the 32 key bytes
 * @param b64 - base64 cipher text
 * @throws Error when the text does not decrypt (bad padding, wrong key)
 */
export function unEcb(key: Buffer, b64: string): string {
  const decipher = createDecipheriv('aes-256-ecb', key, null);
  return Buffer.concat([decipher.update(Buffer.from(b64, 'base64')), decipher.final()]).toString('utf8');
}

/**
 * `GCM(key, text)`: AES-256-GCM with a fresh 12-byte nonce, no additional data, a 16-byte tag;
 * `base64(nonce || ciphertext || tag)`.
 * @param key - the 32 key bytes
 * @param text - the plain text
 */
export function gcm(key: Buffer, text: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/**
 * Reverses {@link gcm}.
 * @param key - the 32 key bytes
 * @param b64 - `base64(nonce || ciphertext || tag)`
 * @throws Error when the tag does not verify
 */
export function unGcm(key: Buffer, b64: string): string {
  const data = Buffer.from(b64, 'base64');
  if (data.length < 28) throw new Error('Error decrypting text');
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]).toString('utf8');
}

/**
 * Reads the public half of a `socketKey` (`"<publicKey>,<secret>"`): base64 DER SubjectPublicKeyInfo.
 * @param base64Der - the PEM body without header lines
 * @throws Error when it is not an RSA public key
 */
export function rsaPublicKey(base64Der: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64Der, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`the socket key is a ${String(key.asymmetricKeyType)} key, not RSA`);
  return key;
}

/**
 * `base64(RSA-PKCS1-v1_5-encrypt(publicKey, text))`: what jsencrypt's `encrypt(text)` yields.
 * @param publicKey - the server's RSA public key
 * @param text - the plain text (the base64 connect key)
 */
export function rsaEncrypt(publicKey: KeyObject, text: string): string {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text, 'utf8')).toString('base64');
}

/**
 * Lowercase hex `HMAC-SHA256(secret, message)`.
 * @param secret - the HMAC key (the `socketKey`'s second half)
 * @param message - the signed text
 */
export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}
