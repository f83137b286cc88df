/**
 * RSA PKCS#1 v1.5 public-key encryption through jsencrypt, loaded lazily by dynamic import (its
 * ESM entry does not load under Node's own ESM loader; the build bundles it into its own chunk).
 * @module
 */

import { lazy } from '../lazy.js';

const loadJsEncrypt = lazy(() => import('jsencrypt'));

/**
 * Starts loading jsencrypt ahead of the first encryption (a connect follows start-up): the chunk
 * is fetched and compiled while the key exchange waits for the network. A failed load is forgotten
 * (the encryption loads again).
 */
export function preloadRsa(): void {
  loadJsEncrypt().catch(() => undefined);
}

/** The generic failure text of a failed public-key encryption (spec §8: a Chinese message). */
export const RSA_ENCRYPT_ERROR = 'RSA加密失败';

/**
 * Encrypts text with an RSA public key (PKCS#1 v1.5), exactly as jsencrypt's `encrypt` does.
 * @param publicKey - base64 DER SubjectPublicKeyInfo (a PEM body without header lines); a full
 *   PEM text is accepted as well
 * @param text - the text to encrypt (at most the key size in bytes minus 11)
 * @returns the ciphertext as base64
 * @throws Error {@link RSA_ENCRYPT_ERROR} when the key is unusable or jsencrypt returns false
 */
export async function rsaEncrypt(publicKey: string, text: string): Promise<string> {
  if (typeof publicKey !== 'string' || publicKey.trim() === '' || typeof text !== 'string') {
    throw new Error(RSA_ENCRYPT_ERROR);
  }
  const { JSEncrypt } = await loadJsEncrypt();
  let result: string | false;
  try {
    const rsa = new JSEncrypt();
    rsa.setPublicKey(publicKey.trim());
    result = rsa.encrypt(text);
  } catch {
    result = false;
  }
  if (typeof result !== 'string' || result === '') throw new Error(RSA_ENCRYPT_ERROR);
  return result;
}
