#!/usr/bin/env node
// Prints the min+gzip size the React bindings add on top of the SDK (React, the SDK and the JSX
// runtime external) and checks it against the budget. Build first: `npm run build -w @kefu-im/react`.
import { fileURLToPath } from 'node:url';
import { measureBundle } from '../../scripts/size-lib.mjs';

/** The bindings' budget, bytes min+gzip, on top of the SDK (react excluded). */
export const REACT_BUDGET_BYTES = 4 * 1024;

/** The modules left out of the measure: they are the bindings' peers. */
export const REACT_EXTERNAL = ['react', 'react-dom', 'react/jsx-runtime', '@kefu-im/sdk'];

/** Measures the built bindings. */
export function measureReactSize() {
  return measureBundle({ entry: fileURLToPath(new URL('../dist/index.js', import.meta.url)), external: REACT_EXTERNAL });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { initial } = await measureReactSize();
  console.log(`@kefu-im/react (min+gzip, react and @kefu-im/sdk external): ${(initial / 1024).toFixed(2)} kB (budget ${(REACT_BUDGET_BYTES / 1024).toFixed(1)} kB)`);
  if (initial > REACT_BUDGET_BYTES) {
    console.error(`Over budget by ${initial - REACT_BUDGET_BYTES} bytes.`);
    process.exit(1);
  }
}
