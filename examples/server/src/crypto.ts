/**
 * The server's side of the protocol's cryptography (protocol §1-§4), on node:crypto, plus RSA
 * PKCS#1 v1.5 decryption through jsencrypt (Node 20+ refuses that padding in privateDecrypt).
 * This is an independent implementation: it never imports the SDK.
 * @module
 */

import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { createRequire } from 'node:module';

/** Raised when a ciphertext does not decrypt (wrong key, bad padding, bad tag, bad base64). */
export class DecryptError extends Error {
  override name = 'DecryptError';
  constructor() {
    super('Error decrypting text');
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Strict base64 decoding (node's decoder silently skips invalid characters).
 * @throws DecryptError when `text` is not base64.
 */
export function fromBase64(text: string): Buffer {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 4 !== 0 || !BASE64.test(clean)) throw new DecryptError();
  return Buffer.from(clean, 'base64');
}

function requireKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('Invalid key length. Key must be 256 bits (32 bytes).');
}

/** `AES-ECB(k, s)`: AES-256-ECB, PKCS#7, UTF-8 in, base64 out. */
export function aesEcbEncrypt(key: Buffer, text: string): string {
  requireKey(key);
  const cipher = createCipheriv('aes-256-ecb', key, null);
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

/**
 * Reverses {@link aesEcbEncrypt}.
 * @throws DecryptError when the input is not base64, not whole blocks, or badly padded.
 */
export function aesEcbDecrypt(key: Buffer, base64: string): string {
  requireKey(key);
  const data = fromBase64(base64);
  if (data.length === 0 || data.length % 16 !== 0) throw new DecryptError();
  try {
    const decipher = createDecipheriv('aes-256-ecb', key, null);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptError();
  }
}

/** `GCM(k, s)`: AES-256-GCM, fresh 12-byte nonce, 16-byte tag, `base64(nonce || ct || tag)`. */
export function gcmEncrypt(key: Buffer, text: string): string {
  requireKey(key);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/**
 * Reverses {@link gcmEncrypt}.
 * @throws DecryptError when the input is malformed or the tag does not verify.
 */
export function gcmDecrypt(key: Buffer, base64: string): string {
  requireKey(key);
  const data = fromBase64(base64);
  if (data.length < 12 + 16) throw new DecryptError();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(data.length - 16));
    const out = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
    return out.toString('utf8');
  } catch {
    throw new DecryptError();
  }
}

/** Lowercase hex HMAC-SHA256. */
export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

/** Constant-time string comparison (false on any length difference). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const ALPHANUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` secure random alphanumeric ASCII characters (AES keys and user tokens). */
export function randomAscii(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHANUM[randomInt(ALPHANUM.length)];
  return out;
}

/**
 * Protocol §1.3: `base64(aesKey XOR R)`, each key byte XORed with the byte of `requestKey` at the
 * same index modulo its length.
 */
export function obfuscateKey(aesKey: string, requestKey: string): string {
  const key = Buffer.from(aesKey, 'utf8');
  const mask = Buffer.from(requestKey, 'utf8');
  const out = Buffer.alloc(key.length);
  for (let i = 0; i < key.length; i += 1) out[i] = (key[i] ?? 0) ^ (mask[i % mask.length] ?? 0);
  return out.toString('base64');
}

/** The part of jsencrypt's API the server uses. */
interface RsaDecryptor {
  setPrivateKey(pem: string): void;
  decrypt(base64: string): string | false | null;
}

type RsaDecryptorClass = new () => RsaDecryptor;

function isDecryptorClass(value: unknown): value is RsaDecryptorClass {
  return typeof value === 'function' && typeof (value as { prototype?: { decrypt?: unknown } }).prototype?.decrypt === 'function';
}

let decryptorClass: RsaDecryptorClass | undefined;

function loadJsEncrypt(): RsaDecryptorClass {
  if (decryptorClass) return decryptorClass;
  // jsencrypt's ESM entry does not load under Node's ESM loader; its CJS build does.
  const loaded: unknown = createRequire(import.meta.url)('jsencrypt');
  const candidate = isDecryptorClass(loaded)
    ? loaded
    : (loaded as { default?: unknown; JSEncrypt?: unknown } | null)?.default ??
      (loaded as { JSEncrypt?: unknown } | null)?.JSEncrypt;
  if (!isDecryptorClass(candidate)) throw new Error('jsencrypt did not load');
  decryptorClass = candidate;
  return candidate;
}

/** An RSA private key ready to decrypt PKCS#1 v1.5 ciphertexts (base64), as jsencrypt does. */
export interface RsaPrivateKey {
  /** Decrypts a base64 ciphertext; throws {@link DecryptError} on any failure. */
  decrypt(base64: string): string;
}

/** Wraps a PEM private key (PKCS#1 or PKCS#8) for PKCS#1 v1.5 decryption. */
export function rsaPrivateKey(pem: string): RsaPrivateKey {
  const Decryptor = loadJsEncrypt();
  const rsa = new Decryptor();
  rsa.setPrivateKey(pem);
  return {
    decrypt(base64: string): string {
      if (base64.length === 0 || base64.length > 2048) throw new DecryptError();
      fromBase64(base64);
      let out: string | false | null;
      try {
        out = rsa.decrypt(base64);
      } catch {
        throw new DecryptError();
      }
      if (typeof out !== 'string') throw new DecryptError();
      return out;
    },
  };
}
