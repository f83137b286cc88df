#!/usr/bin/env node
// Prints the min+gzip size of the SDK bundled for browsers (all dependencies included) and checks
// it against the budget, in bytes (1 kB = 1000 B). "initial" is what `import … from '@kefu-im/sdk'`
// loads at start-up (the whole public API, no tree-shaking credit); lazy chunks (the socket stack,
// every language's texts, RSA, AES-ECB, the upload transfer) load on demand. Run `npm run build` first.
import { measureSdkSize, SDK_BUDGET_BYTES } from './size-lib.mjs';

/** Bytes, as the budget counts them (1 kB = 1000 B). */
const bytes = (n) => `${n.toLocaleString('en-US')} B`;
const main = await measureSdkSize('index');
const embed = await measureSdkSize('embed');
console.log('@kefu-im/sdk bundled for browsers with all dependencies (min+gzip):');
console.log(`  initial:      ${bytes(main.initial)}  (budget ${bytes(SDK_BUDGET_BYTES)})`);
console.log(`  lazy chunks:  ${bytes(main.lazy)} in ${main.lazyChunks} chunks (largest ${bytes(main.largestLazy)}: RSA; also the socket stack, the languages, AES-ECB, the upload transfer)`);
console.log(`  everything:   ${bytes(main.total)}`);
console.log(`@kefu-im/sdk/embed (entry links, deep links, open-app, launch, layout): ${bytes(embed.initial)}`);
if (main.initial > SDK_BUDGET_BYTES) {
  console.error(`Over budget by ${bytes(main.initial - SDK_BUDGET_BYTES)}.`);
  process.exit(1);
}
