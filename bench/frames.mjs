#!/usr/bin/env node
// How many incoming frames per second the SDK decodes (JSON, or AES-ECB then JSON), routes and
// emits as 'socket message', beside a bare JSON.parse of the same frames. Runs the built SDK
// (`npm run build` first) with an in-process fake socket, so only the client's own work counts.
import { ImClient, memoryStorage } from '../dist/index.js';
import { benchKeys, ecb, fakeFetch } from './fake-key-exchange.mjs';

const FRAMES = Number(process.env.FRAMES ?? 50_000);
const keys = benchKeys();
const { token } = keys;


class BenchSocket {
  static last;
  readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  constructor() {
    BenchSocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.({});
    });
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}

async function run(label, aesSwitch, encode) {
  const client = new ImClient({
    baseUrl: 'http://bench.local',
    socketUrl: 'ws://bench.local/ws',
    socketKey: 'unused,unused',
    fetch: fakeFetch(keys, aesSwitch),
    WebSocket: BenchSocket,
    storage: memoryStorage(),
    window: null,
    document: null,
  });
  await client.start();
  // Skip RSA/GCM connect params: this measures the frame path, not the handshake.
  client.connect = () => {};
  const socket = new BenchSocket();
  await new Promise((r) => setTimeout(r, 0));
  const frames = Array.from({ length: FRAMES }, (_, i) =>
    encode(JSON.stringify({ type: 51, sm: 1_700_000_000_000 + i, to: 'visitor', fp: `f${i}` })),
  );
  let emitted = 0;
  client.on('socket message', () => emitted++);
  // Drive the client's frame handler through its connection.
  const conn = client['engine'].socketStack.link.connection; // internal: only the client's own work counts
  const t0 = performance.now();
  for (const data of frames) conn.emit('frame', { data });
  const ms = performance.now() - t0;
  if (emitted !== FRAMES) throw new Error(`emitted ${emitted} of ${FRAMES}`);
  client.destroy();
  socket.close();
  console.log(`${label.padEnd(34)} ${Math.round((FRAMES / ms) * 1000).toLocaleString('en-US').padStart(12)} frames/s`);
  return frames;
}

function bare(label, frames, decode) {
  const t0 = performance.now();
  let n = 0;
  for (const f of frames) if (decode(f).type) n++;
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(34)} ${Math.round((n / ms) * 1000).toLocaleString('en-US').padStart(12)} frames/s`);
}

console.log(`${FRAMES} heartbeat-reply frames (type 51), Node ${process.version}`);
const plain = await run('SDK, plain JSON frames', false, (s) => s);
bare('bare JSON.parse, same frames', plain, (f) => JSON.parse(f));
await run('SDK, AES-ECB encrypted frames', true, (s) => ecb(token, s));
