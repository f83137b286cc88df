#!/usr/bin/env node
// The SDK's AES-ECB on the inbound path of a visible page, build against build: each frame is
// decrypted and parsed, its copy stored (other work between frames, as in a client, which evicts
// whatever the cipher keeps in the CPU's caches), and, in the second row, a read receipt is built
// and encrypted. CPU time per frame of this process (all of that, the same work for every build),
// the builds interleaved and their order alternated per round; least and median of `ROUNDS` (12). Runs the built SDK (`npm run build`).
//
//   node bench/aes-frames.mjs
//   BASE=main=/tmp/main/dist node bench/aes-frames.mjs    # against another build's dist, same run
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ascii, ecb } from './fake-key-exchange.mjs';

const FRAMES = Number(process.env.FRAMES ?? 5_000);
const ROUNDS = Number(process.env.ROUNDS ?? 12);
const KEY = ascii(32);
const TEXT = 'Hello, thanks for waiting. Your order 4711 shipped today; tracking follows.';
const wire = Array.from({ length: FRAMES }, (_, i) =>
  ecb(KEY, JSON.stringify({ type: 100, from: 'agent-7', to: 'visitor-1', fn: 'Alice', tn: 'Visitor', fp: `r-${i}-${ascii(8)}`, mchId: 1, createTime: 1_700_000_000_000 + i, dataContent: `${TEXT.slice(0, 60)} #${i}`, isRead: 0, robot: 0, isGroup: 0 })),
);
const receipt = (m) => JSON.stringify({ type: 104, dataContent: m.fp, fp: crypto.randomUUID(), from: m.to, to: m.from, fn: m.tn, tn: m.fn, mchId: m.mchId, cm: m.createTime });

const builds = [{ name: 'this build', sdk: await import('../dist/protocol.js') }];
for (const entry of (process.env.BASE ?? '').split(',').filter(Boolean)) {
  const [name, dir] = entry.includes('=') ? entry.split('=') : ['BASE', entry];
  builds.push({ name, sdk: await import(pathToFileURL(resolve(dir, 'protocol.js')).href) });
}

/** CPU microseconds per frame: decrypt + parse (+ the receipt encrypted) + the store, the same for every build. */
function run({ aesEcbDecrypt, aesEcbEncrypt }, withReceipt) {
  const store = new Map();
  const c0 = process.cpuUsage();
  for (const frame of wire) {
    const message = JSON.parse(aesEcbDecrypt(KEY, frame));
    if (withReceipt) aesEcbEncrypt(KEY, receipt(message));
    store.set(message.fp, { ...message });
  }
  const c = process.cpuUsage(c0);
  if (store.size !== FRAMES) throw new Error(`stored ${store.size} of ${FRAMES}`);
  return (c.user + c.system) / FRAMES;
}

const rows = [
  ['decrypt + JSON.parse (page hidden)', false],
  ['decrypt + JSON.parse + receipt encrypted (page visible)', true],
];
const results = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, withReceipt] of rows) {
    for (const build of builds.map((_, i) => builds[(i + round) % builds.length])) {
      const key = `${label}|${build.name}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push(run(build.sdk, withReceipt));
    }
  }
}
console.log(`${FRAMES} AES-ECB agent texts, CPU us per frame, ${ROUNDS} interleaved rounds, Node ${process.version}`);
for (const [label] of rows) {
  for (const build of builds) {
    const xs = results.get(`${label}|${build.name}`).sort((a, b) => a - b);
    console.log(`${label.padEnd(56)} ${build.name.padEnd(12)} least ${xs[0].toFixed(2).padStart(6)}  median ${xs[xs.length >> 1].toFixed(2).padStart(6)}`);
  }
}
