import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { fixedDelayPolicy } from '../options.js';
import type { NetworkTarget } from './connection.js';
import { FakeNetwork, FakeWebSocket } from './test-utils.js';
import { openConnection, settle, setup, socketAt } from './connection.fixture.js';

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('"When the browser goes offline: the heartbeat stops and the socket is closed. When it comes back online the status is marked online"', () => {
  it('offline closes the socket, stops the heartbeat and does not reconnect while offline', async () => {
    const { conn, network, socket, networkEvents } = await openConnection();
    network.goOffline();
    expect(conn.online).toBe(false);
    expect(networkEvents).toEqual([false]);
    expect(socket.closedByClient).not.toBeNull();
    expect(conn.state).toBe('reconnecting');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket.sent).toEqual([]);
  });

  it('online marks the status online and reconnects at once', async () => {
    const { conn, network, networkEvents, opens } = await openConnection();
    network.goOffline();
    network.goOnline();
    expect(conn.online).toBe(true);
    expect(networkEvents).toEqual([false, true]);
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
    socketAt(1).open();
    expect(opens).toEqual([false, true]);
  });

  it('online leaves failed, with a fresh reconnect budget', async () => {
    const { conn, network } = setup({ reconnectPolicy: fixedDelayPolicy(5_000, 1) });
    conn.connect();
    await settle();
    socketAt(0).fail();
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(1).fail();
    expect(conn.state).toBe('failed');
    network.goOnline();
    expect(conn.state).toBe('reconnecting');
    await settle();
    socketAt(2).fail();
    expect(conn.state).toBe('reconnecting');
    expect(conn.attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(3).open();
    expect(conn.state).toBe('open');
  });

  it('a socket dropped while offline waits for online instead of scheduling a reconnect', async () => {
    const network = new FakeNetwork();
    network.navigator.onLine = false;
    const { conn } = setup({ network });
    expect(conn.online).toBe(false);
    conn.connect();
    await settle();
    socketAt(0).fail();
    expect(conn.state).toBe('reconnecting');
    expect(vi.getTimerCount()).toBe(0);
    network.goOnline();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('online does not connect a connection the user closed', async () => {
    const { conn, network } = await openConnection();
    conn.close();
    network.goOffline();
    network.goOnline();
    await settle();
    expect(conn.state).toBe('closed');
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('accepts a DOM window as the network target', () => {
    expectTypeOf<Window>().toExtend<NetworkTarget>();
  });
});

describe('Disconnect by the user: close()', () => {
  it('closes the socket, stops the heartbeat and never reconnects', async () => {
    const { conn, socket, closes } = await openConnection();
    conn.close();
    expect(conn.state).toBe('closed');
    expect(socket.closedByClient).toEqual({ code: 1000, reason: 'client close' });
    expect(closes).toEqual([{ code: 1000, reason: 'client close' }]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('cancels a scheduled reconnect and an attempt whose URL is still being built', async () => {
    let resolveUrl: (url: string) => void = () => undefined;
    const createUrl = vi.fn(() => new Promise<string>((resolve) => (resolveUrl = resolve)));
    const { conn } = setup({ createUrl });
    conn.connect();
    conn.close();
    resolveUrl('ws://test.local/late');
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0);
    expect(conn.state).toBe('closed');
  });

  it('close() called by an error listener of a failed attempt is final', async () => {
    const { conn } = setup({ createUrl: () => Promise.reject(new Error('RSA encryption failed')) });
    conn.on('error', () => conn.close());
    conn.connect();
    await settle();
    expect(conn.state).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('connect() after close() opens again as a reconnect', async () => {
    const { conn, opens } = await openConnection();
    conn.close();
    conn.connect();
    await settle();
    socketAt(1).open();
    expect(opens).toEqual([false, true]);
  });
});

describe('"When the socket is destroyed: reconnect is forbidden and all timers are cleared"', () => {
  it('leaves no timer, closes the socket and ignores connect() and network events afterwards', async () => {
    const { conn, socket, network } = await openConnection();
    expect(vi.getTimerCount()).toBe(1);
    conn.destroy();
    expect(vi.getTimerCount()).toBe(0);
    expect(socket.closedByClient).not.toBeNull();
    expect(conn.listenerCount('state')).toBe(0);
    conn.connect();
    network.goOffline();
    network.goOnline();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(conn.state).toBe('closed');
  });

  it('clears a scheduled reconnect', async () => {
    const { conn, socket } = await openConnection();
    socket.serverClose(1006);
    expect(vi.getTimerCount()).toBe(1);
    conn.destroy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('removes its network listeners', () => {
    const network = new FakeNetwork();
    const remove = vi.spyOn(network, 'removeEventListener');
    const { conn } = setup({ network });
    conn.destroy();
    expect(remove.mock.calls.map(([type]) => type).sort()).toEqual(['offline', 'online']);
  });

  it('drops an attempt whose URL resolves after destroy()', async () => {
    let resolveUrl: (url: string) => void = () => undefined;
    const { conn } = setup({ createUrl: () => new Promise<string>((resolve) => (resolveUrl = resolve)) });
    conn.connect();
    conn.destroy();
    resolveUrl('ws://test.local/late');
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});

