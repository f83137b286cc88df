/**
 * The socket stack (connection, tab link, page lifecycle) loads with the first `start()` or
 * `connect()`, not at import: what a UI sees before it has loaded, and the races around its load
 * (a disconnect, a destroy, going offline while it loads).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImClient, type ImClientOptions } from '../src/index.js';
import { watchNetwork } from '../src/socket/network-watch.js';
import { createConnectionStore } from '../src/socket/connection-snapshot.js';
import { FakeNetwork, FakeWebSocket } from '../src/socket/test-utils.js';
import { createFakePermit, fakeClientOptions, makeSocketKey } from './helpers/fake-permit.js';

const keys = makeSocketKey();

function setup(options: Partial<ImClientOptions> = {}) {
  const network = new FakeNetwork();
  const client = new ImClient(fakeClientOptions(createFakePermit().fetch, keys.socketKey, { window: network, ...options }));
  return { client, network: (options.window as FakeNetwork | undefined) ?? network };
}

/** Lets pending promise callbacks and dynamic imports settle. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(() => FakeWebSocket.reset());
afterEach(() => vi.useRealTimers());

describe('before the socket code has loaded', () => {
  it('shows a closed solo connection whose online flag and network event follow the window', () => {
    const { client, network } = setup();
    const seen: boolean[] = [];
    client.on('network', ({ online }) => seen.push(online));
    expect(client.connectionState).toBe('closed');
    expect(client.tabRole).toBe('solo');
    expect(client.online).toBe(true);
    network.goOffline();
    expect(client.online).toBe(false);
    expect(client.connectionStore.getState().online).toBe(false);
    network.goOnline();
    expect(seen).toEqual([false, true]);
    client.destroy();
  });

  it('a client made while offline says so at once', () => {
    const network = new FakeNetwork();
    network.navigator.onLine = false;
    const { client } = setup({ window: network });
    expect(client.online).toBe(false);
    client.destroy();
  });

  it('a text sent before start-up waits as pending and goes out once the socket opens', async () => {
    const { client } = setup();
    const message = client.sendText('hello');
    expect(message.sendState).toBe('pending');
    await client.start();
    client.connect();
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined());
    const ws = FakeWebSocket.last!;
    ws.open();
    ws.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
    await vi.waitFor(() => expect(ws.sent.some((f) => String(f).includes('hello'))).toBe(true));
    client.destroy();
  });
});

describe('connect() before start(): the socket code loads, then the socket opens', () => {
  it('is connecting at once and opens without a start() of its own', async () => {
    const { client } = setup();
    const states: string[] = [];
    client.on('state', ({ newState }) => states.push(newState));
    client.connect();
    expect(client.connectionState).toBe('connecting');
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined());
    FakeWebSocket.last!.open();
    await vi.waitFor(() => expect(client.connectionState).toBe('open'));
    expect(states).toContain('open');
    client.destroy();
  });

  it('a disconnect() while it loads opens no socket', async () => {
    const { client } = setup();
    client.connect();
    client.disconnect();
    expect(client.connectionState).toBe('closed');
    await client.start();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0);
    client.destroy();
  });

  it('a destroy() while it loads opens no socket and leaves no network listener', async () => {
    const network = new FakeNetwork();
    const listeners = new Map<string, number>();
    const add = network.addEventListener.bind(network);
    const remove = network.removeEventListener.bind(network);
    network.addEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject | null, (boolean | AddEventListenerOptions)?]) => {
      listeners.set(type, (listeners.get(type) ?? 0) + 1);
      add(type, ...rest);
    };
    network.removeEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject | null, (boolean | EventListenerOptions)?]) => {
      listeners.set(type, (listeners.get(type) ?? 0) - 1);
      remove(type, ...rest);
    };
    const { client } = setup({ window: network });
    client.connect();
    client.destroy();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0);
    expect(listeners.get('online')).toBe(0);
    expect(listeners.get('offline')).toBe(0);
  });
});

describe('the network flag is handed over to the connection', () => {
  it('offline before the load stays offline after it; the connection then follows the window', async () => {
    const { client, network } = setup();
    const seen: boolean[] = [];
    client.on('network', ({ online }) => seen.push(online));
    network.goOffline();
    await client.start(); // the socket code has loaded
    expect(client.online).toBe(false);
    expect(client.connectionStore.getState().online).toBe(false);
    network.goOnline();
    expect(client.online).toBe(true);
    expect(seen).toEqual([false, true]); // once each: the watch had stopped when the connection took over
    client.destroy();
  });
});

describe('watchNetwork', () => {
  it('writes the flag, tells each change once, and stops once however often it is disposed', () => {
    const network = new FakeNetwork();
    const store = createConnectionStore(true);
    const changes: boolean[] = [];
    const stop = watchNetwork(network, store, (online) => changes.push(online));
    network.goOffline();
    network.goOffline();
    expect(store.getState().online).toBe(false);
    stop();
    stop();
    network.goOnline();
    expect(store.getState().online).toBe(false);
    expect(changes).toEqual([false]);
  });

  it('without a window there is nothing to follow', () => {
    const store = createConnectionStore(true);
    watchNetwork(null, store, () => undefined)();
    expect(store.getState().online).toBe(true);
  });
});
