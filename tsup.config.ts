import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', embed: 'src/embed/index.ts', protocol: 'src/protocol.ts', agent: 'src/agent/index.ts', format: 'src/format.ts', upload: 'src/upload/index.ts', codes: 'src/codes.ts' },
  format: ['esm'],
  target: 'es2020',
  platform: 'neutral',
  dts: true,
  splitting: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  // jsencrypt's ESM entry uses extensionless imports that Node's own ESM loader rejects, so it is
  // bundled (into its own lazily loaded chunk) instead of being left as an external import.
  noExternal: ['jsencrypt'],
  external: ['@noble/hashes', 'eventemitter3'],
});
