#!/usr/bin/env node
// How many incoming frames per second the SDK decodes (JSON, or AES-ECB then JSON), routes and
// emits as 'socket message', beside a bare JSON.parse of the same frames. Runs the built SDK
// (`npm run build` first) with an in-process fake socket, so only the client's own work counts.
import { createCipheriv, randomBytes } from 'node:crypto';
import { ImClient, memoryStorage } from '../dist/index.js';

const FRAMES = Number(process.env.FRAMES ?? 50_000);
const ascii = (n) => Array.from(randomBytes(n), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
const aesKey = ascii(32);
const token = ascii(32);

function gcm(key, text) {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const ct = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64');
}
function ecb(key, text) {
  const c = createCipheriv('aes-256-ecb', Buffer.from(key), null);
  return Buffer.concat([c.update(text, 'utf8'), c.final()]).toString('base64');
}

/** Answers protocol §1 (the key exchange) in memory. */
function fakeFetch(aesSwitch) {
  return async (input) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    const r = url.searchParams.get('requestKey') ?? '';
    const routes = {
      '/im/api/permit/getServerTime': () => Date.now(),
      '/im/api/permit/getAesKey': () => Buffer.from(Buffer.from(aesKey).map((b, i) => b ^ r.charCodeAt(i % r.length))).toString('base64'),
      '/im/api/permit/getUserToken': () => ({ userToken: gcm(Buffer.from(aesKey), token), saltKey: 'bench' }),
      '/im/api/permit/switchAES': () => aesSwitch,
    };
    const data = routes[url.pathname]?.() ?? null;
    return Response.json({ code: 0, message: 'ok', data });
  };
}

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
    fetch: fakeFetch(aesSwitch),
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
  const conn = client['connection'];
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
