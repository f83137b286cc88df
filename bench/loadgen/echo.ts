/**
 * Worker-side baseline: plain `ws` clients send the same JSON text frames as the chat phase's
 * visitors, at the same rate, to a bare `ws` echo server; each echo's round trip is timed. No
 * protocol, storage or encryption: what loopback WebSocket costs on this machine right now.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { count, errorKind, type Counts } from './counts.js';

/** What the echo phase needs. */
export interface EchoArgs {
  /** The echo server's URL. */
  url: string;
  /** Plain clients of this worker. */
  clients: number;
  /** Frames per client per second. */
  rate: number;
  /** Measurement window, ms. */
  windowMs: number;
}

/** What the echo phase measured. */
export interface EchoResult {
  /** Clients open. */
  connected: number;
  /** Frames sent in the window. */
  sent: number;
  /** Echoes received. */
  echoed: number;
  /** Send to echo, ms. */
  roundTrip: number[];
  /** Failures by kind. */
  errors: Counts;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Opens the clients, runs the window, drains up to 3 s and closes. */
export async function runEcho(args: EchoArgs): Promise<EchoResult> {
  const result: EchoResult = { connected: 0, sent: 0, echoed: 0, roundTrip: [], errors: {} };
  const sockets: WebSocket[] = [];
  const outstanding = new Set<string>();
  const open = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const ws = new WebSocket(args.url, { perMessageDeflate: false });
      ws.on('error', (error) => count(result.errors, errorKind(error)));
      ws.on('message', (data) => {
        const received = performance.now();
        const content = (JSON.parse(data.toString()) as { dataContent?: string }).dataContent ?? '';
        const [, client, seq, sentAt] = content.split('#');
        if (!outstanding.delete(`${client}#${seq}`)) return;
        result.echoed += 1;
        result.roundTrip.push(received - Number(sentAt));
      });
      ws.once('open', () => {
        sockets[index] = ws;
        resolve();
      });
      ws.once('close', () => resolve());
    });
  for (let i = 0; i < args.clients; i += 100) await Promise.all(Array.from({ length: Math.min(100, args.clients - i) }, (_, j) => open(i + j)));
  result.connected = sockets.filter(Boolean).length;

  const period = 1000 / args.rate;
  const start = performance.now();
  const end = start + args.windowMs;
  const timers: ReturnType<typeof setTimeout>[] = [];
  sockets.forEach((ws, index) => {
    let k = 0;
    const offset = Math.random() * period;
    const tick = (): void => {
      const at = start + offset + k * period;
      if (at >= end) return;
      const seq = k;
      k += 1;
      timers.push(
        setTimeout(() => {
          const sentAt = performance.now();
          if (ws.readyState !== WebSocket.OPEN) return;
          const id = randomUUID();
          outstanding.add(`${index}#${seq}`);
          ws.send(JSON.stringify({ type: 100, from: id, to: '', fp: randomUUID(), dataContent: `echo#${index}#${seq}#${sentAt.toFixed(3)}`, times: Date.now(), uuid: id }));
          result.sent += 1;
          tick();
        }, Math.max(0, at - performance.now())),
      );
    };
    tick();
  });
  await sleep(args.windowMs);
  for (const timer of timers) clearTimeout(timer);
  const drainEnd = performance.now() + 3000;
  while (outstanding.size > 0 && performance.now() < drainEnd) await sleep(20);
  for (const ws of sockets) ws?.close(1000);
  await sleep(200);
  for (const ws of sockets) if (ws && ws.readyState !== WebSocket.CLOSED) ws.terminate();
  return result;
}
