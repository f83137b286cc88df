/**
 * One socket per visitor per browser (issue 10), SDK against the real reference server: tabs of
 * one visitor (ImClients with one client id) share fake Web Locks and a fake BroadcastChannel
 * (one "browser"); only the leader opens a socket, a follower's texts go out on it and are
 * stored once, and when the leader tab goes away a follower takes over and connects.
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { memoryStorage, type WebSocketConstructor } from '../../src/index.js';
import { createFakeChannels, FakeLockManager } from '../../src/tabs/tabs.fixture.js';
import { clientsPerTest, DEMO, DEMO_VISITOR, type Recorded, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;

sharedServer((s) => (server = s));
const clients = clientsPerTest();

/** One browser: its locks, its channels, and every socket its tabs opened. */
function browser() {
  const sockets: string[] = [];
  class Counting extends WebSocket {
    constructor(url: string) {
      super(url);
      sockets.push(url);
    }
  }
  // The tabs of one visitor share the origin's storage (the uuid and its secret, protocol §3a).
  const storages = new Map<string, ReturnType<typeof memoryStorage>>();
  const storageOf = (clientId: string): ReturnType<typeof memoryStorage> => {
    let storage = storages.get(clientId);
    if (storage === undefined) storages.set(clientId, (storage = memoryStorage()));
    return storage;
  };
  return { locks: new FakeLockManager(), channels: createFakeChannels(), sockets, storageOf, WebSocket: Counting as unknown as WebSocketConstructor };
}

function tab(b: ReturnType<typeof browser>, clientId: string): Recorded {
  return clients.make(server, {
    clientId,
    storage: b.storageOf(clientId),
    WebSocket: b.WebSocket,
    connectData: { ...DEMO_VISITOR, language: 'en' },
    tabs: { locks: b.locks, BroadcastChannel: b.channels.BroadcastChannel },
  });
}

async function connect(rec: Recorded): Promise<void> {
  await rec.client.start();
  rec.client.connect();
  await waitUntil(() => {
    expect(rec.client.connectionState).toBe('open');
    expect(rec.client.userId).toBeDefined();
  });
}

/** The visitor's stored messages with this fp, read from the server's history. */
async function storedWith(rec: Recorded, fp: string): Promise<number> {
  const page = await rec.client.api.findMsgForCus({ clientId: rec.client.clientId, mchId: DEMO.mchId, platformId: DEMO.platformId, size: 100 });
  return page.list.filter((m) => m.fp === fp).length;
}

describe('one socket per visitor per browser, against the real server', () => {
  it("two tabs share the leader's socket; a follower's text is stored once and shown once in both", async () => {
    const b = browser();
    const id = `tabs-${Date.now()}-a`;
    const leader = tab(b, id);
    await connect(leader);
    const follower = tab(b, id);
    await connect(follower);
    expect([leader.client.tabRole, follower.client.tabRole]).toEqual(['leader', 'follower']);
    expect(b.sockets).toHaveLength(1);
    expect(follower.client.userId).toBe(leader.client.userId);
    expect(follower.logins).toEqual([{ reconnected: false }]);

    const sent = follower.client.sendText('hello from the second tab');
    expect(sent.sendState).toBe('pending');
    await waitUntil(() => expect(follower.client.messages.get(sent.fp!)?.sendState).toBe('sent'));
    await waitUntil(() => expect(leader.client.messages.get(sent.fp!)).toBeDefined());
    for (const t of [leader, follower]) {
      expect(t.client.messages.getSnapshot().filter((m) => m.fp === sent.fp)).toHaveLength(1);
    }
    expect(await storedWith(follower, sent.fp!)).toBe(1);

    // The robot's answer reached both tabs (it came on the one socket).
    await waitUntil(() => {
      for (const t of [leader, follower]) expect(t.client.messages.getSnapshot().some((m) => m.type === 200 && (m.createTime ?? 0) >= (sent.times ?? 0))).toBe(true);
    });
    expect(b.sockets).toHaveLength(1);
    expect(leader.errors.concat(follower.errors)).toEqual([]);
  });

  it('when the leader tab goes, a follower takes over at once, connects, and pending texts go out exactly once', async () => {
    const b = browser();
    const id = `tabs-${Date.now()}-b`;
    const first = tab(b, id);
    await connect(first);
    const second = tab(b, id);
    const third = tab(b, id);
    await connect(second);
    await connect(third);
    expect(b.sockets).toHaveLength(1);

    const t0 = performance.now();
    first.client.destroy();
    // A text written in the gap waits in the third tab's outbox and goes out once the new leader is in.
    const gap = third.client.sendText('written while the leader tab was closing');
    await waitUntil(() => {
      expect(second.client.tabRole).toBe('leader');
      expect(second.client.connectionState).toBe('open');
      expect(third.client.connectionState).toBe('open');
    });
    const takeOver = performance.now() - t0;
    console.log(`tabs: take-over after the leader tab closed: ${takeOver.toFixed(0)} ms (SDK in Node, loopback)`);
    expect(takeOver).toBeLessThan(2_000);
    expect(b.sockets).toHaveLength(2);
    expect(third.logins.at(-1)).toEqual({ reconnected: true });

    await waitUntil(() => expect(third.client.messages.get(gap.fp!)?.sendState).toBe('sent'));
    const after = third.client.sendText('after the take-over');
    await waitUntil(() => expect(second.client.messages.get(after.fp!)).toBeDefined());
    await waitUntil(() => expect(third.client.messages.get(after.fp!)?.sendState).toBe('sent'));
    expect(await storedWith(second, gap.fp!)).toBe(1);
    expect(await storedWith(second, after.fp!)).toBe(1);
    expect(b.sockets).toHaveLength(2);
  });

  it('two visitors of one browser keep a socket each', async () => {
    const b = browser();
    const a = tab(b, `tabs-${Date.now()}-c1`);
    const c = tab(b, `tabs-${Date.now()}-c2`);
    await connect(a);
    await connect(c);
    expect([a.client.tabRole, c.client.tabRole]).toEqual(['leader', 'leader']);
    expect(b.sockets).toHaveLength(2);
  });

  it('destroying every tab leaves no channel, listener or lock', async () => {
    const b = browser();
    const id = `tabs-${Date.now()}-d`;
    const x = tab(b, id);
    const y = tab(b, id);
    await connect(x);
    await connect(y);
    clients.destroyAll();
    await waitUntil(() => {
      expect(b.channels.open).toBe(0);
      expect(b.channels.listeners).toBe(0);
      expect(b.locks.isHeld(`kefu-im:${id}:${DEMO.mchId}:${DEMO.platformId}`)).toBe(false);
    });
  });
});
