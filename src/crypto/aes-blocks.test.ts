import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { unsafe } from '@noble/ciphers/aes.js';
import { describe, expect, it } from 'vitest';
import { decryptWords, encryptWords, expandDecryptionKey, expandEncryptionKey } from './aes-blocks.js';

/** A little-endian machine's word view of a copy of `bytes` (the tests run on one). */
const wordsOf = (bytes: Uint8Array): Uint32Array => new Uint32Array(Uint8Array.from(bytes).buffer);
const bytesOf = (words: Uint32Array): Buffer => Buffer.from(words.buffer, words.byteOffset, words.byteLength);

describe("the key expansion matches noble's (the rounds were noble's, in its word layout)", () => {
  it.each([16, 24, 32])('%i-byte keys: 300 random keys, both schedules word for word', (keyBytes) => {
    for (let n = 0; n < 300; n++) {
      const key = Uint8Array.from(randomBytes(keyBytes));
      expect(expandEncryptionKey(key)).toEqual(unsafe.expandKeyLE(key));
      expect(expandDecryptionKey(key)).toEqual(unsafe.expandKeyDecLE(key));
    }
  });

  it('refuses other key lengths with a RangeError', () => {
    for (const length of [0, 15, 17, 31, 33, 64]) {
      expect(() => expandEncryptionKey(new Uint8Array(length))).toThrow(RangeError);
      expect(() => expandDecryptionKey(new Uint8Array(length))).toThrow(RangeError);
    }
  });
});

describe('the small-table AES rounds match node:crypto, block for block', () => {
  it.each([16, 24, 32])('AES-%i-byte keys: 200 random keys and plaintexts of 1-40 blocks, both directions', (keyBytes) => {
    const mode = `aes-${keyBytes * 8}-ecb`;
    for (let n = 0; n < 200; n++) {
      const key = randomBytes(keyBytes);
      const plain = randomBytes(16 * (1 + (n % 40)));
      const c = createCipheriv(mode, key, null).setAutoPadding(false);
      const expected = Buffer.concat([c.update(plain), c.final()]);
      const words = wordsOf(plain);
      encryptWords(words, expandEncryptionKey(Uint8Array.from(key)));
      expect(bytesOf(words).equals(expected)).toBe(true);
      const d = createDecipheriv(mode, key, null).setAutoPadding(false);
      const back = Buffer.concat([d.update(expected), d.final()]);
      const cipherWords = wordsOf(expected);
      decryptWords(cipherWords, expandDecryptionKey(Uint8Array.from(key)));
      expect(bytesOf(cipherWords).equals(back)).toBe(true);
      expect(back.equals(plain)).toBe(true);
    }
  });

  it('the FIPS 197 appendix C.3 vector (AES-256)', () => {
    const key = Uint8Array.from(Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex'));
    const words = wordsOf(Buffer.from('00112233445566778899aabbccddeeff', 'hex'));
    encryptWords(words, expandEncryptionKey(key));
    expect(bytesOf(words).toString('hex')).toBe('8ea2b7ca516745bfeafc49904b496089');
    decryptWords(words, expandDecryptionKey(key));
    expect(bytesOf(words).toString('hex')).toBe('00112233445566778899aabbccddeeff');
  });

  it('leaves a trailing partial block and an empty array as they are', () => {
    const key = expandEncryptionKey(Uint8Array.from(randomBytes(32)));
    const words = new Uint32Array([1, 2, 3, 4, 5, 6]);
    encryptWords(words, key);
    expect(Array.from(words.subarray(4))).toEqual([5, 6]);
    expect(Array.from(words.subarray(0, 4))).not.toEqual([1, 2, 3, 4]);
    const empty = new Uint32Array(0);
    encryptWords(empty, key);
    expect(empty.length).toBe(0);
  });
});
