/**
 * The server's side of the protocol's cryptography (protocol §1-§4), on node:crypto, including
 * RSA PKCS#1 v1.5 decryption: Node 20+ refuses that padding in `privateDecrypt`, so the server
 * runs the raw RSA operation natively (`RSA_NO_PADDING`) and removes the padding itself in
 * constant time with implicit rejection, as OpenSSL 3.2 does. The pure-JS jsencrypt path stays
 * available ({@link rsaPrivateKeyJs}) for comparison benchmarks.
 * This is an independent implementation: it never imports the SDK.
 * @module
 */

import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  privateDecrypt,
  randomBytes,
  randomInt,
  timingSafeEqual,
  type KeyObject,
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

/** The largest base64 ciphertext accepted (a 8192-bit key's ciphertext is 1368 characters). */
const MAX_RSA_BASE64 = 2048;

/**
 * Wraps a PEM private key (PKCS#1 or PKCS#8) for PKCS#1 v1.5 decryption through jsencrypt's pure
 * JavaScript (about 7-10 ms per 1024-bit decryption, blocking the event loop). The server uses
 * {@link rsaPrivateKey}; this stays for comparison benchmarks (`bench/handshake.ts`).
 */
export function rsaPrivateKeyJs(pem: string): RsaPrivateKey {
  const Decryptor = loadJsEncrypt();
  const rsa = new Decryptor();
  rsa.setPrivateKey(pem);
  return {
    decrypt(base64: string): string {
      if (base64.length === 0 || base64.length > MAX_RSA_BASE64) throw new DecryptError();
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

// ---------------------------------------------------------------------------------------------
// Native PKCS#1 v1.5 decryption with implicit rejection
// (draft-irtf-cfrg-rsa-guidance "Implicit Rejection for RSA PKCS#1 v1.5", OpenSSL 3.2's
// ossl_rsa_padding_check_PKCS1_type_2). On bad padding the result is a synthetic message derived
// from the private key and the ciphertext: deterministic, of a pseudo-random length, and made by
// the same code path as a good result, so neither errors nor timing tell whether the padding held.
// The callers' later checks (GCM tag, HMAC) then fail as for any wrong key.

/** 1 when `x` (0 <= x < 2^31) is zero, else 0, without branching. */
function ctIsZero(x: number): number {
  return ((x | -x) >>> 31) ^ 1;
}

/** 1 when `a < b` (both 0 <= a, b < 2^31), else 0, without branching. */
function ctLessThan(a: number, b: number): number {
  return ((a - b) >>> 31) & 1;
}

/** `bit ? a : b` for `bit` in {0, 1}, without branching. */
function ctSelect(bit: number, a: number, b: number): number {
  const mask = -bit;
  return (a & mask) | (b & ~mask);
}

function uint16(value: number): Buffer {
  return Buffer.from([(value >>> 8) & 0xff, value & 0xff]);
}

/**
 * The PRF of implicit rejection: `HMAC-SHA256(kdk, I || label || L)` for I = 0, 1, ... (two bytes
 * big-endian), L the output length in bits (two bytes), concatenated and cut to `bytes`.
 */
function rejectionPrf(kdk: Buffer, label: string, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  const bits = uint16(bytes * 8);
  for (let pos = 0, i = 0; pos < bytes; pos += 32, i += 1) {
    createHmac('sha256', kdk).update(uint16(i)).update(label, 'latin1').update(bits).digest().copy(out, pos, 0, Math.min(32, bytes - pos));
  }
  return out;
}

/** How many 16-bit candidates are drawn for the synthetic length (as OpenSSL: 2^-128 to fail). */
const LENGTH_CANDIDATES = 128;

/**
 * Removes PKCS#1 v1.5 type-2 padding from the `k`-byte encoded message `em` in constant time;
 * on bad padding returns the tail of `synthetic` (`k` bytes) whose length is drawn from
 * `lengths` (256 bytes). No branch or early return depends on the content of `em`.
 * @internal
 */
export function unpadPkcs1Implicit(em: Buffer, synthetic: Buffer, lengths: Buffer): Buffer {
  const k = em.length;
  // the synthetic length: the last candidate below k - 10 (the longest message k - 11 bytes)
  const maxSepOffset = k - 2 - 8;
  let mask = maxSepOffset;
  mask |= mask >>> 1;
  mask |= mask >>> 2;
  mask |= mask >>> 4;
  mask |= mask >>> 8;
  let syntheticLength = 0;
  for (let i = 0; i < LENGTH_CANDIDATES * 2; i += 2) {
    const candidate = (((lengths[i] ?? 0) << 8) | (lengths[i + 1] ?? 0)) & mask;
    syntheticLength = ctSelect(ctLessThan(candidate, maxSepOffset), candidate, syntheticLength);
  }
  const syntheticIndex = k - syntheticLength;

  let good = ctIsZero(em[0] ?? 1) & ctIsZero((em[1] ?? 0) ^ 2);
  let found = 0;
  let zeroIndex = 0;
  for (let i = 2; i < k; i += 1) {
    const isZero = ctIsZero(em[i] ?? 1);
    zeroIndex = ctSelect(isZero & (found ^ 1), i, zeroIndex);
    found |= isZero;
  }
  // PS at least 8 bytes; no separator leaves zeroIndex 0, which fails here too
  good &= ctLessThan(zeroIndex, 2 + 8) ^ 1;
  const msgIndex = ctSelect(good, zeroIndex + 1, syntheticIndex);

  // the length is no longer a signal (a synthetic one is just as likely); read both buffers
  const out = Buffer.alloc(k - msgIndex);
  for (let i = msgIndex, j = 0; i < k; i += 1, j += 1) out[j] = ctSelect(good, em[i] ?? 0, synthetic[i] ?? 0);
  return out;
}

/** The parts of an RSA private key that native decryption needs. */
interface NativeRsaKey {
  key: KeyObject;
  /** Modulus length in bytes. */
  k: number;
  /** The modulus, big-endian, `k` bytes. */
  modulus: Buffer;
  /** SHA-256 of the private exponent as `k` big-endian bytes: the HMAC key of the KDK. */
  dHash: Buffer;
}

function leftPad(bytes: Buffer, length: number): Buffer {
  if (bytes.length >= length) return bytes;
  return Buffer.concat([Buffer.alloc(length - bytes.length), bytes]);
}

function nativeKey(pem: string): NativeRsaKey {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('the server key is not an RSA key');
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.n !== 'string' || typeof jwk.d !== 'string') throw new Error('the RSA key has no modulus or private exponent');
  const n = Buffer.from(jwk.n, 'base64url');
  const first = n.findIndex((b) => b !== 0);
  const modulus = first <= 0 ? n : n.subarray(first);
  const k = modulus.length;
  if (k < 64 || k > 1024) throw new Error('RSA keys of 512 to 8192 bits are supported');
  const dHash = createHash('sha256').update(leftPad(Buffer.from(jwk.d, 'base64url'), k)).digest();
  return { key, k, modulus, dHash };
}

/**
 * RSA PKCS#1 v1.5 decryption with implicit rejection: the raw RSA operation runs natively
 * (`privateDecrypt` with `RSA_NO_PADDING`, OpenSSL's blinded constant-time exponentiation), the
 * unpadding in constant time. Never throws for a ciphertext: a ciphertext that is not a valid
 * PKCS#1 v1.5 encryption (bad padding, zero, not below the modulus, too long) yields the
 * deterministic synthetic message of the implicit-rejection rule instead.
 */
function decryptPkcs1Implicit(rsa: NativeRsaKey, ciphertext: Buffer): Buffer {
  const { k } = rsa;
  // ciphertexts shorter than k are taken as their left-padded value, as OpenSSL does
  const c = leftPad(ciphertext, k);
  const kdk = createHmac('sha256', rsa.dHash).update(c).digest();
  const synthetic = rejectionPrf(kdk, 'message', k);
  const lengths = rejectionPrf(kdk, 'length', LENGTH_CANDIDATES * 2);
  // length and range are public (the modulus is public): no secret decides this branch
  const inRange = c.length === k && Buffer.compare(c, rsa.modulus) < 0;
  const em = inRange ? privateDecrypt({ key: rsa.key, padding: constants.RSA_NO_PADDING }, c) : Buffer.alloc(k);
  return unpadPkcs1Implicit(leftPad(em, k), synthetic, lengths);
}

/** {@link RsaPrivateKey} on native RSA, with the byte-level operation exposed (tests, benches). */
export interface NativeRsaPrivateKey extends RsaPrivateKey {
  /** The modulus length in bytes (`k`). */
  readonly modulusBytes: number;
  /** PKCS#1 v1.5 decryption with implicit rejection of raw ciphertext bytes; never throws. */
  decryptBytes(ciphertext: Buffer): Buffer;
}

/**
 * Wraps a PEM private key (PKCS#1 or PKCS#8) for PKCS#1 v1.5 decryption of base64 ciphertexts
 * (what jsencrypt's `encrypt` yields): native RSA with a constant-time unpadding and implicit
 * rejection (see {@link decryptPkcs1Implicit}), about a hundred times faster than jsencrypt.
 * `decrypt` throws {@link DecryptError} only for input that is not base64 or is empty or too long;
 * a well-formed but wrong ciphertext yields a synthetic message, which the caller's later checks
 * (key length, GCM tag, HMAC) refuse.
 */
export function rsaPrivateKey(pem: string): NativeRsaPrivateKey {
  const rsa = nativeKey(pem);
  return {
    modulusBytes: rsa.k,
    decryptBytes: (ciphertext) => decryptPkcs1Implicit(rsa, ciphertext),
    decrypt(base64: string): string {
      if (base64.length === 0 || base64.length > MAX_RSA_BASE64) throw new DecryptError();
      const ciphertext = fromBase64(base64);
      if (ciphertext.length === 0) throw new DecryptError();
      return decryptPkcs1Implicit(rsa, ciphertext).toString('utf8');
    },
  };
}
