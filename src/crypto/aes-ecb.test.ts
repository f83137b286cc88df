import { createCipheriv, createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesEcbDecrypt, aesEcbEncrypt, createPrefixedEcb, DECRYPT_ERROR, INVALID_KEY_LENGTH } from './aes-ecb.js';
import { base64ToCiphertext } from './frame-base64.js';

const KEY = '0123456789abcdef0123456789abcdef';

function nodeEncrypt(key: string, text: string): string {
  const c = createCipheriv('aes-256-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([c.update(text, 'utf8'), c.final()]).toString('base64');
}
function nodeDecrypt(key: string, b64: string): string {
  const d = createDecipheriv('aes-256-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([d.update(Buffer.from(b64, 'base64')), d.final()]).toString('utf8');
}

const texts = ['a', '{"from":"u1","type":1,"dataContent":"{}"}', 'x'.repeat(16), 'x'.repeat(31), '你好 😀 face[微笑]'];

describe('AES-ECB(k, s) is AES-256-ECB with PKCS#7 padding, base64 out', () => {
  it.each(texts)('encrypts %j exactly like node:crypto aes-256-ecb', (text) => {
    expect(aesEcbEncrypt(KEY, text)).toBe(nodeEncrypt(KEY, text));
  });
  it.each(texts)('node:crypto decrypts what we encrypt and we decrypt what it encrypts (%j)', (text) => {
    expect(nodeDecrypt(KEY, aesEcbEncrypt(KEY, text))).toBe(text);
    expect(aesEcbDecrypt(KEY, nodeEncrypt(KEY, text))).toBe(text);
  });
  it('uses the UTF-8 bytes of a multi-byte key', () => {
    const key = '密钥'.padEnd(28, 'k'); // 2 x 3 bytes + 26 x 1 byte = 32 bytes
    expect(aesEcbEncrypt(key, 'hi')).toBe(nodeEncrypt(key, 'hi'));
  });
});

describe("The AES key must be 32 bytes, otherwise it throws 'Invalid key length. Key must be 256 bits (32 bytes).'", () => {
  it.each(['', 'short', KEY + 'x', '密'.repeat(11)])('rejects key %j on encrypt and decrypt', (key) => {
    expect(() => aesEcbEncrypt(key, 'a')).toThrow(INVALID_KEY_LENGTH);
    expect(() => aesEcbDecrypt(key, nodeEncrypt(KEY, 'a'))).toThrow(INVALID_KEY_LENGTH);
  });
  it('rejects a key that is not a string', () => {
    expect(() => aesEcbEncrypt(undefined as unknown as string, 'a')).toThrow(INVALID_KEY_LENGTH);
  });
  it('rejects a plaintext that is not a string with a clear error', () => {
    expect(() => aesEcbEncrypt(KEY, 5 as unknown as string)).toThrow(/plaintext must be a string/);
  });
});

describe("Decryption failure throws 'Error decrypting text'", () => {
  it('with a wrong key', () => {
    const other = 'ffffffffffffffffffffffffffffffff';
    // a wrong key almost always breaks the padding; try several texts so the test cannot pass by luck
    let failures = 0;
    for (const t of texts) {
      try {
        aesEcbDecrypt(other, nodeEncrypt(KEY, t));
      } catch (e) {
        expect((e as Error).message).toBe(DECRYPT_ERROR);
        failures++;
      }
    }
    expect(failures).toBeGreaterThanOrEqual(texts.length - 1);
  });
  it.each([
    ['invalid base64', '***'],
    ['empty input', ''],
    ['a length that is not a multiple of 16', Buffer.alloc(15).toString('base64')],
  ])('with %s', (_n, input) => {
    expect(() => aesEcbDecrypt(KEY, input)).toThrow(DECRYPT_ERROR);
  });
  it('with bad padding (a block whose last byte is 0 or > 16, or inconsistent)', () => {
    const noPad = (block: Buffer) => {
      const c = createCipheriv('aes-256-ecb', Buffer.from(KEY), null);
      c.setAutoPadding(false);
      return Buffer.concat([c.update(block), c.final()]).toString('base64');
    };
    expect(() => aesEcbDecrypt(KEY, noPad(Buffer.alloc(16, 0)))).toThrow(DECRYPT_ERROR);
    expect(() => aesEcbDecrypt(KEY, noPad(Buffer.alloc(16, 17)))).toThrow(DECRYPT_ERROR);
    const bad = Buffer.alloc(16, 0x61);
    bad[15] = 3;
    bad[14] = 3;
    bad[13] = 9;
    expect(() => aesEcbDecrypt(KEY, noPad(bad))).toThrow(DECRYPT_ERROR);
  });
  it('with an empty result of non-empty input', () => {
    expect(() => aesEcbDecrypt(KEY, nodeEncrypt(KEY, ''))).toThrow(DECRYPT_ERROR);
  });
  it('with a plaintext that is not UTF-8', () => {
    const c = createCipheriv('aes-256-ecb', Buffer.from(KEY), null);
    const b64 = Buffer.concat([c.update(Buffer.from([0xff, 0xfe, 0x41])), c.final()]).toString('base64');
    expect(() => aesEcbDecrypt(KEY, b64)).toThrow(DECRYPT_ERROR);
  });
});

describe('AES helper in ECB mode with padding, using a fixed key prefix plus a caller-supplied suffix and yielding base64', () => {
  const helper = createPrefixedEcb('kefu-im-fixed-prefix-');
  it('uses prefix + suffix as the key', () => {
    const suffix = '0123456789a'; // 21 + 11 = 32 bytes
    const b64 = helper.encrypt(suffix, 'hello');
    expect(b64).toBe(nodeEncrypt('kefu-im-fixed-prefix-0123456789a', 'hello'));
    expect(helper.decrypt(suffix, b64)).toBe('hello');
  });
  it('throws the key-length error when prefix + suffix is not 32 bytes', () => {
    expect(() => helper.encrypt('short', 'x')).toThrow(INVALID_KEY_LENGTH);
    expect(() => helper.decrypt('short', 'AAAA')).toThrow(INVALID_KEY_LENGTH);
  });
  it('refuses a prefix longer than 32 bytes', () => {
    expect(() => createPrefixedEcb('p'.repeat(33))).toThrow(INVALID_KEY_LENGTH);
  });
});

describe('keys are checked once and cached (a few keys at a time)', () => {
  it('many keys in turn, beyond the cache size, each still encrypts and decrypts under its own key', () => {
    const keys = Array.from({ length: 12 }, (_, i) => `key-${String(i).padStart(2, '0')}`.padEnd(32, 'x'));
    for (let round = 0; round < 2; round++) {
      for (const key of keys) {
        const ct = aesEcbEncrypt(key, `text for ${key}`);
        const node = createCipheriv('aes-256-ecb', Buffer.from(key, 'utf8'), null);
        expect(ct).toBe(Buffer.concat([node.update(`text for ${key}`, 'utf8'), node.final()]).toString('base64'));
        expect(aesEcbDecrypt(key, ct)).toBe(`text for ${key}`);
      }
    }
    // a ciphertext under one key does not decrypt under another cached key
    const ct = aesEcbEncrypt(keys[0]!, 'secret');
    expect(() => aesEcbDecrypt(keys[1]!, ct)).toThrow(DECRYPT_ERROR);
  });

  it('a failed decryption leaves the cached decryptor usable', () => {
    const key = 'r'.repeat(32);
    expect(() => aesEcbDecrypt(key, Buffer.alloc(16, 7).toString('base64'))).toThrow(DECRYPT_ERROR);
    expect(aesEcbDecrypt(key, aesEcbEncrypt(key, 'still fine'))).toBe('still fine');
  });
});

describe('frames of any size, one after another under one key, match node:crypto', () => {
  it('a long text (larger than the reusable buffer), then short ones, then multi-byte ones', () => {
    const sequence = ['x'.repeat(5000), 'z'.repeat(47), 'a', '{"type":104}', '你'.repeat(30_000), 'b'.repeat(15), 'c'.repeat(16), '😀'.repeat(700)];
    for (const text of sequence) {
      const ct = aesEcbEncrypt(KEY, text);
      expect(ct).toBe(nodeEncrypt(KEY, text));
      expect(aesEcbDecrypt(KEY, ct)).toBe(text);
    }
  });
  it('decrypts a ciphertext whose bytes sit at an offset of a larger buffer when decoded', () => {
    const ct = nodeEncrypt(KEY, 'y'.repeat(100));
    expect(aesEcbDecrypt(KEY, ct)).toBe('y'.repeat(100));
    expect(aesEcbDecrypt(KEY, ct.replace(/=+$/, ''))).toBe('y'.repeat(100));
  });
});

describe('no plaintext stays behind in the reused decoding buffer', () => {
  /** The decoding buffer, filled with 0xff over `length` bytes (the decoder hands out views of it). */
  function markedBuffer(length: number): Uint8Array {
    return new Uint8Array(base64ToCiphertext(Buffer.alloc(length, 0xff).toString('base64')).buffer, 0, length);
  }
  it('after a decryption, the bytes it used are zero', () => {
    const buffer = markedBuffer(96);
    expect(aesEcbDecrypt(KEY, nodeEncrypt(KEY, 'a secret, 32 bytes and more of it'))).toBe('a secret, 32 bytes and more of it');
    expect([...buffer.subarray(0, 48)].every((b) => b === 0)).toBe(true);
    // what the frame did not reach is as it was
    expect([...buffer.subarray(48)].every((b) => b === 0xff)).toBe(true);
  });
  it('after a failed decryption (a wrong key) too', () => {
    const buffer = markedBuffer(48);
    expect(() => aesEcbDecrypt('fedcba9876543210fedcba9876543210', nodeEncrypt(KEY, 'a secret, 32 bytes and more of it'))).toThrow(DECRYPT_ERROR);
    expect([...buffer].every((b) => b === 0)).toBe(true);
  });
});

describe('the ciphertext base64 is read as strictly as before', () => {
  const valid = nodeEncrypt(KEY, 'strict base64, please');
  it.each([
    ['a space inside', `${valid.slice(0, 8)} ${valid.slice(9)}`],
    ['a line break inside', `${valid.slice(0, 8)}\n${valid.slice(8, -1)}`],
    ['padding in the middle', `${valid.slice(0, 6)}==${valid.slice(8)}`],
    ['a character outside the alphabet', `${valid.slice(0, 4)}-${valid.slice(5)}`],
    ['a non-ASCII character', `${valid.slice(0, 4)}é${valid.slice(5)}`],
    ['three padding characters', `${valid.slice(0, -3)}===`],
    ['only padding', '===='],
  ])('rejects %s', (_name, input) => {
    expect(() => aesEcbDecrypt(KEY, input)).toThrow(DECRYPT_ERROR);
  });
  it('rejects a ciphertext that is not a string', () => {
    expect(() => aesEcbDecrypt(KEY, 42 as unknown as string)).toThrow(DECRYPT_ERROR);
  });
  it('accepts padding left out, as base64ToBytes does', () => {
    expect(aesEcbDecrypt(KEY, valid.replace(/=+$/, ''))).toBe('strict base64, please');
  });
});
