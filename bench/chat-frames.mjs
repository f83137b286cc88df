#!/usr/bin/env node
// Chat frames over a real loopback socket: an agent's texts (type 100, ~70 characters) pushed by a
// `ws` server on 127.0.0.1 into an `ImClient`'s message store, beside a bare `ws` client that only
// JSON.parses the same frames, in the same run. Runs the built SDK (`npm run build` first).
//
// The server pre-frames the whole burst and writes it to the TCP socket in one call, so its own
// cost is negligible and the figure is the receiving side's: ws parsing + (AES-ECB) + decode +
// routing + the message store + events. A store subscriber reads `getSnapshot()` on every change,
// as React's `useSyncExternalStore` does, so a per-change copy of the list would show here.
// The page is hidden in the main rows (read receipts wait in the hidden-time queue); the last two
// rows show a visible page, where every text is answered at once with its read receipt.
//
//   FRAMES=20000 ROUNDS=7 node bench/chat-frames.mjs
import { generateKeyPairSync } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import { ImClient, memoryStorage } from '../dist/index.js';
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

async function sdkRun(server, nth, aesSwitch, frames, visible) {
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

async function bareRun(server, nth, frames) {
  const ws = new WebSocket(server.url);
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  const sws = await server.socket(nth);
  const done = new Promise((resolve) => {
    let seen = 0;
    let t0 = 0;
    const list = [];
    ws.on('message', (data) => {
      if (seen++ === 0) t0 = performance.now();
      list.push(JSON.parse(data.toString()));
      if (seen === FRAMES) resolve(performance.now() - t0);
    });
  });
  server.push(sws, frames);
  const ms = await done;
  ws.close();
  return (FRAMES / ms) * 1000;
}

const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(10);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer();
let nth = 0;
const bare = [];
const plain = [];
const aes = [];
const plainVisible = [];
const aesVisible = [];
for (let round = 0; round < ROUNDS; round++) {
  const frames = chatFrames(round);
  bare.push(await bareRun(server, ++nth, frames));
  plain.push((await sdkRun(server, ++nth, false, frames, false)).rate);
  if (process.env.ONLY === 'plain') continue;
  aes.push((await sdkRun(server, ++nth, true, frames, false)).rate);
  plainVisible.push((await sdkRun(server, ++nth, false, frames, true)).rate);
  aesVisible.push((await sdkRun(server, ++nth, true, frames, true)).rate);
}
await server.close();
const b = median(bare);
const p = median(plain);
const a = median(aes);
console.log(`${FRAMES} chat frames (type 100, ~70 chars of text) over loopback ws, median of ${ROUNDS}, Node ${process.version}`);
console.log(`bare ws client, JSON.parse             ${fmt(b)} frames/s`);
console.log(`ImClient -> message store, plain       ${fmt(p)} frames/s  (${(p / b).toFixed(2)}x bare; target >= 0.5x)`);
console.log(`ImClient -> message store, AES-ECB     ${fmt(a)} frames/s  (${(a / b).toFixed(2)}x bare; target >= 20,000/s)`);
if (process.env.ONLY === 'plain') process.exit(0);
const pv = median(plainVisible);
const av = median(aesVisible);
console.log('page visible: each text is also answered with its read receipt (encoded, encrypted, sent):');
console.log(`ImClient, plain, + receipts            ${fmt(pv)} frames/s  (${(pv / b).toFixed(2)}x bare)`);
console.log(`ImClient, AES-ECB, + receipts          ${fmt(av)} frames/s  (${(av / b).toFixed(2)}x bare)`);
