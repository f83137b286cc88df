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

/**
 * The platform's base64 (`Uint8Array.prototype.toBase64` / `setFromBase64`, not in Node 20), stood
 * in for by Buffer with the proposal's strict rules: padding required, spare bits zero, ASCII
 * whitespace skipped. Chromium's own is checked in test/e2e/frame-base64.e2e.test.ts.
 */
function installNative(): { calls: string[]; restore: () => void } {
  const proto = Uint8Array.prototype as unknown as Record<string, unknown>;
  const calls: string[] = [];
  proto['toBase64'] = function (this: Uint8Array): string {
    calls.push('toBase64');
    return Buffer.from(this.buffer, this.byteOffset, this.length).toString('base64');
  };
  proto['setFromBase64'] = function (this: Uint8Array, text: string, options: { lastChunkHandling?: string }): { read: number; written: number } {
    calls.push(`setFromBase64 ${options.lastChunkHandling ?? 'loose'}`);
    const compact = text.replace(/[\t\n\f\r ]/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact)) throw new SyntaxError('not base64');
    const bytes = Buffer.from(compact, 'base64');
    if (Buffer.from(bytes).toString('base64') !== compact) throw new SyntaxError('spare bits');
    this.set(bytes.subarray(0, this.length));
    return { read: text.length, written: Math.min(bytes.length, this.length) };
  };
  return {
    calls,
    restore: () => {
      delete proto['toBase64'];
      delete proto['setFromBase64'];
    },
  };
}

describe("frame base64 takes the platform's when there is one, strictly", () => {
  it('encodes and decodes every length through it, with the same results', () => {
    const native = installNative();
    try {
      for (const s of samples) {
        const text = Buffer.from(s).toString('base64');
        expect(ciphertextToBase64(s)).toBe(text);
        if (s.length > 0) expect([...base64ToCiphertext(text)]).toEqual([...s]);
      }
      expect(native.calls).toContain('toBase64');
      expect(native.calls).toContain('setFromBase64 strict');
    } finally {
      native.restore();
    }
  });
  it('refuses, or reads, exactly what the strict decoder does: whitespace, spare bits, bad characters', () => {
    /** The bytes, or the error, of a decoder. */
    const outcome = (decode: (text: string) => Uint8Array, text: string): string => {
      try {
        return [...decode(text)].join(',');
      } catch (error) {
        return (error as Error).message;
      }
    };
    const native = installNative();
    try {
      // 'QUJDRB==' has spare bits set: the platform refuses it strictly, the strict decoder reads it
      for (const odd of ['AB=C', 'A===', '====', 'AB C', 'ABC\n', 'AB-C', 'ABéC', 'A', 'QUJD RA==', 'QU J D R A==', 'QUJDRB==', 'QUJD', 'QUJDRA==']) {
        expect(outcome(base64ToCiphertext, odd), odd).toBe(outcome(base64ToBytes, odd));
      }
      expect(outcome(base64ToCiphertext, 'QUJD RA==')).toMatch(/^Invalid base64 string/);
      expect(outcome(base64ToCiphertext, 'QUJDRB==')).toBe('65,66,67,68');
      expect(native.calls.filter((call) => call === 'setFromBase64 strict').length).toBeGreaterThan(3);
    } finally {
      native.restore();
    }
  });
});
