import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * The whole suite, as three projects:
 * - `unit`: the SDK's unit tests, the client and integration tests (SDK against the reference
 *   server on loopback), the React bindings and the reference server's own tests;
 * - `kefu-app`: the reference app's unit tests;
 * - `e2e`: the app in Debian's Chromium against the reference server, two files at a time, after
 *   the others.
 */
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@kefu-im\/sdk$/, replacement: here('./src/index.ts') },
      { find: /^@kefu-im\/sdk\/embed$/, replacement: here('./src/embed/index.ts') },
      { find: /^@kefu-im\/sdk\/protocol$/, replacement: here('./src/protocol.ts') },
      { find: /^@kefu-im\/sdk\/agent$/, replacement: here('./src/agent/index.ts') },
      { find: /^@kefu-im\/sdk\/format$/, replacement: here('./src/format.ts') },
      { find: /^@kefu-im\/sdk\/upload$/, replacement: here('./src/upload/index.ts') },
      { find: /^@kefu-im\/sdk\/codes$/, replacement: here('./src/codes.ts') },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'test/*.test.ts',
            'test/integration/**/*.test.ts',
            'react/src/**/*.test.ts',
            'react/src/**/*.test.tsx',
            'examples/server/test/**/*.test.ts',
            'conformance/test/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      'examples/kefu/vitest.config.ts',
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // the app is built once for the run (test/e2e/global-setup.ts), not once a file
          globalSetup: ['test/e2e/global-setup.ts'],
          // each file starts its own server (port 0, its own data directory) and its own browser,
          // and mostly waits on them: two files at a time, after the other projects (a group of
          // their own; those keep Vitest's default, cores - 1, which is 1 on CI's 2 cores: several
          // unit tests wait 1 s for an event and fail when two files share those cores)
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/**/*.d.ts', 'src/**/test-utils.ts', 'src/**/*.fixture.ts', 'src/i18n/locales/**'],
      reporter: ['text-summary', 'text'],
    },
  },
});
