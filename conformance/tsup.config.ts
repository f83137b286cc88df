import { defineConfig } from 'tsup';

/**
 * The kit for Node: the bin (`cli`, its shebang kept and made executable), the programmatic API
 * (`index`) and the independent protocol client (`client`). `ws` stays an external dependency.
 */
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', client: 'src/client/index.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', client: 'src/client/index.ts' } },
  splitting: true,
  sourcemap: true,
  clean: true,
});
