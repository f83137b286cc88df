/**
 * FrameCipher: the per-connection AES-ECB gives byte for byte what the one-shot functions give,
 * frame after frame on the same objects, and refuses bad input without breaking the next frame.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesEcbDecrypt, aesEcbEncrypt, DecryptError } from '../../src/crypto.js';
import { decodeFrame, encodeFrame } from '../../src/socket/codec.js';
import { FrameCipher } from '../../src/socket/frame-cipher.js';

const key = Buffer.from('0123456789abcdefghijABCDEFGHIJ!#', 'utf8');

describe('FrameCipher', () => {
  it('encrypts every length from 0 to 80 (ASCII and multi-byte) as aesEcbEncrypt, on one cipher in turn', () => {
    const cipher = new FrameCipher(key);
    for (let n = 0; n <= 80; n += 1) {
      for (const text of ['x'.repeat(n), '中'.repeat(n)]) {
        const encrypted = cipher.encrypt(text);
        expect(encrypted).toBe(aesEcbEncrypt(key, text));
        expect(cipher.decrypt(encrypted)).toBe(text);
        expect(aesEcbDecrypt(key, encrypted)).toBe(text);
      }
    }
  });

  it('decrypts what the one-shot function encrypted (random texts)', () => {
    const cipher = new FrameCipher(key);
    for (let i = 0; i < 50; i += 1) {
      const text = randomBytes(1 + (i % 40)).toString('base64');
      expect(cipher.decrypt(aesEcbEncrypt(key, text))).toBe(text);
    }
  });

  it('refuses bad padding, partial blocks, empty input, bad base64 and another key with DecryptError; the next frame still decrypts', () => {
    const cipher = new FrameCipher(key);
    const other = new FrameCipher(Buffer.alloc(32, 7));
    const good = cipher.encrypt('{"type":1}');
    // a block whose last byte is not a valid PKCS#7 pad (same key, raw block of zeros)
    const zeros = Buffer.alloc(16).toString('base64');
    const badPad = other.encrypt('{"type":1}');
    const cases = [zeros, badPad, good.slice(0, 12), '', 'not base64!', Buffer.alloc(15).toString('base64')];
    for (const input of cases) {
      expect(() => cipher.decrypt(input)).toThrow(DecryptError);
      // the one-shot function agrees that it is not a frame
      expect(() => aesEcbDecrypt(key, input)).toThrow();
      expect(cipher.decrypt(good)).toBe('{"type":1}');
    }
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new FrameCipher(Buffer.alloc(16))).toThrow(/256 bits/);
  });
});

describe('the codec with a FrameCipher', () => {
  it('round-trips a frame encrypted, and reads a plain JSON frame too', () => {
    const cipher = new FrameCipher(key);
    const text = encodeFrame({ type: 100, from: 'a', to: 'b', fp: 'fp-12345678', dataContent: 'hi' }, cipher);
    expect(decodeFrame(text, cipher)).toMatchObject({ type: 100, fp: 'fp-12345678', dataContent: 'hi' });
    expect(decodeFrame(' {"type":"51"}', cipher)).toEqual({ type: 51 });
    expect(decodeFrame('{"type":1}', null)).toEqual({ type: 1 });
  });

  it('gives undefined for anything else: an array, a bare value, broken JSON, base64 without a cipher, garbage', () => {
    const cipher = new FrameCipher(key);
    const encrypted = cipher.encrypt('{"type":1}');
    for (const text of ['[1]', '1', '"x"', '{"type":1', '{"type":"x"}', 'garbage', '']) expect(decodeFrame(text, cipher)).toBeUndefined();
    expect(decodeFrame(encrypted, null)).toBeUndefined();
    expect(decodeFrame(encrypted, cipher)).toEqual({ type: 1 });
  });
});
