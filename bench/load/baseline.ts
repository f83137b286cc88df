/**
 * The baseline of the load bench: plain `ws` clients send the same JSON frames as the SDK's
 * visitors (a type-100 message carrying its send time), at the same rate, to a bare `ws` echo
 * server; each echo's round trip is timed. No protocol, no storage, no encryption: what loopback
 * WebSocket costs on this machine.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { pace, pool, Samples, sleep, Tally } from './stats.js';

/** What the baseline needs. */
export interface BaselineConfig {
  /** The echo server's URL. */
  url: string;
  /** Plain ws clients. */
  clients: number;
  /** Frames per client per second. */
  rate: number;
  /** Connects in flight at once. */
  concurrency: number;
}

interface Client {
  index: number;
  id: string;
  ws: WebSocket;
  seq: number;
  stop: () => void;
}

const now = (): number => performance.now();

/** Plain ws clients against the echo server, and what was measured. */
export class Baseline {
  /** WebSocket connect (upgrade to open). */
  readonly connect = new Samples();
  /** send to echo received. */
  readonly roundTrip = new Samples();
  /** Socket errors and unexpected closes. */
  readonly errors = new Tally();
  /** Frames sent in the window. */
  sent = 0;
  /** Echoes received (by the end of the drain). */
  echoed = 0;
  /** Echoes received within the window. */
  echoedInWindow = 0;
  /** Bytes of one frame (the last one sent). */
  frameBytes = 0;
  private windowEnd = 0;
  private readonly clients: Client[] = [];
  private readonly outstanding = new Set<string>();

  constructor(private readonly config: BaselineConfig) {}

  /** Opens the clients, `concurrency` at a time; resolves when all are open or `timeoutMs` passed. */
  async open(timeoutMs: number): Promise<void> {
    const deadline = now() + timeoutMs;
    const indexes = Array.from({ length: this.config.clients }, (_, i) => i);
    await pool(indexes, this.config.concurrency, (index) => this.openOne(index, deadline), () => now() >= deadline);
  }

  private openOne(index: number, deadline: number): Promise<void> {
    const t0 = now();
    const ws = new WebSocket(this.config.url);
    const client: Client = { index, id: randomUUID(), ws, seq: 0, stop: () => undefined };
    this.clients.push(client);
    ws.on('message', (data) => this.onEcho(data));
    ws.on('error', (error) => this.errors.add('socket error', error.message));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.errors.add('connect timeout');
        resolve();
      }, Math.max(1, deadline - t0));
      ws.once('open', () => {
        clearTimeout(timer);
        this.connect.add(now() - t0);
        ws.once('close', (code) => {
          if (code !== 1000 && code !== 1005) this.errors.add(`closed ${code}`);
        });
        resolve();
      });
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private onEcho(data: WebSocket.RawData): void {
    const received = now();
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    let content = '';
    try {
      const parsed: unknown = JSON.parse(text);
      const dc = (parsed as { dataContent?: unknown } | null)?.dataContent;
      if (typeof dc === 'string') content = dc;
    } catch {
      // counted below
    }
    const [, client, seq, sentAt] = content.split('#');
    if (!this.outstanding.delete(`${client}#${seq}`)) {
      this.errors.add('unexpected echo');
      return;
    }
    this.echoed += 1;
    if (received <= this.windowEnd) this.echoedInWindow += 1;
    this.roundTrip.add(received - Number(sentAt));
  }

  /** Every open client sends `rate` frames per second for `durationMs`, evenly spread. */
  async measure(durationMs: number): Promise<void> {
    const period = 1000 / this.config.rate;
    const start = now();
    this.windowEnd = start + durationMs;
    for (const client of this.clients) {
      if (client.ws.readyState === WebSocket.OPEN) client.stop = pace(start, Math.random() * period, period, this.windowEnd, () => this.sendOne(client));
    }
    await sleep(durationMs);
    for (const client of this.clients) client.stop();
  }

  /** The same JSON a visitor's SDK puts on the wire for a text (before any AES-ECB encryption). */
  private sendOne(client: Client): void {
    const sentAt = now();
    if (client.ws.readyState !== WebSocket.OPEN) return;
    const seq = client.seq++;
    const frame = JSON.stringify({
      type: 100,
      from: client.id,
      to: '',
      fp: randomUUID(),
      mchId: 'M1001',
      dataContent: `bench#${client.index}#${seq}#${sentAt.toFixed(3)}`,
      times: Date.now(),
      uuid: client.id,
    });
    this.frameBytes = Buffer.byteLength(frame);
    this.outstanding.add(`${client.index}#${seq}`);
    client.ws.send(frame);
    this.sent += 1;
  }

  /** Waits until every frame came back, or `timeoutMs` passed. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = now() + timeoutMs;
    while (this.outstanding.size > 0 && now() < deadline) await sleep(20);
  }

  /** Frames never echoed. */
  get lost(): number {
    return this.outstanding.size;
  }

  /** Clients open now. */
  held(): number {
    return this.clients.filter((c) => c.ws.readyState === WebSocket.OPEN).length;
  }

  /** Closes every client. */
  async close(): Promise<void> {
    for (const client of this.clients) client.ws.close(1000);
    const deadline = now() + 2000;
    while (this.clients.some((c) => c.ws.readyState !== WebSocket.CLOSED) && now() < deadline) await sleep(20);
    for (const client of this.clients) if (client.ws.readyState !== WebSocket.CLOSED) client.ws.terminate();
  }
}
