/**
 * The bindings' size budget (issue: "the bindings add at most 4 kB min+gzip on top of the SDK
 * (react excluded), checked in npm test"). Needs the build: `npm run build -w @kefu-im/react`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { measureReactSize } from '../scripts/size.mjs';

describe('the bindings add at most 4 kB min+gzip on top of the SDK (react excluded)', () => {
  it('keeps the built entry with React and the SDK external within 4 096 bytes', async () => {
    const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    expect(existsSync(entry), `${entry} is missing: run \`npm run build -w @kefu-im/react\` first`).toBe(true);
    const { initial } = await measureReactSize();
    expect(initial).toBeGreaterThan(0);
    expect(initial).toBeLessThanOrEqual(4096);
  });
});
