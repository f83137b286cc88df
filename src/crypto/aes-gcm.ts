/**
 * AES-256-GCM through WebCrypto (`globalThis.crypto.subtle`, looked up at call time): the
 * protocol's `GCM(k, s)` = `base64(nonce(12) || ciphertext || tag(16))`, no additional data.
 * @module
 */
import { DECRYPT_ERROR, INVALID_KEY_LENGTH } from './errors.js';
import { base64ToBytes, bytesToBase64, utf8Decode, utf8Encode } from './encoding.js';
import { randomBytes } from './random.js';

/** Nonce length in bytes. */
export const GCM_NONCE_BYTES = 12;
/** Authentication tag length in bytes. */
export const GCM_TAG_BYTES = 16;

/**
 * The WebCrypto subtle API, or a clear error naming what needs it when the environment has none.
 * @param what - what needs it (`AES-GCM`, `RSA`)
 * @internal
 */
export function subtle(what = 'AES-GCM'): SubtleCrypto {
  const s = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (!s) throw new Error(`${what} needs WebCrypto (globalThis.crypto.subtle), which is not available here.`);
  return s;
}

/** Checks the key length and imports it for AES-GCM. */
async function importKey(key: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  if (!(key instanceof Uint8Array) || key.length !== 32) throw new Error(INVALID_KEY_LENGTH);
  return subtle().importKey('raw', new Uint8Array(key), { name: 'AES-GCM' }, false, [usage]);
}

/**
 * Encrypts text with AES-256-GCM.
 * @param key - the 32 key bytes
 * @param plaintext - the text; its UTF-8 bytes are encrypted
 * @param nonce - the 12-byte nonce; a fresh random one by default (pass one only in tests)
 * @returns `base64(nonce || ciphertext || tag)`
 * @throws Error {@link INVALID_KEY_LENGTH} when the key is not 32 bytes
 * @throws Error when the nonce is given and is not 12 bytes
 */
export async function gcmEncrypt(key: Uint8Array, plaintext: string, nonce?: Uint8Array): Promise<string> {
  const k = await importKey(key, 'encrypt');
  const iv = nonce ?? randomBytes(GCM_NONCE_BYTES);
  if (!(iv instanceof Uint8Array) || iv.length !== GCM_NONCE_BYTES) {
    throw new Error(`AES-GCM nonce must be ${GCM_NONCE_BYTES} bytes.`);
  }
  if (typeof plaintext !== 'string') throw new TypeError('gcmEncrypt: plaintext must be a string.');
  const sealed = new Uint8Array(
    await subtle().encrypt({ name: 'AES-GCM', iv: new Uint8Array(iv), tagLength: GCM_TAG_BYTES * 8 }, k, new Uint8Array(utf8Encode(plaintext))),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv, 0);
  out.set(sealed, iv.length);
  return bytesToBase64(out);
}

/**
 * Decrypts `base64(nonce || ciphertext || tag)` produced by {@link gcmEncrypt} (or the server).
 * @param key - the 32 key bytes
 * @param base64 - the sealed text
 * @returns the decrypted text
 * @throws Error {@link INVALID_KEY_LENGTH} when the key is not 32 bytes
 * @throws Error {@link DECRYPT_ERROR} on any other failure (bad base64, too short, wrong key or
 *   tampered data, plaintext that is not UTF-8)
 */
export async function gcmDecrypt(key: Uint8Array, base64: string): Promise<string> {
  const k = await importKey(key, 'decrypt');
  try {
    const bytes = base64ToBytes(base64);
    if (bytes.length < GCM_NONCE_BYTES + GCM_TAG_BYTES) throw new Error('too short');
    const plain = await subtle().decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, GCM_NONCE_BYTES), tagLength: GCM_TAG_BYTES * 8 },
      k,
      bytes.slice(GCM_NONCE_BYTES),
    );
    return utf8Decode(new Uint8Array(plain));
  } catch {
    throw new Error(DECRYPT_ERROR);
  }
}
