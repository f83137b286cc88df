import { defineConfig } from 'vitest/config';

/** Stand-alone vitest configuration for the reference server's integration tests. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
