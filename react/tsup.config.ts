import { defineConfig } from 'tsup';

// The SDK and React stay external: the bindings are a thin layer over both.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  target: 'es2020',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  tsconfig: 'tsconfig.json',
  external: ['react', 'react-dom', 'react/jsx-runtime', '@kefu-im/sdk', '@kefu-im/sdk/agent', '@kefu-im/sdk/format', '@kefu-im/sdk/upload'],
});
