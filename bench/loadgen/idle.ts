/**
 * Worker-side phases without chat traffic: back-to-back handshakes (key exchange, connect,
 * welcome, close) and a fleet of idle visitors that connect once and then only send the protocol's
 * heartbeat (type 1 every 20 s, as the SDK does).
 * @module
 */

import { VirtualClient } from './client.js';
import { count, errorKind, type Counts } from './counts.js';
import type { ServerInfo, SocketKey } from './protocol.js';

/** Per-connect timings of a phase, ms. */
export interface ConnectSamples {
  /** Key exchange (2 HTTP calls). */
  keyExchange: number[];
  /** Socket open to welcome. */
  socket: number[];
}

/** What a handshake run did. */
export interface HandshakeResult extends ConnectSamples {
  /** Handshakes that ended in a welcome. */
  done: number;
  /** Failures by kind. */
  errors: Counts;
  /** The run's wall time, ms. */
  wallMs: number;
}

const CONNECT_TIMEOUT_MS = 15_000;
const HEARTBEAT_MS = 20_000;
const HEARTBEAT_SLICES = 20;

/** `concurrency` loops of connect-welcome-close for `durationMs`, each a new visitor. */
export async function runHandshakes(info: ServerInfo, key: SocketKey, durationMs: number, concurrency: number): Promise<HandshakeResult> {
  const result: HandshakeResult = { done: 0, errors: {}, wallMs: 0, keyExchange: [], socket: [] };
  const start = performance.now();
  const end = start + durationMs;
  const loop = async (): Promise<void> => {
    while (performance.now() < end) {
      const client = new VirtualClient(info, key, {});
      try {
        const times = await client.connect(CONNECT_TIMEOUT_MS);
        result.done += 1;
        result.keyExchange.push(times.keyExchangeMs);
        result.socket.push(times.socketMs);
      } catch (error) {
        count(result.errors, errorKind(error));
      }
      await client.close();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => loop()));
  result.wallMs = performance.now() - start;
  return result;
}

/** What opening the idle fleet did. */
export interface IdleOpenResult extends ConnectSamples {
  /** Sockets open at the end of the ramp. */
  held: number;
  /** Failures by kind. */
  errors: Counts;
  /** Ramp wall time, ms. */
  rampMs: number;
}

/** Idle visitors held open with heartbeats. */
export class IdleFleet {
  private readonly clients: VirtualClient[] = [];
  private readonly closes: Counts = {};
  private tick = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly info: ServerInfo,
    private readonly key: SocketKey,
  ) {
    // one timer for the fleet: each second a twentieth of the clients send their heartbeat
    this.timer = setInterval(() => {
      const slice = this.tick++ % HEARTBEAT_SLICES;
      for (let i = slice; i < this.clients.length; i += HEARTBEAT_SLICES) this.clients[i]?.heartbeat();
    }, HEARTBEAT_MS / HEARTBEAT_SLICES);
  }

  /** Opens `total` idle visitors, `concurrency` connects at a time, until `deadlineMs` (from now). */
  async open(total: number, concurrency: number, deadlineMs: number): Promise<IdleOpenResult> {
    const result: IdleOpenResult = { held: 0, errors: {}, rampMs: 0, keyExchange: [], socket: [] };
    const start = performance.now();
    const deadline = start + deadlineMs;
    let next = 0;
    const loop = async (): Promise<void> => {
      while (next < total && performance.now() < deadline) {
        next += 1;
        const client = new VirtualClient(this.info, this.key, {});
        try {
          const times = await client.connect(Math.max(1000, Math.min(CONNECT_TIMEOUT_MS, deadline - performance.now())));
          client.onFrame = () => undefined;
          client.onClose = (code) => count(this.closes, `closed ${code}`);
          this.clients.push(client);
          result.keyExchange.push(times.keyExchangeMs);
          result.socket.push(times.socketMs);
        } catch (error) {
          count(result.errors, errorKind(error));
          await client.close();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, () => loop()));
    result.rampMs = performance.now() - start;
    result.held = this.held();
    return result;
  }

  /** Sockets open now. */
  held(): number {
    let n = 0;
    for (const client of this.clients) if (client.open) n += 1;
    return n;
  }

  /** Closes seen since the ramp (by code). */
  closedByServer(): Counts {
    return { ...this.closes };
  }

  /** Stops the heartbeats and closes every client. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    const all = this.clients.splice(0);
    for (let i = 0; i < all.length; i += 500) await Promise.all(all.slice(i, i + 500).map((c) => c.close()));
  }
}
