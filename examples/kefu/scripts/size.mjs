#!/usr/bin/env node
// Prints the app's initial JavaScript (min+gzip) against its budget. Build first: `npm run build -w @kefu-im/kefu`.
import { fileURLToPath } from 'node:url';
import { APP_BUDGET_BYTES, measureApp } from './size-lib.mjs';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const r = await measureApp(dist);
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`initial JS: ${kb(r.initial)} min+gzip (budget ${kb(APP_BUDGET_BYTES)}) in ${r.initialFiles.length} files: ${r.initialFiles.join(', ')}`);
console.log(`lazy JS:    ${kb(r.lazy)} in ${r.lazyFiles} chunks`);
if (r.initial > APP_BUDGET_BYTES) {
  console.error('Over budget.');
  process.exit(1);
}
