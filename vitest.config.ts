import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@kefu-im\/sdk$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^@kefu-im\/sdk\/embed$/, replacement: fileURLToPath(new URL('./src/embed/index.ts', import.meta.url)) },
      { find: /^@kefu-im\/sdk\/protocol$/, replacement: fileURLToPath(new URL('./src/protocol.ts', import.meta.url)) },
    ],
  },
  test: {
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      'react/src/**/*.test.ts',
      'react/src/**/*.test.tsx',
      'examples/server/test/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/**/*.d.ts', 'src/**/test-utils.ts', 'src/**/*.fixture.ts', 'src/i18n/locales/**'],
      reporter: ['text-summary', 'text'],
    },
  },
});
