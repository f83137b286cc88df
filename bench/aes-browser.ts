/**
 * `npm run bench:aes-browser`: bench/aes-frames.mjs's rows (AES-ECB agent texts: decrypted and
 * parsed, and in the visible row a read receipt built and encrypted; bench/aes-frames-data.mjs) in
 * a page of Debian's Chromium, where the target of issue 24 (AES-ECB >= 20,000 texts/s in a
 * visible page) is measured. No socket: the cipher's own cost per frame, wall time in the page, the
 * builds interleaved and their order alternated per round; least and median of `ROUNDS` (12). Runs
 * the built SDK (`npm run build`): each build's `protocol.js`, bundled with esbuild.
 *
 *   npm run bench:aes-browser
 *   BASE=main=/tmp/main/dist npm run bench:aes-browser    # against another build's dist, same page
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { AES_ROWS, aesWire, printAesRows, receipt, runFrames } from './aes-frames-data.mjs';
import { benchBuilds } from './builds.js';
import { launchChromium } from './chat-browser/cdp.js';
import { ascii } from './fake-key-exchange.mjs';
import { CHROMIUM, removeDir, tempDir } from '../test/e2e/harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FRAMES = Number(process.env['FRAMES'] ?? 5_000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 12);
const BUILDS = benchBuilds(ROOT);
const KEY = ascii(32);

/** Each build's AES-ECB functions, bundled for the page: `window.aesBuilds[i]`. */
async function pageScript(): Promise<string> {
  const parts: string[] = ['window.aesBuilds = [];'];
  for (const { dist } of BUILDS) {
    const out = await build({
      stdin: { contents: `import { aesEcbDecrypt, aesEcbEncrypt } from ${JSON.stringify(join(dist, 'protocol.js'))}; window.aesBuilds.push({ aesEcbDecrypt, aesEcbEncrypt });`, resolveDir: ROOT },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'error',
    });
    parts.push(out.outputFiles[0]?.text ?? '');
  }
  return parts.join('\n');
}

// A page of its own origin (a secure context: `crypto.randomUUID` for the receipts' fp).
const script = await pageScript();
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><meta charset="utf-8"><title>AES-ECB frames</title><script>${script}</script>`));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const profileDir = tempDir('kefu-bench-aes-');
const chrome = await launchChromium(CHROMIUM.path ?? '/usr/bin/chromium', profileDir, false);
try {
  const session = await chrome.open(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  while (!(await chrome.evaluate<boolean>(session, `Array.isArray(window.aesBuilds) && window.aesBuilds.length === ${BUILDS.length}`).catch(() => false))) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const names = BUILDS.map((b) => b.name);
  const figures = await chrome.evaluate<Record<string, number[]>>(
    session,
    `(() => {
      const receipt = ${receipt.toString()};
      const runFrames = ${runFrames.toString()};
      const rows = ${JSON.stringify(AES_ROWS)};
      const names = ${JSON.stringify(names)};
      const key = ${JSON.stringify(KEY)};
      const wire = ${JSON.stringify(aesWire(FRAMES, KEY))};
      const nowUs = () => performance.now() * 1000;
      const results = {};
      for (let round = 0; round < ${ROUNDS}; round++) {
        for (const [label, withReceipt] of rows) {
          for (let i = 0; i < names.length; i++) {
            const b = (i + round) % names.length;
            (results[label + '|' + names[b]] ??= []).push(runFrames(window.aesBuilds[b], key, wire, withReceipt, nowUs));
          }
        }
      }
      return results;
    })()`,
  );
  console.log(`${FRAMES} AES-ECB agent texts in a page of ${chrome.version}, us per frame (wall time in the page), ${ROUNDS} interleaved rounds`);
  printAesRows(new Map(Object.entries(figures)), names);
} finally {
  await chrome.close();
  removeDir(profileDir);
  server.close();
}
