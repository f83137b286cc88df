/**
 * Bundle budget: the SDK bundled for browsers with all dependencies, min+gzip, at most
 * `SDK_BUDGET_BYTES` (25,000 B, issue 24) at start-up. Compares sizes of the built
 * output, never clocks. `npm test` builds first.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureSdkSize, SDK_BUDGET_BYTES } from '../scripts/size-lib.mjs';

describe('SDK bundle budget', () => {
  it('the build exists (npm test runs npm run build first)', () => {
    expect(existsSync(new URL('../dist/index.js', import.meta.url))).toBe(true);
  });

  it('start-up stays within its budget of 25,000 B (min+gzip); the languages, RSA, AES-ECB and the upload transfer are lazy chunks', async () => {
    const sizes = await measureSdkSize('index');
    expect(SDK_BUDGET_BYTES).toBe(25_000);
    expect(sizes.initial).toBeLessThanOrEqual(SDK_BUDGET_BYTES);
    // ten languages (zh too) and the connect code (RSA, HMAC) load on demand
    expect(sizes.lazyChunks).toBeGreaterThanOrEqual(10);
    expect(sizes.lazy).toBeGreaterThan(10_000);
  });
});
