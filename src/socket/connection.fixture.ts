/**
 * Shared set-up of the Connection tests.
 * @internal
 * @module
 */
import { vi } from 'vitest';
import type { ConnectionState } from '../events.js';
import { fixedDelayPolicy } from '../options.js';
import { defaultTimers } from '../timers.js';
import { Connection, type ConnectionEvents, type ConnectionOptions } from './connection.js';
import { FakeNetwork, FakeWebSocket } from './test-utils.js';

export type ErrorCtx = Parameters<ConnectionEvents['error']>[0];

export function setup(overrides: Partial<ConnectionOptions> = {}) {
  let n = 0;
  const createUrl = vi.fn(async () => `ws://test.local/ws?params=${++n}`);
  const network = new FakeNetwork();
  const conn = new Connection({
    createUrl,
    WebSocket: FakeWebSocket,
    timers: defaultTimers,
    heartbeatInterval: 20_000,
    reconnectPolicy: fixedDelayPolicy(5_000, 10),
    network,
    heartbeat: () => '{"type":1,"dataContent":"{}"}',
    ...overrides,
  });
  const states: ConnectionState[] = [];
  const opens: boolean[] = [];
  const closes: { code: number; reason: string }[] = [];
  const errors: ErrorCtx[] = [];
  const networkEvents: boolean[] = [];
  conn.on('state', ({ newState }) => states.push(newState));
  conn.on('open', ({ reconnected }) => opens.push(reconnected));
  conn.on('close', (ctx) => closes.push(ctx));
  conn.on('error', (ctx) => errors.push(ctx));
  conn.on('network', ({ online }) => networkEvents.push(online));
  return { conn, createUrl, network, states, opens, closes, errors, networkEvents };
}

/** Lets the async createUrl() settle so that the socket gets created. */
export const settle = () => vi.advanceTimersByTimeAsync(0);

export function socketAt(index: number): FakeWebSocket {
  const socket = FakeWebSocket.instances[index];
  if (!socket) throw new Error(`no socket #${index}`);
  return socket;
}

export async function openConnection(overrides: Partial<ConnectionOptions> = {}) {
  const ctx = setup(overrides);
  ctx.conn.connect();
  await settle();
  const socket = socketAt(0);
  socket.open();
  return { ...ctx, socket };
}

