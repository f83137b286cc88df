// The loopback `ws` server of bench/chat-frames.mjs. In-process (`SERVER=inproc`) or, by default,
// in a child process of its own (this file run with `node`), so that its parsing of the receipts a
// visible page sends back (one per text) is not counted against the receiving client: a browser's
// server runs elsewhere too.
//
// Either way it pre-frames a burst and writes it to the TCP socket in one call, so the figure is
// the receiving side's. It counts the frames each socket sends (the receipts, on a visible page)
// and notes when the last one came (`lastAt`, on the server's clock, like the time `push` returns:
// bench/chat-browser.ts times a page from the burst's write to its last receipt with the two).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';

/** One unmasked server text frame (RFC 6455 §5.2). */
function wsFrame(text) {
  const payload = Buffer.from(text, 'utf8');
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, n]) : n < 65_536 ? Buffer.from([0x81, 126, n >> 8, n & 255]) : null;
  if (!head) throw new Error('frame too large for the bench');
  return Buffer.concat([head, payload]);
}

/** The server itself: sockets numbered from 1 in the order they connect. */
async function listen() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const sockets = [];
  const received = [];
  const lastAt = [];
  wss.on('connection', (ws) => {
    const i = sockets.push(ws) - 1;
    received[i] = 0;
    ws.on('message', () => {
      received[i]++;
      lastAt[i] = performance.now();
    });
  });
  return {
    url: `ws://127.0.0.1:${wss.address().port}/ws`,
    /** Waits for the `nth` socket (1-based) to connect. */
    async socket(nth) {
      while (sockets.length < nth) await new Promise((r) => setTimeout(r, 5));
    },
    /**
     * Writes the frames to the `nth` socket's TCP socket: one write of pre-built ws frames.
     * Returns the time of the write (`performance.now()` of this process, just before it).
     */
    push(nth, texts) {
      const wire = Buffer.concat(texts.map(wsFrame));
      const at = performance.now();
      sockets[nth - 1]._socket.write(wire);
      return at;
    },
    /** Frames the `nth` socket has sent so far. */
    received: (nth) => received[nth - 1],
    /** When the `nth` socket's last frame came (`performance.now()` of this process; undefined before any). */
    lastAt: (nth) => lastAt[nth - 1],
    close: () => new Promise((r) => wss.close(r)),
  };
}

/** The server in this process. */
export const startInProcess = listen;

/** The server in a child process, behind the same calls (each one a message to the child). */
export async function startChild() {
  const child = fork(fileURLToPath(import.meta.url), ['--child'], { serialization: 'advanced' });
  let next = 0;
  const waiting = new Map();
  child.on('message', ({ id, value }) => {
    waiting.get(id)?.(value);
    waiting.delete(id);
  });
  const call = (op, ...args) =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      child.send({ id, op, args });
    });
  const url = await call('url');
  return {
    url,
    socket: (nth) => call('socket', nth),
    push: (nth, texts) => call('push', nth, texts),
    received: (nth) => call('received', nth),
    lastAt: (nth) => call('lastAt', nth),
    async close() {
      await call('close');
      child.disconnect();
    },
  };
}

if (process.argv[2] === '--child') {
  const server = await listen();
  process.on('message', async ({ id, op, args }) => {
    const value = op === 'url' ? server.url : await server[op](...args);
    process.send({ id, value });
  });
}
