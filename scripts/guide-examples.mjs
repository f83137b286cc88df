#!/usr/bin/env node
// The getting-started guide shows the Node scripts of docs/examples/ word for word: each after a
// marker line `<!-- example: docs/examples/<file> -->`, in a ```ts block. Run this after changing
// an example to copy it into the guide; test/integration/guide.test.ts fails while they differ and
// runs each example against the reference server.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const GUIDE = `${root}docs/getting-started.md`;
const EXAMPLES = `${root}docs/examples/`;
const BLOCK = /<!-- example: docs\/examples\/([\w.-]+) -->\n```ts\n([\s\S]*?)```\n/g;

/**
 * Every example file, with its text on disk and the text the guide shows (null when the guide
 * has no block for it).
 * @returns {{ file: string, onDisk: string, shown: string | null }[]}
 */
export function guideBlocks() {
  const guide = readFileSync(GUIDE, 'utf8');
  const shown = new Map([...guide.matchAll(BLOCK)].map((m) => [m[1], m[2]]));
  return readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.ts'))
    .map((file) => ({ file, onDisk: readFileSync(EXAMPLES + file, 'utf8'), shown: shown.get(file) ?? null }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const guide = readFileSync(GUIDE, 'utf8');
  const synced = guide.replace(BLOCK, (_whole, file) => `<!-- example: docs/examples/${file} -->\n\`\`\`ts\n${readFileSync(EXAMPLES + file, 'utf8')}\`\`\`\n`);
  const missing = guideBlocks().filter((b) => b.shown === null).map((b) => b.file);
  if (synced !== guide) writeFileSync(GUIDE, synced);
  console.log(synced === guide ? 'The guide shows every example as it is.' : 'Copied the examples into docs/getting-started.md.');
  if (missing.length > 0) {
    console.error(`No block in the guide for: ${missing.join(', ')} (add a marker line <!-- example: docs/examples/<file> --> and an empty ts block).`);
    process.exitCode = 1;
  }
}
