import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Stand-alone vitest configuration for the reference server's integration tests. */
export default defineConfig({
  // the shared codes from their source (no SDK build needed to test the server)
  resolve: { alias: [{ find: /^@kefu-im\/sdk\/codes$/, replacement: fileURLToPath(new URL('../../src/codes.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
