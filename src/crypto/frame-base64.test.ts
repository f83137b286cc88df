import { describe, expect, it } from 'vitest';
import { base64ToBytes } from './encoding.js';
import { base64ToCiphertext, ciphertextToBase64 } from './frame-base64.js';

/** Deterministic bytes of every length from 0 to 100 (all three remainders of 3, many times). */
const samples = Array.from({ length: 101 }, (_, n) => new Uint8Array(Array.from({ length: n }, (_, i) => (i * 151 + n * 7) & 0xff)));

describe('frame base64 is RFC 4648 standard base64, like Buffer and base64ToBytes', () => {
  it('encodes every length exactly like Buffer', () => {
    for (const s of samples) expect(ciphertextToBase64(s)).toBe(Buffer.from(s).toString('base64'));
  });
  it('decodes every length exactly like Buffer, padded or not', () => {
    for (const s of samples) {
      const text = Buffer.from(s).toString('base64');
      expect([...base64ToCiphertext(text)]).toEqual([...s]);
      expect([...base64ToCiphertext(text.replace(/=+$/, ''))]).toEqual([...s]);
    }
  });
  it('codes each length right after a longer one (the buffers are reused)', () => {
    for (const s of [...samples].reverse()) {
      const text = Buffer.from(s).toString('base64');
      expect(ciphertextToBase64(s)).toBe(text);
      expect([...base64ToCiphertext(text)]).toEqual([...s]);
    }
  });
  it('refuses what base64ToBytes refuses, with its error', () => {
    for (const bad of ['AB=C', 'A===', '====', 'AB C', 'ABC\n', 'AB-C', 'ABéC', 'A']) {
      expect(() => base64ToCiphertext(bad)).toThrow(/^Invalid base64 string/);
      expect(() => base64ToBytes(bad)).toThrow(/^Invalid base64 string/);
    }
  });
});
