import { createCipheriv, createDecipheriv, randomBytes as nodeRandom } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DECRYPT_ERROR, INVALID_KEY_LENGTH } from './aes-ecb.js';
import { gcmDecrypt, gcmEncrypt } from './aes-gcm.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

const key = new Uint8Array(nodeRandom(32));

function nodeOpen(k: Uint8Array, b64: string): string {
  const all = Buffer.from(b64, 'base64');
  const d = createDecipheriv('aes-256-gcm', k, all.subarray(0, 12));
  d.setAuthTag(all.subarray(all.length - 16));
  return Buffer.concat([d.update(all.subarray(12, all.length - 16)), d.final()]).toString('utf8');
}
function nodeSeal(k: Uint8Array, text: string, nonce = nodeRandom(12)): string {
  const c = createCipheriv('aes-256-gcm', k, nonce);
  const ct = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64');
}

describe('GCM(k, s) = base64(nonce(12) || ciphertext || tag(16)), no additional data', () => {
  it('node:crypto aes-256-gcm opens what we seal', async () => {
    const text = '{"d":{},"u":"c1","t":"salt","s":"ab"} 你好';
    expect(nodeOpen(key, await gcmEncrypt(key, text))).toBe(text);
  });
  it('is byte-identical to node:crypto for a given nonce', async () => {
    const nonce = nodeRandom(12);
    expect(await gcmEncrypt(key, 'token', new Uint8Array(nonce))).toBe(nodeSeal(key, 'token', nonce));
  });
  it('has the layout 12 + length + 16 and a fresh random nonce each time', async () => {
    const a = Buffer.from(await gcmEncrypt(key, 'abc'), 'base64');
    const b = Buffer.from(await gcmEncrypt(key, 'abc'), 'base64');
    expect(a.length).toBe(12 + 3 + 16);
    expect(a.subarray(0, 12).equals(b.subarray(0, 12))).toBe(false);
  });
  it('decrypts what node:crypto seals', async () => {
    expect(await gcmDecrypt(key, nodeSeal(key, 'x'.repeat(32)))).toBe('x'.repeat(32));
    expect(await gcmDecrypt(key, nodeSeal(key, ''))).toBe('');
  });
  it('rejects a nonce that is not 12 bytes', async () => {
    await expect(gcmEncrypt(key, 'a', new Uint8Array(8))).rejects.toThrow(/nonce must be 12 bytes/);
  });
  it('rejects a plaintext that is not a string', async () => {
    await expect(gcmEncrypt(key, 1 as unknown as string)).rejects.toThrow(/plaintext must be a string/);
  });
});

describe("Wrong AES key length throws 'Invalid key length. Key must be 256 bits (32 bytes).'", () => {
  it.each([0, 16, 31, 33])('rejects a %i-byte key', async (n) => {
    await expect(gcmEncrypt(new Uint8Array(n), 'a')).rejects.toThrow(INVALID_KEY_LENGTH);
    await expect(gcmDecrypt(new Uint8Array(n), nodeSeal(key, 'a'))).rejects.toThrow(INVALID_KEY_LENGTH);
  });
});

describe("Decryption failure throws 'Error decrypting text'", () => {
  it('with a wrong key', async () => {
    await expect(gcmDecrypt(new Uint8Array(32), nodeSeal(key, 'a'))).rejects.toThrow(DECRYPT_ERROR);
  });
  it('with tampered ciphertext', async () => {
    const all = Buffer.from(nodeSeal(key, 'hello'), 'base64');
    all[13] = (all[13] ?? 0) ^ 1;
    await expect(gcmDecrypt(key, all.toString('base64'))).rejects.toThrow(DECRYPT_ERROR);
  });
  it('with input shorter than nonce + tag, or not base64', async () => {
    await expect(gcmDecrypt(key, Buffer.alloc(27).toString('base64'))).rejects.toThrow(DECRYPT_ERROR);
    await expect(gcmDecrypt(key, 'not base64!')).rejects.toThrow(DECRYPT_ERROR);
  });
  it('with a plaintext that is not UTF-8', async () => {
    const nonce = nodeRandom(12);
    const c = createCipheriv('aes-256-gcm', key, nonce);
    const ct = Buffer.concat([c.update(Buffer.from([0xff, 0xfe])), c.final()]);
    const b64 = Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64');
    await expect(gcmDecrypt(key, b64)).rejects.toThrow(DECRYPT_ERROR);
  });
});

describe('WebCrypto is looked up at call time', () => {
  it('gives a clear error when crypto.subtle is missing', async () => {
    vi.stubGlobal('crypto', {});
    await expect(gcmEncrypt(key, 'a')).rejects.toThrow(/WebCrypto/);
  });
});
