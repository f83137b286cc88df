#!/usr/bin/env node
// The kit's command. It runs the built CLI (dist/cli.js, from src/cli.ts); this launcher exists so
// that npm links the command even before the first build of a checkout.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('cli.js')) {
    console.error('kefu-im-conformance is not built yet: run `npm run build` (at the repository root) first.');
    process.exit(2);
  }
  throw error;
}
