import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  base64UrlDecode,
  base64UrlEncode,
  bytesToBase64,
  bytesToHex,
  utf8Decode,
  utf8Encode,
} from './encoding.js';

const samples = [new Uint8Array([]), new Uint8Array([0]), new Uint8Array([1, 2]), new Uint8Array([255, 254, 253]),
  new Uint8Array(Array.from({ length: 257 }, (_, i) => (i * 37) & 0xff))];

describe('base64 is RFC 4648 standard base64 with padding', () => {
  it('encodes exactly like Node Buffer for every remainder length', () => {
    for (const s of samples) expect(bytesToBase64(s)).toBe(Buffer.from(s).toString('base64'));
  });
  it('encodes more bytes than one slice of the encoder (10,000 bytes) exactly like Buffer', () => {
    const big = new Uint8Array(Array.from({ length: 10_000 }, (_, i) => (i * 131 + 7) & 0xff));
    expect(bytesToBase64(big)).toBe(Buffer.from(big).toString('base64'));
  });
  it('decodes what Buffer encodes (round trip)', () => {
    for (const s of samples) expect([...base64ToBytes(Buffer.from(s).toString('base64'))]).toEqual([...s]);
  });
  it('accepts missing padding', () => {
    expect([...base64ToBytes('AQI')]).toEqual([1, 2]);
    expect([...base64ToBytes('AA')]).toEqual([0]);
  });
});

describe('base64ToBytes throws a clear Error on invalid base64', () => {
  it.each([
    ['a character outside the alphabet', 'ab$d', /unexpected character at index 2/],
    ['whitespace', 'ab d', /unexpected character/],
    ['non-ASCII', 'abé=', /unexpected character/],
    ['padding in the middle', 'ab=d', /misplaced padding/],
    ['three padding characters', 'a===', /misplaced padding/],
    ['padding that does not complete a quantum', 'abc==', /wrong padding length/],
    ['an impossible length', 'abcde', /impossible length/],
    ['url-safe characters', 'ab-_', /unexpected character/],
  ])('rejects %s', (_name, input, msg) => {
    expect(() => base64ToBytes(input)).toThrow(msg);
  });
  it('rejects a non-string', () => {
    expect(() => base64ToBytes(42 as unknown as string)).toThrow(/expected a string/);
  });
});

describe('UTF-8 encoding', () => {
  it('round-trips multi-byte text', () => {
    const text = 'héllo 你好 😀';
    expect(utf8Encode(text)).toEqual(new Uint8Array(Buffer.from(text, 'utf8')));
    expect(utf8Decode(utf8Encode(text))).toBe(text);
  });
  it('rejects invalid UTF-8 instead of inventing replacement characters', () => {
    expect(() => utf8Decode(new Uint8Array([0xc3, 0x28]))).toThrow();
  });
});

describe('bytesToHex gives lowercase hex, two digits per byte', () => {
  it('matches Buffer hex', () => {
    for (const s of samples) expect(bytesToHex(s)).toBe(Buffer.from(s).toString('hex'));
  });
});

describe('base64url: UTF-8, no padding', () => {
  it('encodes like Buffer base64url', () => {
    for (const text of ['', 'a', 'ab', 'data3:x:1001:2:7', '??>>~~ 你好']) {
      expect(base64UrlEncode(text)).toBe(Buffer.from(text, 'utf8').toString('base64url'));
    }
  });
  it('decodes with or without padding', () => {
    const enc = Buffer.from('??>> ok', 'utf8').toString('base64url');
    expect(base64UrlDecode(enc)).toBe('??>> ok');
    expect(base64UrlDecode(enc + '='.repeat((4 - (enc.length % 4)) % 4))).toBe('??>> ok');
  });
  it('throws a clear Error for invalid input', () => {
    expect(() => base64UrlDecode('ab$c')).toThrow(/^Invalid base64url string: unexpected character/);
    expect(() => base64UrlDecode('a')).toThrow(/^Invalid base64url string: impossible length/);
    expect(() => base64UrlDecode(Buffer.from([0xff, 0xfe]).toString('base64url'))).toThrow(/not UTF-8/);
    expect(() => base64UrlDecode(null as unknown as string)).toThrow(/expected a string/);
  });
});
