#!/usr/bin/env node
// The SDK's AES-ECB on the inbound path of a visible page, build against build: each frame is
// decrypted and parsed, its copy stored (other work between frames, as in a client, which evicts
// whatever the cipher keeps in the CPU's caches), and, in the second row, a read receipt is built
// and encrypted (bench/aes-frames-data.mjs; bench/aes-browser.ts runs the same in Chromium). CPU time per frame of this process (all of that, the same work for every build),
// the builds interleaved and their order alternated per round; least and median of `ROUNDS` (12). Runs the built SDK (`npm run build`).
//
//   node bench/aes-frames.mjs
//   BASE=main=/tmp/main/dist node bench/aes-frames.mjs    # against another build's dist, same run
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AES_ROWS, aesWire, printAesRows, runFrames } from './aes-frames-data.mjs';
import { ascii } from './fake-key-exchange.mjs';

const FRAMES = Number(process.env.FRAMES ?? 5_000);
const ROUNDS = Number(process.env.ROUNDS ?? 12);
const KEY = ascii(32);
const wire = aesWire(FRAMES, KEY);

const builds = [{ name: 'this build', sdk: await import('../dist/protocol.js') }];
for (const entry of (process.env.BASE ?? '').split(',').filter(Boolean)) {
  const [name, dir] = entry.includes('=') ? entry.split('=') : ['BASE', entry];
  builds.push({ name, sdk: await import(pathToFileURL(resolve(dir, 'protocol.js')).href) });
}

/** This process's CPU time (user + system), microseconds. */
const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

const results = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, withReceipt] of AES_ROWS) {
    for (const build of builds.map((_, i) => builds[(i + round) % builds.length])) {
      const key = `${label}|${build.name}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push(runFrames(build.sdk, KEY, wire, withReceipt, cpuUs));
    }
  }
}
console.log(`${FRAMES} AES-ECB agent texts, CPU us per frame, ${ROUNDS} interleaved rounds, Node ${process.version}`);
printAesRows(results, builds.map((b) => b.name));
