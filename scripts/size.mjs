#!/usr/bin/env node
// Prints the min+gzip size of the SDK bundled for browsers (all dependencies included) and checks
// it against the budget. "initial" is what `import … from '@kefu-im/sdk'` loads at start-up (the
// whole public API, no tree-shaking credit); lazy chunks (the socket stack, other languages' texts, RSA, AES-ECB,
// the upload transfer, the read-on-scroll observer) load on
// demand. Run `npm run build` first.
import { measureSdkSize, SDK_BUDGET_BYTES } from './size-lib.mjs';

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const main = await measureSdkSize('index');
const embed = await measureSdkSize('embed');
console.log('@kefu-im/sdk bundled for browsers with all dependencies (min+gzip):');
console.log(`  initial:      ${kb(main.initial)}  (budget ${kb(SDK_BUDGET_BYTES)})`);
console.log(`  lazy chunks:  ${kb(main.lazy)} in ${main.lazyChunks} chunks (largest ${kb(main.largestLazy)}: RSA; also the socket stack, other languages, AES-ECB, the upload transfer)`);
console.log(`  everything:   ${kb(main.total)}`);
console.log(`@kefu-im/sdk/embed (deep links, open-app, launch, layout): ${kb(embed.initial)}`);
if (main.initial > SDK_BUDGET_BYTES) {
  console.error(`Over budget by ${kb(main.initial - SDK_BUDGET_BYTES)}.`);
  process.exit(1);
}
