#!/usr/bin/env node
// Chat frames over a real loopback socket: an agent's texts (type 100, ~70 characters) pushed by a
// `ws` server on 127.0.0.1 into an `ImClient`'s message store, beside a bare `ws` client that only
// JSON.parses the same frames, in the same run. Runs the built SDK (`npm run build` first).
//
// The server (bench/chat-frames-server.mjs) runs in a child process (`SERVER=inproc`: in this one),
// pre-frames the whole burst and writes it to the TCP socket in one call, so the figure is the
// receiving side's: ws parsing + (AES-ECB) + decode + routing + the message store + events (+ the
// receipts' encoding and socket writes). A store subscriber reads `getSnapshot()` on every change,
// as React's `useSyncExternalStore` does, so a per-change copy of the list would show here.
// The page is hidden in the first rows (read receipts wait in the hidden-time queue); the
// "visible" rows show a visible page, where every text is answered at once with its read receipt
// (issue 24's target: plain >= 0.5x bare, AES-ECB >= 20,000/s).
//
// Every row is printed beside the bare client of the same run (frames/s and the ratio; median and
// best round). With
// BASE=<another build's dist directory> the same rounds also run that build (e.g. main's, built
// apart), interleaved, so that a change is compared side by side on a machine whose load swings.
//
//   FRAMES=20000 ROUNDS=7 node bench/chat-frames.mjs
//   ONLY=visible node bench/chat-frames.mjs          # the receipt rows only (profiling: node --cpu-prof)
//   BASE=/tmp/main/dist node bench/chat-frames.mjs   # this build against another, same run
//   BASE=main=/tmp/main/dist,step1=/tmp/s1/dist ...  # against several, named
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';
import { startChild, startInProcess } from './chat-frames-server.mjs';
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

/**
 * `ws` writes every frame to the TCP socket at once: one system call per receipt. A browser hands
 * `send()` to its network stack instead, which writes the frames queued meanwhile together (Chromium's
 * WebSocket stream writes its pending frames in one buffer). This socket models that: the frames
 * sent in one tick go out in one write (the TCP socket corked until the next tick). Same frames,
 * same order; only the number of writes differs.
 */
class TickWebSocket extends WebSocket {
  send(...args) {
    const socket = this._socket;
    if (socket && !this.corked) {
      this.corked = true;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    super.send(...args);
  }
}

/** A page in the background: read receipts wait for it to be shown (the hidden-time queue). */
const hiddenDocument = { visibilityState: 'hidden', hidden: true, addEventListener() {}, removeEventListener() {} };

const builds = [{ name: 'this build', sdk: await import('../dist/index.js') }];
// BASE=dir or BASE=name=dir,name=dir: other builds' dist directories, run in the same rounds
for (const entry of (process.env.BASE ?? '').split(',').filter(Boolean)) {
  const [name, dir] = entry.includes('=') ? entry.split('=') : ['BASE', entry];
  builds.push({ name, sdk: await import(pathToFileURL(resolve(dir, 'index.js')).href) });
}

async function sdkRun({ ImClient, memoryStorage }, server, nth, aesSwitch, frames, visible, Socket) {
  const client = new ImClient({
    baseUrl: 'http://bench.local',
    socketUrl: server.url,
    socketKey,
    fetch: fakeFetch(keys, aesSwitch),
    WebSocket: Socket,
    storage: memoryStorage(),
    window: null,
    document: visible ? null : hiddenDocument,
    limits: { heartbeatInterval: 3_600_000 },
  });
  await client.start();
  client.connect();
  await server.socket(nth);
  while (client.connectionState !== 'open') await new Promise((r) => setTimeout(r, 5));
  const welcome = JSON.stringify({ type: 60, to: VISITOR, sm: Date.now() });
  await server.push(nth, [aesSwitch ? ecb(token, welcome) : welcome]);
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
    let c0;
    client.on('socket message', () => {
      if (seen++ === 0) [t0, c0] = [performance.now(), process.cpuUsage()];
      if (seen === FRAMES) queueMicrotask(() => resolve(span(t0, c0)));
    });
  });
  const [run] = await Promise.all([done, server.push(nth, wire)]);
  await new Promise((r) => setTimeout(r, 0));
  if (client.messages.size !== FRAMES) throw new Error(`the store holds ${client.messages.size} of ${FRAMES}`);
  if (reads === 0) throw new Error('the store never told its reader');
  if (visible) await receipts(server, nth, FRAMES);
  unsubscribe();
  client.destroy();
  return run;
}

/**
 * A bare `ws` client: JSON.parse of each frame; with `reply`, also one small JSON frame sent back
 * per text (what a read receipt costs at the least: a stringify and a socket write).
 */
async function bareRun(server, nth, frames, reply = false, Socket = WebSocket) {
  const ws = new Socket(server.url);
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  await server.socket(nth);
  const done = new Promise((resolve) => {
    let seen = 0;
    let t0 = 0;
    let c0;
    const list = [];
    ws.on('message', (data) => {
      if (seen++ === 0) [t0, c0] = [performance.now(), process.cpuUsage()];
      const message = JSON.parse(data.toString());
      list.push(message);
      if (reply) ws.send(JSON.stringify({ type: 104, dataContent: message.fp, fp: randomUUID(), from: message.to, to: message.from, cm: message.createTime }));
      if (seen === FRAMES) resolve(span(t0, c0));
    });
  });
  const [run] = await Promise.all([done, server.push(nth, frames)]);
  if (reply) await receipts(server, nth, FRAMES);
  ws.close();
  return run;
}

/**
 * A run's figures from its first frame to its last: frames per second of wall time, and this
 * process's CPU time per frame in microseconds (all its threads: on a loaded machine, the steadier
 * of the two, since time spent waiting for a core is not in it).
 */
function span(t0, c0) {
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { rate: (FRAMES / ms) * 1000, cpu: (cpu.user + cpu.system) / FRAMES };
}

/** Waits (up to 5 s) until the server has received `count` frames from socket `nth`. */
async function receipts(server, nth, count) {
  for (let waited = 0; (await server.received(nth)) < count; waited += 10) {
    if (waited > 5_000) throw new Error(`the server received ${await server.received(nth)} of ${count} receipts`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The rows: which page, AES switch, the target. */
const ONLY = process.env.ONLY;
const WRITES = process.env.WRITES === 'each' || process.env.WRITES === 'tick' ? [process.env.WRITES] : ['each', 'tick'];
const Sockets = { each: WebSocket, tick: TickWebSocket };
const rows = [
  { label: 'hidden page, plain', visible: false, aes: false, skip: ONLY === 'visible' },
  { label: 'hidden page, AES-ECB', visible: false, aes: true, skip: ONLY === 'visible' || ONLY === 'plain' },
  { label: 'visible + read receipts, plain', visible: true, aes: false, skip: ONLY === 'plain', target: '>= 0.5x bare' },
  { label: 'visible + read receipts, AES-ECB', visible: true, aes: true, skip: ONLY === 'plain', target: '>= 20,000/s' },
]
  // WRITES=each|tick|both (both by default): the visible rows with `ws` as it is (a write per
  // frame), with the frames of a tick written together (TickWebSocket, as a browser's network stack), or both
  .flatMap((row) => (row.visible ? WRITES.map((writes) => ({ ...row, writes, label: `${row.label}${writes === 'tick' ? ', writes per tick' : ''}` })) : [{ ...row, writes: 'each' }]))
  .filter((row) => !row.skip);

// SERVER=inproc: the server in this process (its parsing of the receipts then counts against the client)
const SERVER = process.env.SERVER ?? 'child';
const server = SERVER === 'inproc' ? await startInProcess() : await startChild();
let nth = 0;
const bare = [];
const bareReply = { each: [], tick: [] };
const rates = new Map(); // `${build}|${row}` -> the rounds' { rate, cpu }
for (let round = 0; round < ROUNDS; round++) {
  const frames = chatFrames(round);
  bare.push(await bareRun(server, ++nth, frames));
  for (const writes of WRITES) {
    if (rows.some((row) => row.visible)) bareReply[writes].push(await bareRun(server, ++nth, frames, true, Sockets[writes]));
  }
  for (const row of rows) {
    // each round starts with another build: none always runs first (or right after the bare client)
    for (const build of builds.map((_, i) => builds[(i + round) % builds.length])) {
      const key = `${build.name}|${row.label}`;
      if (!rates.has(key)) rates.set(key, []);
      rates.get(key).push(await sdkRun(build.sdk, server, ++nth, row.aes, frames, row.visible, Sockets[row.writes]));
    }
  }
}
await server.close();
const b = median(bare.map((r) => r.rate));
const bBest = Math.max(...bare.map((r) => r.rate));
const bCpu = Math.min(...bare.map((r) => r.cpu));
const fmt = (n) => Math.round(n).toLocaleString('en-US');
// "best": the fastest round of each row (on a loaded machine the least disturbed run); "CPU": the
// least CPU time per text of the rounds, this process only, and the bare client's over it
const table = [['row', 'build', 'frames/s', 'x bare', 'best', 'x best bare', 'CPU us/text', 'x bare CPU', 'target']];
const line = (label, build, runs, target = '') => {
  const xs = runs.map((r) => r.rate);
  const [m, best, cpu] = [median(xs), Math.max(...xs), Math.min(...runs.map((r) => r.cpu))];
  table.push([label, build, fmt(m), (m / b).toFixed(2), fmt(best), (best / bBest).toFixed(2), cpu.toFixed(2), (bCpu / cpu).toFixed(2), target]);
};
line('bare ws client, JSON.parse only', '', bare);
for (const writes of WRITES) {
  if (bareReply[writes].length) line(`bare ws client, JSON.parse + one JSON frame sent back per text${writes === 'tick' ? ', writes per tick' : ''}`, '', bareReply[writes], '(the floor with receipts)');
}
for (const row of rows) {
  for (const build of builds) line(`ImClient, ${row.label}`, builds.length > 1 ? build.name : '', rates.get(`${build.name}|${row.label}`), row.target);
}
const widths = table[0].map((_, c) => Math.max(...table.map((line) => line[c].length)));
console.log(`${FRAMES} agent texts (type 100, ~70 chars) over loopback ws from a server ${SERVER === 'inproc' ? 'in this process' : 'in a child process'}, median and best of ${ROUNDS} interleaved rounds, Node ${process.version}`);
for (const line of table) console.log(line.map((cell, c) => (c >= 2 && c <= 7 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd());
