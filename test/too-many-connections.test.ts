/**
 * Close code 4005 (too many connections, docs/protocol.md §5): the identity already has
 * `MAX_SOCKETS_PER_IDENTITY` sockets open. ImClient with injected transports (fake permit API,
 * scripted WebSocket) and fake timers: a refused client stops, says why, and tries again only
 * when the user acts; a timer could not know when another socket closes, and every refused try
 * costs the server an RSA decrypt.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CloseCode } from '../src/codes.js';
import { ImClient, type Notice } from '../src/index.js';
import { FakeNetwork, FakeWebSocket } from '../src/socket/test-utils.js';
import { createFakePermit, fakeClientOptions, makeSocketKey } from './helpers/fake-permit.js';

const keys = makeSocketKey();
const TEN_MINUTES = 10 * 60_000;

/** A started client whose first socket opened and was welcomed, then refused with 4005 by the server. */
async function refusedWith4005() {
  const network = new FakeNetwork();
  const client = new ImClient(fakeClientOptions(createFakePermit().fetch, keys.socketKey, { window: network }));
  const notices: Notice[] = [];
  client.on('notice', (n) => notices.push(n));
  await client.start();
  client.connect();
  await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined());
  // from here on every timer is simulated: the 10 minutes below take no real time
  vi.useFakeTimers();
  FakeWebSocket.last!.serverClose(CloseCode.TooManyConnections, 'too many connections');
  return { client, network, notices };
}

beforeEach(() => {
  FakeWebSocket.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('4005 too many connections: stop, say why, try again only on a user action', () => {
  it('halts with the reason in the snapshot and an error notice, and makes no further connect in 10 minutes', async () => {
    const { client, notices } = await refusedWith4005();
    expect(client.connectionStore.getSnapshot()).toMatchObject({
      state: 'failed',
      failed: true,
      halted: true,
      haltReason: 'too-many-connections',
      lastCloseCode: 4005,
      nextAttemptAt: null,
    });
    expect(notices).toEqual([expect.objectContaining({ key: 'tooManyConnections', level: 'error' })]);
    await vi.advanceTimersByTimeAsync(TEN_MINUTES);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(client.connectionState).toBe('failed');
    client.destroy();
  });

  it('client.reconnect() (the user asks) connects again, and an accepted socket clears the halt', async () => {
    const { client } = await refusedWith4005();
    await vi.advanceTimersByTimeAsync(TEN_MINUTES);
    client.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    FakeWebSocket.last!.open();
    expect(client.connectionStore.getSnapshot()).toMatchObject({ state: 'open', halted: false, haltReason: null, failed: false });
    client.destroy();
  });

  it('the user coming back to the page (focus) tries once: refused again, it halts again, no storm', async () => {
    const { client, network, notices } = await refusedWith4005();
    network.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    FakeWebSocket.last!.serverClose(CloseCode.TooManyConnections, 'too many connections');
    expect(client.connectionStore.getSnapshot()).toMatchObject({ halted: true, haltReason: 'too-many-connections' });
    expect(notices.filter((n) => n.key === 'tooManyConnections')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(TEN_MINUTES);
    expect(FakeWebSocket.instances).toHaveLength(2);
    client.destroy();
  });

  it('unlike 4003 (banned), which the page coming back never retries', async () => {
    const { client, network } = await refusedWith4005();
    client.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    FakeWebSocket.last!.serverClose(CloseCode.Banned, 'banned');
    expect(client.connectionStore.getSnapshot()).toMatchObject({ halted: true, haltReason: 'banned' });
    network.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(TEN_MINUTES);
    expect(FakeWebSocket.instances).toHaveLength(2);
    client.destroy();
  });
});
