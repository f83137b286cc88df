/**
 * The durable outbox through ImClient, with injected transports (fake permit server, scripted
 * WebSocket): pending texts survive the client ("tab closed"), are restored as pending in
 * composition order, resent after the next open, and leave the store on echo or refusal.
 * IndexedDB is fake-indexeddb here; the real server path is test/integration/outbox.test.ts.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImClient, memoryOutboxStorage, memoryStorage, type ChatMessage, type ImClientOptions, type Notice, type OutboxStorage, type StorageLike } from '../src/index.js';
import { outboxScope } from '../src/outbox/durable.js';
import { FakeWebSocket } from '../src/socket/test-utils.js';
import { createFakePermit, fakeClientOptions, makeSocketKey } from './helpers/fake-permit.js';

const keys = makeSocketKey();
/** The machine is shared: give waits room. */
const WAIT = { timeout: 5_000, interval: 10 };
const clients: ImClient[] = [];

/** A client of the visitor whose state lives in `storage` (its client id) and whose outbox in `outbox`. */
function makeClient(storage: StorageLike, options: Partial<ImClientOptions> = {}) {
  const server = createFakePermit();
  const client = new ImClient(fakeClientOptions(server.fetch, keys.socketKey, { storage, ...options }));
  clients.push(client);
  const notices: Notice[] = [];
  client.on('notice', (n) => notices.push(n));
  return { client, notices };
}

/** Connects and opens the socket; returns it. */
async function open(client: ImClient): Promise<FakeWebSocket> {
  const before = FakeWebSocket.instances.length;
  client.connect();
  await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(before + 1), WAIT);
  const ws = FakeWebSocket.last!;
  ws.open();
  ws.receive(JSON.stringify({ type: 60, to: 'u1', sm: 1_700_000_000_000 }));
  return ws;
}

const texts = (client: ImClient) => client.messages.getSnapshot().map((m) => [m.dataContent, m.sendState]);
const stored = (outbox: OutboxStorage, client: ImClient) => outbox.load(outboxScope(client.clientId, client.getConnectData()));

beforeEach(() => FakeWebSocket.reset());
afterEach(() => {
  for (const c of clients.splice(0)) c.destroy();
});

describe('a text composed while the server is down survives the tab: restored as pending, resent in composition order', () => {
  it('through IndexedDB (the default where the platform has it)', async () => {
    const state = memoryStorage();
    const first = makeClient(state).client;
    await first.start();
    first.connect(); // the server is down: the socket never opens
    for (const t of ['one', 'two', 'three']) first.sendText(t);
    const scope = outboxScope(first.clientId, first.getConnectData());
    const { indexedDbOutboxStorage } = await import('../src/outbox/storage.js');
    await vi.waitFor(async () => expect(await indexedDbOutboxStorage().load(scope)).toHaveLength(3), WAIT);
    first.destroy(); // the tab is closed

    const { client } = makeClient(state);
    expect(client.clientId).toBe(first.clientId);
    await client.start();
    expect(texts(client)).toEqual([
      ['one', 'pending'],
      ['two', 'pending'],
      ['three', 'pending'],
    ]);
    const ws = await open(client);
    const resent = ws.sentJson() as ChatMessage[];
    expect(resent.filter((m) => m.type === 100).map((m) => m.dataContent)).toEqual(['one', 'two', 'three']);
    for (const m of resent) ws.receive(JSON.stringify({ ...m, createTime: 1_700_000_000_100 }));
    expect(texts(client).map(([, s]) => s)).toEqual(['sent', 'sent', 'sent']);
    await vi.waitFor(async () => expect(await indexedDbOutboxStorage().load(scope)).toEqual([]), WAIT);
  });

  it('keeps composition order even when new texts are typed before the stored ones are read', async () => {
    const state = memoryStorage();
    const outbox = memoryOutboxStorage();
    const first = makeClient(state, { outboxStorage: outbox }).client;
    first.sendText('old 1');
    first.sendText('old 2');
    await vi.waitFor(async () => expect(await stored(outbox, first)).toHaveLength(2), WAIT);
    first.destroy();

    const { client } = makeClient(state, { outboxStorage: outbox });
    client.sendText('new'); // before start(): the store is read later
    client.transferToHuman(); // a control message: in the outbox, never a row
    await client.start();
    const ws = await open(client);
    expect((ws.sentJson() as ChatMessage[]).map((m) => m.dataContent)).toEqual(['old 1', 'old 2', 'new', '{}']);
    expect(texts(client).map(([t]) => t)).toEqual(['old 1', 'old 2', 'new']);
  });

  it('removes a text from the store on its echo and on a refusal (the refused one shows failed)', async () => {
    const state = memoryStorage();
    const outbox = memoryOutboxStorage();
    const { client } = makeClient(state, { outboxStorage: outbox });
    await client.start();
    const ws = await open(client);
    const a = client.sendText('acknowledged');
    const b = client.sendText('refused');
    await vi.waitFor(async () => expect(await stored(outbox, client)).toHaveLength(2), WAIT);
    ws.receive(JSON.stringify({ ...(ws.sentJson() as ChatMessage[])[0], createTime: 5 }));
    ws.receive(JSON.stringify({ type: 500, dataContent: JSON.stringify({ reason: 'blacklisted', fp: b.fp }) }));
    await vi.waitFor(async () => expect(await stored(outbox, client)).toEqual([]), WAIT);
    expect(client.messages.get(a.fp!)!.sendState).toBe('sent');
    expect(client.messages.get(b.fp!)).toMatchObject({ sendState: 'failed', failReason: 'blacklisted' });
  });

  it('another visitor on the same browser (another client id) never sends them', async () => {
    const outbox = memoryOutboxStorage();
    const first = makeClient(memoryStorage(), { outboxStorage: outbox }).client;
    first.sendText('private');
    await vi.waitFor(async () => expect(await stored(outbox, first)).toHaveLength(1), WAIT);
    first.destroy();

    const { client } = makeClient(memoryStorage(), { outboxStorage: outbox });
    expect(client.clientId).not.toBe(first.clientId);
    await client.start();
    const ws = await open(client);
    expect(client.messages.getSnapshot()).toEqual([]);
    expect(ws.sentJson()).toEqual([]);
    expect(await stored(outbox, first)).toHaveLength(1); // still there for its own visitor
  });

  it('the same visitor of another merchant does not send them either', async () => {
    const state = memoryStorage();
    const outbox = memoryOutboxStorage();
    const first = makeClient(state, { outboxStorage: outbox }).client;
    first.sendText('for merchant 7');
    await vi.waitFor(async () => expect(await stored(outbox, first)).toHaveLength(1), WAIT);
    first.destroy();
    const { client } = makeClient(state, { outboxStorage: outbox, connectData: { mchId: 8, platformId: 9 } });
    await client.start();
    expect(client.messages.getSnapshot()).toEqual([]);
  });
});

describe('the app starts before it knows the conversation (spec §4 start-up order)', () => {
  it('texts of the conversation named later by setConnectData are restored at connect', async () => {
    const state = memoryStorage();
    const outbox = memoryOutboxStorage();
    const first = makeClient(state, { outboxStorage: outbox }).client;
    first.sendText('kept for merchant 7');
    await vi.waitFor(async () => expect(await stored(outbox, first)).toHaveLength(1), WAIT);
    first.destroy();

    const { client } = makeClient(state, { outboxStorage: outbox, connectData: {} });
    await client.start(); // start-up: no merchant yet, nothing of this conversation to restore
    expect(client.messages.getSnapshot()).toEqual([]);
    client.setConnectData({ mchId: 7, platformId: 9 });
    const ws = await open(client);
    await vi.waitFor(() => expect(texts(client)).toEqual([['kept for merchant 7', 'pending']]), WAIT);
    await vi.waitFor(() => expect((ws.sentJson() as ChatMessage[]).map((m) => m.dataContent)).toEqual(['kept for merchant 7']), WAIT);
  });
});

describe('texts failed by the network go out by themselves when the connection returns', () => {
  it('past the reconnect limit the connection shows failed but keeps trying: texts stay pending, kept, and go out on the next open', async () => {
    vi.useFakeTimers();
    try {
      const outbox = memoryOutboxStorage();
      const { client, notices } = makeClient(memoryStorage(), { outboxStorage: outbox, limits: { maxReconnectAttempts: 1, reconnectDelay: 1000 } });
      await client.start();
      client.connect();
      await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1), WAIT);
      const msg = client.sendText('during the outage');
      FakeWebSocket.last!.fail();
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2), WAIT);
      FakeWebSocket.last!.fail();
      expect(client.connectionState).toBe('failed');
      // failed is no dead end (issue 10): the text keeps its "sending" state, no failure notice
      expect(client.messages.get(msg.fp!)).toMatchObject({ sendState: 'pending' });
      expect(notices.filter((n) => n.key === 'sendFailed')).toHaveLength(0);
      const later = client.sendText('while failed');
      expect(client.messages.get(later.fp!)).toMatchObject({ sendState: 'pending' });
      await vi.waitFor(async () => expect(await stored(outbox, client)).toHaveLength(2), WAIT);

      const ws = await open(client); // the connection returns (online, reconnect, or retry)
      expect((ws.sentJson() as ChatMessage[]).map((m) => m.dataContent)).toEqual(['during the outage', 'while failed']);
      expect(client.messages.get(msg.fp!)!.sendState).toBe('pending');
      expect(client.messages.get(later.fp!)!.sendState).toBe('pending');
    } finally {
      vi.useRealTimers();
    }
  });

  it('retry of a failed text reconnects a connection that gave up', async () => {
    vi.useFakeTimers();
    try {
      const { client } = makeClient(memoryStorage(), { outboxStorage: memoryOutboxStorage(), limits: { maxReconnectAttempts: 0 } });
      await client.start();
      client.connect();
      await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1), WAIT);
      FakeWebSocket.last!.fail();
      expect(client.connectionState).toBe('failed');
      const msg = client.sendText('retry me');
      client.retry(msg.fp!);
      expect(client.connectionState).toBe('connecting');
      await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2), WAIT);
      FakeWebSocket.last!.open();
      expect((FakeWebSocket.last!.sentJson() as ChatMessage[]).map((m) => m.dataContent)).toEqual(['retry me']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the service state arrives after the welcome and restores the session without a chat row', () => {
  it('a state event with an agent sets status agent and the agent; the list stays empty', async () => {
    const { client, notices } = makeClient(memoryStorage(), { outboxStorage: memoryOutboxStorage() });
    await client.start();
    const ws = await open(client);
    const events: string[] = [];
    client.on('session', (e) => events.push(e.event));
    ws.receive(JSON.stringify({ type: 300, from: 'system', to: 'u1', fp: 'st-1', dataContent: JSON.stringify({ event: 'state', state: 'active', sessionId: 's9', agent: { id: 'agent:alice', name: 'Alice' } }) }));
    expect(client.session.getState()).toMatchObject({ status: 'agent', sessionId: 's9', agent: { id: 'agent:alice', name: 'Alice' } });
    expect(client.messages.getSnapshot()).toEqual([]);
    expect(events).toEqual(['state']);
    expect(notices).toEqual([]);
  });
});

describe('a picked file: pending while it uploads, sent with its URL; a failed upload is retried by retry()', () => {
  it('fails with upload-failed, then retry() uploads again and the message goes out with the URL', async () => {
    let fail = true;
    const uploads: string[] = [];
    const server = createFakePermit({
      routes: {
        '/oss/aws/upload': () => {
          uploads.push('call');
          return fail ? { code: 500, message: 'disk full', data: null } : { code: 0, message: 'ok', data: { url: '/files/a.png', name: 'a.png', size: 3, mime: 'image/png' } };
        },
      },
    });
    const { client } = makeClient(memoryStorage(), { outboxStorage: memoryOutboxStorage(), fetch: server.fetch });
    await client.start();
    const ws = await open(client);
    const msg = client.sendFile(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'image', { name: 'a.png' });
    expect(client.messages.get(msg.fp!)?.sendState).toBe('pending');
    await vi.waitFor(() => expect(client.messages.get(msg.fp!)).toMatchObject({ sendState: 'failed', failReason: 'upload-failed' }), WAIT);
    expect(ws.sent).toHaveLength(0); // never sent without its URL
    fail = false;
    client.retry(msg.fp!);
    await vi.waitFor(() => expect((ws.sentJson() as ChatMessage[]).map((m) => [m.fp, m.type, m.dataContent])).toEqual([[msg.fp, 101, '/files/a.png']]), WAIT);
    expect(uploads).toHaveLength(2);
    expect(client.messages.get(msg.fp!)?.sendState).toBe('pending'); // until the echo
  });
});

describe('a lost chunk of the file uploads is loaded again at the next file send', () => {
  it('the first send reports the failed load; the next send loads the code again, uploads and sends', async () => {
    const uploads: string[] = [];
    const server = createFakePermit({
      routes: {
        '/oss/aws/upload': () => {
          uploads.push('call');
          return { code: 0, message: 'ok', data: { url: '/files/b.png', name: 'b.png', size: 3, mime: 'image/png' } };
        },
      },
    });
    const { client } = makeClient(memoryStorage(), { outboxStorage: memoryOutboxStorage(), fetch: server.fetch });
    const errors: { error: Error; source: string }[] = [];
    client.on('error', (e) => errors.push(e));
    await client.start();
    const ws = await open(client);
    vi.doMock('../src/outbox/file-sender.js', () => {
      throw new Error('chunk lost (test)');
    });
    try {
      client.sendFile(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'image', { name: 'a.png' });
      await vi.waitFor(() => expect(errors.map((e) => e.source)).toEqual(['upload']), WAIT);
    } finally {
      vi.doUnmock('../src/outbox/file-sender.js');
    }
    expect(uploads).toHaveLength(0);
    const next = client.sendFile(new Blob([new Uint8Array([4, 5, 6])], { type: 'image/png' }), 'image', { name: 'b.png' });
    await vi.waitFor(() => expect((ws.sentJson() as ChatMessage[]).map((m) => [m.fp, m.type, m.dataContent])).toContainEqual([next.fp, 101, '/files/b.png']), WAIT);
    expect(errors).toHaveLength(1);
  });
});
