/**
 * The other tabs of a visitor follow an identity switch (protocol §3b; docs/tabs.md), SDK against
 * the real reference server: tabs (ImClients) share one storage, fake Web Locks and a fake
 * BroadcastChannel (one browser). A member who logs out in one tab (`reset()`) is logged out in
 * the others: they forget the member's conversation and follow to the same new anonymous id. A
 * visitor who logs in in one tab (`identify()`) is the member in the others too.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { memoryStorage, type ImClientOptions, type StorageLike, type WebSocketConstructor } from '../../src/index.js';
import { createFakeChannels, FakeLockManager } from '../../src/tabs/tabs.fixture.js';
import { clientsPerTest, DEMO, DEMO_VISITOR, type Recorded, type TestServer, waitUntil } from './harness.js';
import { memberEnv, memberToken } from './member.js';


let server: TestServer;
const clients = clientsPerTest();

beforeAll(async () => {
  server = await startServer({}, memberEnv());
});
afterAll(async () => {
  await server?.close();
  if (server) removeDir(server.dataDir);
  expect(server.errors).toEqual([]);
});

/** One browser: one storage, its locks and channels, and every socket its tabs opened. */
function browser() {
  const sockets: WebSocket[] = [];
  class Counting extends WebSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  }
  const storage: StorageLike = memoryStorage();
  const openSockets = (): number => sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  return { storage, locks: new FakeLockManager(), channels: createFakeChannels(), openSockets, WebSocket: Counting as unknown as WebSocketConstructor };
}

type Tab = Recorded & { changes: { change: string; clientId: string }[] };

function tab(b: ReturnType<typeof browser>, options: Partial<ImClientOptions> = {}): Tab {
  const rec = clients.make(server, {
    storage: b.storage,
    WebSocket: b.WebSocket,
    connectData: { ...DEMO_VISITOR, language: 'en' },
    tabs: { locks: b.locks, BroadcastChannel: b.channels.BroadcastChannel },
    ...options,
  });
  const changes: Tab['changes'] = [];
  rec.client.on('identity', (c) => changes.push(c));
  return Object.assign(rec, { changes });
}

async function connect(rec: Recorded): Promise<void> {
  await rec.client.start();
  rec.client.connect();
  await waitUntil(() => {
    expect(rec.client.connectionState).toBe('open');
    expect(rec.client.userId).toBeDefined();
  });
}

const texts = (rec: Recorded): unknown[] => rec.client.messages.getSnapshot().map((m) => m.dataContent);

describe('the other tabs follow an identity switch', () => {
  it('a member logs out in one tab (reset): the other tab forgets the conversation and follows to the new anonymous id', async () => {
    const b = browser();
    const token = await memberToken(`member-${randomUUID()}`);
    const getIdentityToken = (): Promise<string> => Promise.resolve(token);
    const one = tab(b, { getIdentityToken });
    await connect(one);
    const memberId = one.client.userId!;
    expect(memberId).toMatch(/^vm-/);
    const two = tab(b, { getIdentityToken });
    await connect(two);
    expect([one.client.tabRole, two.client.tabRole]).toEqual(['leader', 'follower']);
    const said = two.client.sendText('my card ends in 4242');
    await waitUntil(() => expect(two.client.messages.get(said.fp!)?.sendState).toBe('sent'));
    await waitUntil(() => expect(texts(one)).toContain('my card ends in 4242'));

    await one.client.reset();
    const fresh = one.client.clientId;
    expect(fresh).not.toBe(memberId);
    await waitUntil(() => {
      expect(two.client.clientId).toBe(fresh);
      expect(two.client.connectionState).toBe('open');
      expect(two.client.userId).toBe(fresh);
    });
    expect(two.changes).toEqual([{ change: 'reset', clientId: fresh }]);
    expect(texts(two)).not.toContain('my card ends in 4242');
    expect(two.client.connectionStore.getState().verified).toBe(false);
    expect(b.storage.getItem('uuid')).toBe(fresh);
    await waitUntil(() => expect(b.openSockets()).toBe(1));
    // the two tabs are one anonymous visitor again: one socket, a text from the second tab reaches the first
    const hello = two.client.sendText('hello as a guest');
    await waitUntil(() => expect(two.client.messages.get(hello.fp!)?.sendState).toBe('sent'));
    await waitUntil(() => expect(texts(one)).toContain('hello as a guest'));
    const history = (await two.client.loadOlder(50)).list.map((m) => m.dataContent);
    expect(history).not.toContain('my card ends in 4242');
    // the second tab forgot the member's token source too: leading now, it is the anonymous visitor
    one.client.destroy();
    await waitUntil(() => {
      expect(two.client.tabRole).toBe('leader');
      expect(two.client.connectionState).toBe('open');
    });
    expect(two.client.userId).toBe(fresh);
    expect(two.client.connectionStore.getState().verified).toBe(false);
    expect([...one.errors, ...two.errors]).toEqual([]);
  });

  it('two member tabs reloaded without a token (4004): both forget the member and end up as one new anonymous visitor', async () => {
    const b = browser();
    const token = await memberToken(`member-${randomUUID()}`);
    const earlier = tab(b, { getIdentityToken: () => Promise.resolve(token) });
    await connect(earlier);
    const memberId = earlier.client.userId!;
    const said = earlier.client.sendText('my card ends in 4242');
    await waitUntil(() => expect(earlier.client.messages.get(said.fp!)?.sendState).toBe('sent'));
    earlier.client.destroy();
    expect(b.storage.getItem('uuid')).toBe(memberId);

    const one = tab(b);
    const two = tab(b);
    await Promise.all([connect(one), connect(two)]);
    await waitUntil(() => {
      expect(one.client.clientId).not.toBe(memberId);
      expect(two.client.clientId).toBe(one.client.clientId);
      expect([one.client.tabRole, two.client.tabRole].sort()).toEqual(['follower', 'leader']);
      for (const t of [one, two]) expect(t.client.connectionState).toBe('open');
    });
    const fresh = one.client.clientId;
    expect(b.storage.getItem('uuid')).toBe(fresh);
    await waitUntil(() => expect(b.openSockets()).toBe(1)); // the browser's one socket for the visitor
    for (const t of [one, two]) expect(t.changes.at(-1)).toEqual({ change: 'refused', clientId: fresh });
    const hello = two.client.sendText('hello as a guest');
    await waitUntil(() => expect(two.client.messages.get(hello.fp!)?.sendState).toBe('sent'));
    await waitUntil(() => expect(texts(one)).toContain('hello as a guest'));
    expect((await one.client.loadOlder(50)).list.map((m) => m.dataContent)).not.toContain('my card ends in 4242');
    expect([...one.errors, ...two.errors]).toEqual([]);
  });

  it('a visitor logs in in one tab (identify): the other tab follows to the member and sees the whole conversation', async () => {
    const b = browser();
    const one = tab(b);
    await connect(one);
    const anonymous = one.client.clientId;
    const two = tab(b);
    await connect(two);
    expect(two.client.clientId).toBe(anonymous);
    expect([one.client.tabRole, two.client.tabRole]).toEqual(['leader', 'follower']);
    const before = two.client.sendText('asked before logging in');
    await waitUntil(() => expect(two.client.messages.get(before.fp!)?.sendState).toBe('sent'));

    const token = await memberToken(`member-${randomUUID()}`);
    await one.client.identify(token);
    const memberId = one.client.userId!;
    expect(memberId).toMatch(/^vm-/);
    await waitUntil(() => {
      expect(two.client.clientId).toBe(memberId);
      expect(two.client.connectionState).toBe('open');
      expect(two.client.userId).toBe(memberId);
    });
    expect(two.changes).toEqual([{ change: 'identify', clientId: memberId }]);
    await waitUntil(() => expect(texts(two)).toContain('asked before logging in'));
    const after = two.client.sendText('said after logging in');
    await waitUntil(() => expect(two.client.messages.get(after.fp!)?.sendState).toBe('sent'));
    await waitUntil(() => expect(texts(one)).toContain('said after logging in'));
    await waitUntil(() => expect(b.openSockets()).toBe(1));
    expect([...one.errors, ...two.errors]).toEqual([]);
  });

  it("the tabs without a token of their own (one followed the log-in, one opened after it) stay the member when the member's tab closes", async () => {
    const b = browser();
    const one = tab(b);
    await connect(one);
    const two = tab(b);
    await connect(two);
    await one.client.identify(await memberToken(`member-${randomUUID()}`));
    const memberId = one.client.userId!;
    await waitUntil(() => {
      expect(two.client.clientId).toBe(memberId);
      expect(two.client.connectionState).toBe('open');
    });
    // a tab opened now starts with the member's stored id and no token source
    const three = tab(b);
    await connect(three);
    expect(three.client.clientId).toBe(memberId);
    expect(three.client.tabRole).toBe('follower');

    one.client.destroy(); // the tab that logged in closes
    await waitUntil(() => {
      expect([two.client.tabRole, three.client.tabRole].sort()).toEqual(['follower', 'leader']);
      for (const t of [two, three]) {
        expect(t.client.connectionState).toBe('open');
        expect(t.client.clientId).toBe(memberId);
        expect(t.client.userId).toBe(memberId);
      }
      // the new leader's own connect was welcomed as the member (with the token the old leader shared)
      expect((two.client.tabRole === 'leader' ? two : three).client.connectionStore.getState().verified).toBe(true);
    });
    for (const t of [two, three]) expect(t.changes.filter((c) => c.change === 'refused')).toEqual([]);
    expect(b.storage.getItem('uuid')).toBe(memberId);
    const said = three.client.sendText('still the member');
    await waitUntil(() => expect(three.client.messages.get(said.fp!)?.sendState).toBe('sent'));
    await waitUntil(() => expect(texts(two)).toContain('still the member'));
    await waitUntil(() => expect(b.openSockets()).toBe(1));
    expect([...one.errors, ...two.errors, ...three.errors]).toEqual([]);
  });
});
