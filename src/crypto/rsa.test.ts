import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { RSA_ENCRYPT_ERROR, rsaEncrypt } from './rsa.js';

interface JSEncryptCjs {
  setPrivateKey(pem: string): void;
  decrypt(b64: string): string | false;
}
// the CommonJS build of jsencrypt exports the constructor itself
const JSEncrypt = createRequire(import.meta.url)('jsencrypt') as new () => JSEncryptCjs;

const pair = generateKeyPairSync('rsa', { modulusLength: 1024, publicExponent: 0x10001 });
const spkiB64 = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const privatePem = pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

function privateDecrypt(b64: string): string | false {
  const rsa = new JSEncrypt();
  rsa.setPrivateKey(privatePem);
  return rsa.decrypt(b64);
}

describe('B = base64(RSA-PKCS1-v1_5-encrypt(publicKey, keyString)) as jsencrypt yields it', () => {
  it('encrypts with a base64 DER SPKI key (PEM body without header lines)', async () => {
    const keyString = Buffer.alloc(32, 7).toString('base64');
    const b = await rsaEncrypt(spkiB64, keyString);
    expect(Buffer.from(b, 'base64')).toHaveLength(128);
    expect(privateDecrypt(b)).toBe(keyString);
  });
  it('is randomized (PKCS#1 v1.5 padding)', async () => {
    expect(await rsaEncrypt(spkiB64, 'x')).not.toBe(await rsaEncrypt(spkiB64, 'x'));
  });
  it('is always as long as the modulus: a result with a leading zero byte (about 1 in 200) keeps it', async () => {
    const keyString = Buffer.alloc(32, 9).toString('base64');
    const lengths = new Set<number>();
    for (let i = 0; i < 600; i++) lengths.add(Buffer.from(await rsaEncrypt(spkiB64, keyString), 'base64').length);
    expect([...lengths]).toEqual([128]);
  });
  it('accepts a PEM text and a 2048-bit key; the UTF-8 bytes of the text are encrypted', async () => {
    const big = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    const pem = big.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const b = await rsaEncrypt(pem, 'clé 密钥');
    expect(Buffer.from(b, 'base64')).toHaveLength(256);
    const rsa = new JSEncrypt();
    rsa.setPrivateKey(big.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    expect(rsa.decrypt(b)).toBe('clé 密钥');
  });
  it('reads a key once for many encryptions, and again after a key that could not be read', async () => {
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    try {
      const other = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      await rsaEncrypt(other, 'a');
      await rsaEncrypt(other, 'b');
      expect(importKey).toHaveBeenCalledTimes(1);
      await expect(rsaEncrypt('AAAA', 'c')).rejects.toThrow(RSA_ENCRYPT_ERROR);
      await expect(rsaEncrypt('AAAA', 'c')).rejects.toThrow(RSA_ENCRYPT_ERROR);
      expect(importKey).toHaveBeenCalledTimes(3);
    } finally {
      importKey.mockRestore();
    }
  });
});

describe('Encryption of the connect parameters fails with an error if the public-key encryption returns false', () => {
  it('throws the generic Chinese failure message when the text is too long for the key', async () => {
    await expect(rsaEncrypt(spkiB64, 'x'.repeat(200))).rejects.toThrow(RSA_ENCRYPT_ERROR);
  });
  it('throws it for an unusable key', async () => {
    await expect(rsaEncrypt('not a key', 'x')).rejects.toThrow(RSA_ENCRYPT_ERROR);
    await expect(rsaEncrypt('', 'x')).rejects.toThrow(RSA_ENCRYPT_ERROR);
    // a public key of another kind (EC), and a private key where a public one belongs
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    await expect(rsaEncrypt(ec, 'x')).rejects.toThrow(RSA_ENCRYPT_ERROR);
    await expect(rsaEncrypt(privatePem, 'x')).rejects.toThrow(RSA_ENCRYPT_ERROR);
  });
  it('throws it for a text one byte longer than the key allows, not for one at the limit', async () => {
    await expect(rsaEncrypt(spkiB64, 'x'.repeat(128 - 11))).resolves.toMatch(/^[A-Za-z0-9+/]+=*$/);
    await expect(rsaEncrypt(spkiB64, 'x'.repeat(128 - 10))).rejects.toThrow(RSA_ENCRYPT_ERROR);
  });
  it('the message is Chinese', () => {
    expect(RSA_ENCRYPT_ERROR).toMatch(/[\u4e00-\u9fff]/);
  });
});
