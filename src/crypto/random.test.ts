import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_RANDOM_ERROR, randomBytes, randomHex, randomUuid } from './random.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('random material comes from crypto.getRandomValues', () => {
  it('returns the requested number of bytes, including more than the 65536-byte quota', () => {
    expect(randomBytes(0)).toHaveLength(0);
    expect(randomBytes(32)).toHaveLength(32);
    const big = randomBytes(70_000);
    expect(big).toHaveLength(70_000);
    expect(big.subarray(65_536).some((b) => b !== 0)).toBe(true);
  });
  it('looks the generator up at call time', () => {
    const fake = vi.fn((a: Uint8Array) => a.fill(7));
    vi.stubGlobal('crypto', { getRandomValues: fake });
    expect([...randomBytes(3)]).toEqual([7, 7, 7]);
    expect(fake).toHaveBeenCalledTimes(1);
  });
  it('rejects a byte count that is not a non-negative integer', () => {
    expect(() => randomBytes(-1)).toThrow(RangeError);
    expect(() => randomBytes(1.5)).toThrow(/non-negative integer/);
  });
});

describe("missing secure random source throws 'No secure random number generator available.'", () => {
  it('throws when globalThis.crypto is missing', () => {
    vi.stubGlobal('crypto', undefined);
    expect(() => randomBytes(4)).toThrow(NO_RANDOM_ERROR);
    expect(NO_RANDOM_ERROR).toBe('No secure random number generator available.');
  });
  it('throws when getRandomValues is missing', () => {
    vi.stubGlobal('crypto', {});
    expect(() => randomUuid()).toThrow('No secure random number generator available.');
  });
});

describe('randomHex gives lowercase hex of byteCount random bytes', () => {
  it('the requestKey is 16 bytes as 32 lowercase hex characters', () => {
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(16)).not.toBe(randomHex(16));
  });
});

describe('randomUuid is an RFC 4122 version 4 UUID', () => {
  it('has the v4 layout and variant bits', () => {
    for (let i = 0; i < 50; i++) {
      expect(randomUuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
  it('sets version and variant even when the random bytes are all ones', () => {
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => a.fill(0xff) });
    expect(randomUuid()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});

describe('randomUuid takes the platform randomUUID when there is one', () => {
  it('returns what crypto.randomUUID returns, without drawing bytes itself', () => {
    const getRandomValues = vi.fn((a: Uint8Array) => a.fill(1));
    vi.stubGlobal('crypto', { getRandomValues, randomUUID: () => '01234567-89ab-4def-8123-456789abcdef' });
    expect(randomUuid()).toBe('01234567-89ab-4def-8123-456789abcdef');
    expect(getRandomValues).not.toHaveBeenCalled();
  });
  it('falls back to getRandomValues with the v4 layout when randomUUID is missing', () => {
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => a.set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]) });
    expect(randomUuid()).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
  });
});
