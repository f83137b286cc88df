/**
 * The AES-ECB frames' base64 (`src/crypto/frame-base64.ts`) in Chromium, which has the platform's
 * `Uint8Array` base64 (Node 20, where the unit tests run, has not): the same text and bytes as
 * Node's `Buffer` for every length, and the same refusals and readings as the strict decoder.
 */
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64ToBytes } from '../../src/crypto/encoding.js';
import { E2E_TIMEOUT, launchBrowser, requireChromium } from './harness.js';

const skipped = requireChromium();

/** Odd texts: whitespace, spare bits, bad characters, misplaced or missing padding. */
const ODD = ['AB=C', 'A===', '====', 'AB C', 'ABC\n', 'AB-C', 'ABéC', 'A', 'QUJD RA==', 'QU J D R A==', 'QUJDRB==', 'QUJD', 'QUJDRA==', 'QUJDRA'];

/** The bytes, or the error, of a decoder. */
function outcome(decode: (text: string) => Uint8Array, text: string): string {
  try {
    return [...decode(text)].join(',');
  } catch (error) {
    return (error as Error).message;
  }
}

describe("frame base64 in Chromium goes through the platform's base64, with the same results", () => {
  let browser: Browser | undefined;
  let script = '';
  beforeAll(async () => {
    if (skipped) return;
    const bundled = await build({
      entryPoints: [new URL('../../src/crypto/frame-base64.ts', import.meta.url).pathname],
      bundle: true,
      format: 'iife',
      globalName: 'frameBase64',
      write: false,
      target: 'es2022',
    });
    script = bundled.outputFiles[0]?.text ?? '';
    browser = await launchBrowser();
  }, E2E_TIMEOUT);
  afterAll(async () => {
    await browser?.close();
  });

  it(
    'encodes and decodes 0-300 bytes like Buffer, and refuses what the strict decoder refuses',
    async () => {
      const page = await (browser as Browser).newPage();
      await page.addScriptTag({ content: script });
      const result = await page.evaluate((odd) => {
        const api = (globalThis as unknown as { frameBase64: { ciphertextToBase64(b: Uint8Array): string; base64ToCiphertext(t: string): Uint8Array } }).frameBase64;
        const native = typeof (Uint8Array.prototype as unknown as { toBase64?: unknown }).toBase64 === 'function';
        const coded: { text: string; back: string }[] = [];
        // longest first, then shorter: the decoding buffer is reused
        for (let n = 300; n >= 0; n--) {
          const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 151 + n * 7) & 0xff);
          const text = api.ciphertextToBase64(bytes);
          coded.push({ text, back: n === 0 ? '' : [...api.base64ToCiphertext(text)].join(',') });
        }
        const refusals = odd.map((text) => {
          try {
            return [...api.base64ToCiphertext(text)].join(',');
          } catch (error) {
            return (error as Error).message;
          }
        });
        return { native, coded, refusals };
      }, ODD);
      await page.close();
      // the point of this file: Chromium has the platform's base64 (Chromium 140+)
      expect(result.native).toBe(true);
      result.coded.forEach(({ text, back }, k) => {
        const n = 300 - k;
        const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 151 + n * 7) & 0xff);
        expect(text, `${n} bytes`).toBe(Buffer.from(bytes).toString('base64'));
        expect(back, `${n} bytes back`).toBe([...bytes].join(','));
      });
      expect(result.refusals).toEqual(ODD.map((text) => outcome(base64ToBytes, text)));
    },
    E2E_TIMEOUT,
  );
});
