import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
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
});

describe('Encryption of the connect parameters fails with an error if the public-key encryption returns false', () => {
  it('throws the generic Chinese failure message when the text is too long for the key', async () => {
    await expect(rsaEncrypt(spkiB64, 'x'.repeat(200))).rejects.toThrow(RSA_ENCRYPT_ERROR);
  });
  it('throws it for an unusable key', async () => {
    await expect(rsaEncrypt('not a key', 'x')).rejects.toThrow(RSA_ENCRYPT_ERROR);
    await expect(rsaEncrypt('', 'x')).rejects.toThrow(RSA_ENCRYPT_ERROR);
  });
  it('the message is Chinese', () => {
    expect(RSA_ENCRYPT_ERROR).toMatch(/[\u4e00-\u9fff]/);
  });
});
