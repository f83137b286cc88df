import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Unit tests of the reference app (`npx vitest run --config examples/kefu/vitest.config.ts`). */
export default defineConfig({
  root: here('.'),
  resolve: {
    alias: [
      { find: /^@kefu-im\/sdk$/, replacement: here('../../src/index.ts') },
      { find: /^@kefu-im\/sdk\/embed$/, replacement: here('../../src/embed/index.ts') },
      { find: /^@kefu-im\/sdk\/protocol$/, replacement: here('../../src/protocol.ts') },
      { find: /^@kefu-im\/sdk\/agent$/, replacement: here('../../src/agent/index.ts') },
      { find: /^@kefu-im\/sdk\/format$/, replacement: here('../../src/format.ts') },
      { find: /^@kefu-im\/sdk\/upload$/, replacement: here('../../src/upload/index.ts') },
      { find: /^@kefu-im\/sdk\/codes$/, replacement: here('../../src/codes.ts') },
      { find: /^@kefu-im\/react$/, replacement: here('../../react/src/index.ts') },
    ],
  },
  test: {
    name: 'kefu-app',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
