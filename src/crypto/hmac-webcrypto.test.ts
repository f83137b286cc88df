import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from './hmac.js';
import { hmacSha256HexAsync } from './hmac-webcrypto.js';

describe('hmacSha256HexAsync: the connect signature through WebCrypto', () => {
  it.each([
    ['secret', 'd={}&t=salt&u=client'],
    ['k', ''],
    ['密钥', 'd={"name":"张三"}&t=x&u=y'],
    ['a secret longer than one SHA-256 block: '.repeat(3), 'x'.repeat(1000)],
  ])('matches node:crypto and the synchronous hmacSha256Hex for secret %j', async (secret, message) => {
    const expected = createHmac('sha256', secret).update(message, 'utf8').digest('hex');
    expect(await hmacSha256HexAsync(secret, message)).toBe(expected);
    expect(hmacSha256Hex(secret, message)).toBe(expected);
  });
  it('rejects an empty secret and non-string input with a clear error', async () => {
    await expect(hmacSha256HexAsync('', 'm')).rejects.toThrow(/non-empty string/);
    await expect(hmacSha256HexAsync(undefined as unknown as string, 'm')).rejects.toThrow(/non-empty string/);
    await expect(hmacSha256HexAsync('k', 1 as unknown as string)).rejects.toThrow(/message a string/);
  });
});
