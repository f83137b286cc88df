import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from './hmac.js';

describe('s is lowercase hex HMAC-SHA256(key = secret, message)', () => {
  it.each([
    ['secret', 'd={}&t=salt&u=client'],
    ['', ''],
    ['密钥', 'd={"name":"张三"}&t=x&u=y'],
  ])('matches node:crypto createHmac for secret %j', (secret, message) => {
    expect(hmacSha256Hex(secret, message)).toBe(createHmac('sha256', secret).update(message, 'utf8').digest('hex'));
  });
  it('rejects non-string input with a clear error', () => {
    expect(() => hmacSha256Hex(undefined as unknown as string, 'm')).toThrow(/must be strings/);
  });
});
