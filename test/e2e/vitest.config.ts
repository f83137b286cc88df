import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The end-to-end suite on its own (`npx vitest run --config test/e2e/vitest.config.ts`): one file
 * at a time (each starts a server and a browser), generous timeouts.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: {
    alias: { '@kefu-im/sdk': fileURLToPath(new URL('../../src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
