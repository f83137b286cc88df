/**
 * RSA PKCS#1 v1.5 public-key encryption (RSAES-PKCS1-v1_5, RFC 8017 §7.2.1): the padding and the
 * modular exponentiation are `micro-rsa-dsa-dh`'s (the platform's BigInt), the key is read by
 * WebCrypto. It yields what jsencrypt's `encrypt` yields (the card's library, which every server
 * of this protocol can decrypt with), as many bytes as the modulus.
 *
 * Why not jsencrypt (measured in bench/README.md, the first screen's seventh pass): its chunk is
 * 57.9 kB (17.8 kB gzip) that every visitor page loads at start-up, and its evaluation and one
 * encryption took 33.5 ms of a phone's main thread (4x CPU slowdown) on the way to the first
 * screen, against 4.2 ms now.
 * @module
 */
import { PKCS1_KEM } from 'micro-rsa-dsa-dh/rsa.js';
import { subtle } from './aes-gcm.js';
import { base64ToBytes, base64UrlToBytes, bytesToBase64, utf8Encode } from './encoding.js';
import { bytesToHex } from './hex.js';

/** The generic failure text of a failed public-key encryption (spec §8: a Chinese message). */
export const RSA_ENCRYPT_ERROR = 'RSA加密失败';

/** An RSA public key's modulus and exponent. */
interface RsaPublicKey {
  n: bigint;
  e: bigint;
}

/** A JWK's base64url number as a BigInt. */
function jwkNumber(value: string | undefined): bigint {
  if (!value) throw new Error(RSA_ENCRYPT_ERROR);
  return BigInt(`0x${bytesToHex(base64UrlToBytes(value))}`);
}

/**
 * Reads a base64 DER SubjectPublicKeyInfo (or its PEM text) through WebCrypto: the key's modulus
 * and exponent, from its JWK form.
 */
async function readPublicKey(publicKey: string): Promise<RsaPublicKey> {
  const webCrypto = subtle('RSA');
  const body = publicKey.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  // the algorithm only names how WebCrypto would use the key: its modulus and exponent are read
  const key = await webCrypto.importKey('spki', new Uint8Array(base64ToBytes(body)), { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['encrypt']);
  const jwk = await webCrypto.exportKey('jwk', key);
  return { n: jwkNumber(jwk.n), e: jwkNumber(jwk.e) };
}

/** The last key read (a client encrypts under one server key; a reconnect reads it again for free). */
let lastKey: { source: string; key: Promise<RsaPublicKey> } | null = null;

function publicKeyOf(publicKey: string): Promise<RsaPublicKey> {
  if (lastKey?.source !== publicKey) {
    const key = readPublicKey(publicKey);
    // a key that cannot be read is not kept: the next call reads it again (and fails again)
    key.catch(() => {
      if (lastKey?.key === key) lastKey = null;
    });
    lastKey = { source: publicKey, key };
  }
  return lastKey.key;
}

/**
 * Encrypts text with an RSA public key (PKCS#1 v1.5), as jsencrypt's `encrypt` does.
 * @param publicKey - base64 DER SubjectPublicKeyInfo (a PEM body without header lines); a full
 *   `PUBLIC KEY` PEM text is accepted as well
 * @param text - the text to encrypt (its UTF-8 bytes: at most the key size in bytes minus 11)
 * @returns the ciphertext as base64, as many bytes as the key's modulus
 * @throws Error {@link RSA_ENCRYPT_ERROR} when the key is unusable or the text too long for it
 */
export async function rsaEncrypt(publicKey: string, text: string): Promise<string> {
  if (typeof publicKey !== 'string' || publicKey.trim() === '' || typeof text !== 'string') {
    throw new Error(RSA_ENCRYPT_ERROR);
  }
  try {
    const key = await publicKeyOf(publicKey.trim());
    return bytesToBase64(PKCS1_KEM.encrypt(key, utf8Encode(text)));
  } catch {
    throw new Error(RSA_ENCRYPT_ERROR);
  }
}
