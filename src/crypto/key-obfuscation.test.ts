import { describe, expect, it } from 'vitest';
import { INVALID_KEY_LENGTH } from './aes-ecb.js';
import { obscureAesKey, revealAesKey } from './key-obfuscation.js';

const R = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const AES_KEY = 'Kx9vQ2mZ7pL4tR8wY1nB6cF3hJ5dS0aE';

/** Server side as protocol §1.3 describes it, written independently with Buffer. */
function serverObscure(key: string, r: string): string {
  return Buffer.from([...Buffer.from(key, 'ascii')].map((b, i) => b ^ r.charCodeAt(i % r.length))).toString('base64');
}

describe('data = base64(aesKey XOR R): each byte XORed with the byte of R at the same index modulo its length', () => {
  it('reveals the key the server obscured', () => {
    expect(revealAesKey(serverObscure(AES_KEY, R), R)).toBe(AES_KEY);
  });
  it('wraps around a requestKey shorter than the key', () => {
    expect(revealAesKey(serverObscure(AES_KEY, 'abc'), 'abc')).toBe(AES_KEY);
  });
  it('obscureAesKey is the server-side inverse', () => {
    expect(obscureAesKey(AES_KEY, R)).toBe(serverObscure(AES_KEY, R));
    expect(revealAesKey(obscureAesKey(AES_KEY, R), R)).toBe(AES_KEY);
  });
});

describe('A result that is not 32 bytes long is the error Invalid key length', () => {
  it('rejects 31 and 33 bytes', () => {
    expect(() => revealAesKey(serverObscure(AES_KEY.slice(1), R), R)).toThrow(INVALID_KEY_LENGTH);
    expect(() => revealAesKey(serverObscure(AES_KEY + 'x', R), R)).toThrow(INVALID_KEY_LENGTH);
  });
  it('rejects a result that is not ASCII (its UTF-8 form would not be 32 bytes)', () => {
    const data = Buffer.from(Array.from({ length: 32 }, (_, i) => 0xff ^ R.charCodeAt(i))).toString('base64');
    expect(() => revealAesKey(data, R)).toThrow(INVALID_KEY_LENGTH);
  });
  it('obscureAesKey rejects a key that is not 32 ASCII characters', () => {
    expect(() => obscureAesKey('short', R)).toThrow(INVALID_KEY_LENGTH);
    expect(() => obscureAesKey('é'.repeat(32), R)).toThrow(INVALID_KEY_LENGTH);
  });
});

describe('bad input gets a clear error', () => {
  it('rejects data that is not base64', () => {
    expect(() => revealAesKey('%%%', R)).toThrow(/Invalid base64 string/);
  });
  it('rejects an empty requestKey', () => {
    expect(() => revealAesKey(serverObscure(AES_KEY, R), '')).toThrow(/requestKey must be a non-empty string/);
  });
});
