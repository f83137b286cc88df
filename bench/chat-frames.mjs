#!/usr/bin/env node
// Chat frames over a real loopback socket: an agent's texts (type 100, ~70 characters) pushed by a
// `ws` server on 127.0.0.1 into an `ImClient`'s message store, beside a bare `ws` client that only
// JSON.parses the same frames, in the same run. Runs the built SDK (`npm run build` first).
//
// The server pre-frames the whole burst and writes it to the TCP socket in one call, so its own
// cost is negligible and the figure is the receiving side's: ws parsing + (AES-ECB) + decode +
// routing + the message store + events. A store subscriber reads `getSnapshot()` on every change,
// as React's `useSyncExternalStore` does, so a per-change copy of the list would show here.
// The page is hidden in the first rows (read receipts wait in the hidden-time queue); the
// "visible" rows show a visible page, where every text is answered at once with its read receipt
// (issue 24's target: plain >= 0.5x bare, AES-ECB >= 20,000/s).
//
// Every row is printed beside the bare client of the same run (frames/s and the ratio). With
// BASE=<another build's dist directory> the same rounds also run that build (e.g. main's, built
// apart), interleaved, so that a change is compared side by side on a machine whose load swings.
//
//   FRAMES=20000 ROUNDS=7 node bench/chat-frames.mjs
//   ONLY=visible node bench/chat-frames.mjs          # the receipt rows only (profiling: node --cpu-prof)
//   BASE=/tmp/main/dist node bench/chat-frames.mjs   # this build against another, same run
//   BASE=main=/tmp/main/dist,step1=/tmp/s1/dist ...  # against several, named
import { generateKeyPairSync } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { ascii, benchKeys, ecb, fakeFetch } from './fake-key-exchange.mjs';

const FRAMES = Number(process.env.FRAMES ?? 20_000);
// 7 rounds: with 3, a shared 2-core machine swings the bare client's ~50 ms run too much to read the ratio
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const keys = benchKeys();
const { token } = keys;
const VISITOR = 'visitor-1';
const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const socketKey = `${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')},bench-secret`;


const TEXT = 'Hello, thanks for waiting. Your order 4711 shipped today; tracking follows.'.slice(0, 70);
function chatFrames(round) {
  const base = 1_700_000_000_000 + round * 10 * FRAMES;
  return Array.from({ length: FRAMES }, (_, i) =>
    JSON.stringify({
      type: 100,
      from: 'agent-7',
      to: VISITOR,
      fn: 'Alice',
      tn: 'Visitor',
      fp: `r${round}-${i}-${ascii(8)}`,
      mchId: 1,
      createTime: base + i,
      dataContent: `${TEXT.slice(0, 60)} #${i}`,
      isRead: 0,
      robot: 0,
      isGroup: 0,
    }),
  );
}

/** One unmasked server text frame (RFC 6455 §5.2). */
function wsFrame(text) {
  const payload = Buffer.from(text, 'utf8');
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, n]) : n < 65_536 ? Buffer.from([0x81, 126, n >> 8, n & 255]) : null;
  if (!head) throw new Error('frame too large for the bench');
  return Buffer.concat([head, payload]);
}

/** A loopback server that writes `burst` (pre-framed) to each new socket once asked. */
async function startServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const sockets = [];
  wss.on('connection', (ws) => sockets.push(ws));
  return {
    url: `ws://127.0.0.1:${wss.address().port}/ws`,
    /** The next socket that connects (or the latest one). */
    async socket(count) {
      while (sockets.length < count) await new Promise((r) => setTimeout(r, 5));
      return sockets[count - 1];
    },
    /** Writes the frames straight to the TCP socket: one write of pre-built ws frames. */
    push(ws, texts) {
      ws._socket.write(Buffer.concat(texts.map(wsFrame)));
    },
    close: () => new Promise((r) => wss.close(r)),
  };
}

/** A page in the background: read receipts wait for it to be shown (the hidden-time queue). */
const hiddenDocument = { visibilityState: 'hidden', hidden: true, addEventListener() {}, removeEventListener() {} };

const builds = [{ name: 'this build', sdk: await import('../dist/index.js') }];
// BASE=dir or BASE=name=dir,name=dir: other builds' dist directories, run in the same rounds
for (const entry of (process.env.BASE ?? '').split(',').filter(Boolean)) {
  const [name, dir] = entry.includes('=') ? entry.split('=') : ['BASE', entry];
  builds.push({ name, sdk: await import(pathToFileURL(resolve(dir, 'index.js')).href) });
}

async function sdkRun({ ImClient, memoryStorage }, server, nth, aesSwitch, frames, visible) {
  const client = new ImClient({
    baseUrl: 'http://bench.local',
    socketUrl: server.url,
    socketKey,
    fetch: fakeFetch(keys, aesSwitch),
    WebSocket,
    storage: memoryStorage(),
    window: null,
    document: visible ? null : hiddenDocument,
    limits: { heartbeatInterval: 3_600_000 },
  });
  await client.start();
  client.connect();
  const ws = await server.socket(nth);
  while (client.connectionState !== 'open') await new Promise((r) => setTimeout(r, 5));
  const welcome = JSON.stringify({ type: 60, to: VISITOR, sm: Date.now() });
  server.push(ws, [aesSwitch ? ecb(token, welcome) : welcome]);
  while (client.userId !== VISITOR) await new Promise((r) => setTimeout(r, 5));
  // A React-like reader: every change, read the snapshot.
  let reads = 0;
  const unsubscribe = client.messages.subscribe(() => {
    reads += client.messages.getSnapshot().length > 0 ? 1 : 0;
  });
  const wire = aesSwitch ? frames.map((f) => ecb(token, f)) : frames;
  const done = new Promise((resolve) => {
    let seen = 0;
    let t0 = 0;
    client.on('socket message', () => {
      if (seen++ === 0) t0 = performance.now();
      if (seen === FRAMES) queueMicrotask(() => resolve(performance.now() - t0));
    });
  });
  server.push(ws, wire);
  const ms = await done;
  await new Promise((r) => setTimeout(r, 0));
  if (client.messages.size !== FRAMES) throw new Error(`the store holds ${client.messages.size} of ${FRAMES}`);
  unsubscribe();
  client.destroy();
  return { rate: (FRAMES / ms) * 1000, reads };
}

/**
 * A bare `ws` client: JSON.parse of each frame; with `reply`, also one small JSON frame sent back
 * per text (what a read receipt costs at the least: a stringify and a socket write).
 */
async function bareRun(server, nth, frames, reply = false) {
  const ws = new WebSocket(server.url);
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  const sws = await server.socket(nth);
  const done = new Promise((resolve) => {
    let seen = 0;
    let t0 = 0;
    const list = [];
    ws.on('message', (data) => {
      if (seen++ === 0) t0 = performance.now();
      const message = JSON.parse(data.toString());
      list.push(message);
      if (reply) ws.send(JSON.stringify({ type: 104, dataContent: message.fp, fp: `receipt-${seen}`, from: message.to, to: message.from, cm: message.createTime }));
      if (seen === FRAMES) resolve(performance.now() - t0);
    });
  });
  server.push(sws, frames);
  const ms = await done;
  ws.close();
  return (FRAMES / ms) * 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The rows: which page, AES switch, the target. */
const ONLY = process.env.ONLY;
const rows = [
  { label: 'hidden page, plain', visible: false, aes: false, skip: ONLY === 'visible' },
  { label: 'hidden page, AES-ECB', visible: false, aes: true, skip: ONLY === 'visible' || ONLY === 'plain' },
  { label: 'visible + read receipts, plain', visible: true, aes: false, skip: ONLY === 'plain', target: '>= 0.5x bare' },
  { label: 'visible + read receipts, AES-ECB', visible: true, aes: true, skip: ONLY === 'plain', target: '>= 20,000/s' },
].filter((row) => !row.skip);

const server = await startServer();
let nth = 0;
const bare = [];
const bareReply = [];
const rates = new Map(); // `${build}|${row}` -> frames/s per round
for (let round = 0; round < ROUNDS; round++) {
  const frames = chatFrames(round);
  bare.push(await bareRun(server, ++nth, frames));
  if (rows.some((row) => row.visible)) bareReply.push(await bareRun(server, ++nth, frames, true));
  for (const row of rows) {
    // each round starts with another build: none always runs first (or right after the bare client)
    for (const build of builds.map((_, i) => builds[(i + round) % builds.length])) {
      const key = `${build.name}|${row.label}`;
      if (!rates.has(key)) rates.set(key, []);
      rates.get(key).push((await sdkRun(build.sdk, server, ++nth, row.aes, frames, row.visible)).rate);
    }
  }
}
await server.close();
const b = median(bare);
const bBest = Math.max(...bare);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
// "best": the fastest round of each row; on a loaded machine the least disturbed run
const table = [['row', 'build', 'frames/s', 'x bare', 'best', 'x best bare', 'target']];
const line = (label, build, xs, target = '') => {
  const [m, best] = [median(xs), Math.max(...xs)];
  table.push([label, build, fmt(m), (m / b).toFixed(2), fmt(best), (best / bBest).toFixed(2), target]);
};
line('bare ws client, JSON.parse only', '', bare);
if (bareReply.length) line('bare ws client, JSON.parse + one JSON frame sent back per text', '', bareReply, '(the floor with receipts)');
for (const row of rows) {
  for (const build of builds) line(`ImClient, ${row.label}`, builds.length > 1 ? build.name : '', rates.get(`${build.name}|${row.label}`), row.target);
}
const widths = table[0].map((_, c) => Math.max(...table.map((line) => line[c].length)));
console.log(`${FRAMES} agent texts (type 100, ~70 chars) over loopback ws, median of ${ROUNDS} interleaved rounds, Node ${process.version}`);
for (const line of table) console.log(line.map((cell, c) => (c >= 2 && c <= 5 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd());
