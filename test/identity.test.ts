/**
 * The visitor identity of protocol §3a in ImClient, with injected transports and fake timers:
 * the welcome's secret is kept beside the uuid and sent on every later connect; a 4004 starts a
 * new identity once (notice, old conversation dropped, no retry of the refused id); a second
 * 4004 is an error state, not a loop; a server that sends no secret changes nothing.
 */
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImClient, memoryStorage, type ImClientOptions, type Notice } from '../src/index.js';
import { CloseCode } from '../src/codes.js';
import { MERGED_FOLLOW_WAIT } from '../src/identity.js';
import { FakeNetwork, FakeWebSocket } from '../src/socket/test-utils.js';
import { createFakePermit, gcmDecryptNode, makeSocketKey } from './helpers/fake-permit.js';

const require = createRequire(import.meta.url);
const JSEncrypt = require('jsencrypt') as new () => { setPrivateKey(k: string): void; decrypt(s: string): string | false };
const keys = makeSocketKey();

/** The `{ d, u }` of a socket's connect URL (protocol §3), decrypted like the server does. */
function connectPayload(ws: FakeWebSocket): { d: Record<string, unknown>; u: string } {
  const url = new URL(ws.url);
  const { A, B } = JSON.parse(Buffer.from(url.searchParams.get('params')!, 'base64').toString('utf8')) as { A: string; B: string };
  const rsa = new JSEncrypt();
  rsa.setPrivateKey(keys.privatePem);
  const K = Buffer.from(rsa.decrypt(B) as string, 'base64');
  return JSON.parse(gcmDecryptNode(K, A)) as { d: Record<string, unknown>; u: string };
}

function welcome(to: string, secret?: string): string {
  return JSON.stringify({ type: 60, to, sm: 1_700_000_000_000, dataContent: JSON.stringify({ role: 'visitor', userId: to, ...(secret ? { clientSecret: secret } : {}) }) });
}

function setup(options: Partial<ImClientOptions> = {}, permit = createFakePermit()) {
  const storage = options.storage ?? memoryStorage();
  const client = new ImClient({
    baseUrl: 'http://im.test',
    socketUrl: 'ws://im.test/ws',
    socketKey: keys.socketKey,
    connectData: { mchId: 7, platformId: 9 },
    fetch: permit.fetch,
    WebSocket: FakeWebSocket,
    window: new FakeNetwork(),
    document: null,
    limits: { reconnectDelay: 1000 },
    ...options,
    storage,
  });
  const notices: Notice[] = [];
  const errors: { error: Error; source: string }[] = [];
  client.on('notice', (n) => notices.push(n));
  client.on('error', (e) => errors.push(e));
  return { client, storage, notices, errors };
}

/** Waits until socket number `n` (1-based) exists. */
async function socketNumber(n: number): Promise<FakeWebSocket> {
  await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThanOrEqual(n));
  return FakeWebSocket.instances[n - 1]!;
}

beforeEach(() => {
  FakeWebSocket.reset();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('protocol §3a.1-2: the secret of the first welcome is kept beside the uuid and sent on every later connect', () => {
  it('persists the secret under `clientSecret` and sends it as d.clientSecret after a reconnect and after a restart', async () => {
    const { client, storage } = setup();
    client.connect();
    const ws1 = await socketNumber(1);
    expect(connectPayload(ws1).d).toEqual({ mchId: 7, platformId: 9 }); // nothing held yet
    ws1.open();
    ws1.receive(welcome(client.clientId, 'the-secret'));
    expect(storage.getItem('clientSecret')).toBe('the-secret');
    expect(client.state.getState().clientSecret).toBe('the-secret');

    ws1.serverClose(1006, 'gone');
    await vi.advanceTimersByTimeAsync(1000);
    const ws2 = await socketNumber(2);
    expect(connectPayload(ws2)).toMatchObject({ u: client.clientId, d: { mchId: 7, platformId: 9, clientSecret: 'the-secret' } });
    const id = client.clientId;
    client.destroy();

    // a new page load with the same storage: same uuid, same secret on its first connect
    const again = setup({ storage });
    expect(again.client.clientId).toBe(id);
    again.client.connect();
    const ws3 = await socketNumber(3);
    expect(connectPayload(ws3)).toMatchObject({ u: id, d: { clientSecret: 'the-secret' } });
    again.client.destroy();
  });

  it('an agent\'s connect data never carries the visitor secret', async () => {
    const storage = memoryStorage();
    storage.setItem('uuid', 'u-1');
    storage.setItem('clientSecret', 'visitor-secret');
    const { client } = setup({ storage, connectData: { role: 'agent', account: 'a', password: 'p' } });
    client.connect();
    expect(connectPayload(await socketNumber(1)).d).toEqual({ role: 'agent', account: 'a', password: 'p' });
    client.destroy();
  });
});

describe('protocol §3a.6: a server that sends no secret changes nothing', () => {
  it('no clientSecret in storage and none in d, across reconnects', async () => {
    const { client, storage } = setup();
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.receive(JSON.stringify({ type: 60, to: client.clientId, sm: 1 })); // an old server's welcome
    ws1.receive(welcome(client.clientId)); // or one with data but no secret
    ws1.serverClose(1006, 'gone');
    await vi.advanceTimersByTimeAsync(1000);
    const ws2 = await socketNumber(2);
    expect(connectPayload(ws2).d).toEqual({ mchId: 7, platformId: 9 });
    expect(storage.getItem('clientSecret')).toBeNull();
    expect(client.state.getState().clientSecret).toBeNull();
    client.destroy();
  });
});

describe('protocol §3a.2: 4004 starts a new identity, once', () => {
  it('forgets uuid and secret, makes a new uuid, tells the user, drops the old conversation and connects as a new visitor at once', async () => {
    const storage = memoryStorage();
    storage.setItem('uuid', 'old-id');
    storage.setItem('clientSecret', 'stale-secret');
    const { client, notices } = setup({ storage });
    client.connect();
    const ws1 = await socketNumber(1);
    expect(connectPayload(ws1)).toMatchObject({ u: 'old-id', d: { clientSecret: 'stale-secret' } });
    ws1.open();
    ws1.serverClose(CloseCode.IdentityRefused, 'identity refused');

    expect(client.clientId).not.toBe('old-id');
    expect(storage.getItem('uuid')).toBe(client.clientId);
    expect(storage.getItem('clientSecret')).toBeNull();
    expect(notices.map((n) => n.key)).toContain('identityReset');
    expect(notices.find((n) => n.key === 'identityReset')?.text).toBe('您之前的对话在此设备上不可用。');

    await vi.advanceTimersByTimeAsync(0);
    const ws2 = await socketNumber(2);
    const second = connectPayload(ws2);
    expect(second.u).toBe(client.clientId);
    expect(second.d).toEqual({ mchId: 7, platformId: 9 }); // no secret for the new id
    ws2.open();
    ws2.receive(welcome(client.clientId, 'new-secret'));
    expect(storage.getItem('clientSecret')).toBe('new-secret');
    // the refused id is never tried again
    expect(FakeWebSocket.instances.map((ws) => connectPayload(ws).u).filter((u) => u === 'old-id')).toHaveLength(1);
    client.destroy();
  });

  it('the messages of the old identity leave the visible conversation', async () => {
    const { client } = setup();
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.receive(welcome(client.clientId, 's'));
    ws1.receive(JSON.stringify({ type: 100, fp: 'old-1', from: 'agent:a', to: client.clientId, dataContent: 'about your order', createTime: 5 }));
    client.sendText('pending as the old identity');
    expect(client.messages.size).toBe(2);
    ws1.serverClose(1006, 'gone');
    await vi.advanceTimersByTimeAsync(1000);
    const ws2 = await socketNumber(2);
    ws2.open();
    ws2.serverClose(CloseCode.IdentityRefused, 'identity refused');
    expect(client.messages.size).toBe(0);
    expect(client.userId).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    const ws3 = await socketNumber(3);
    ws3.open();
    // the old identity's pending message is not sent as the new visitor
    expect(ws3.sent.some((frame) => frame.includes('pending as the old identity'))).toBe(false);
    client.destroy();
  });

  it('a second 4004 right after the fresh identity is an error state, not a loop', async () => {
    const { client, errors, notices } = setup();
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.serverClose(CloseCode.IdentityRefused, 'identity refused');
    await vi.advanceTimersByTimeAsync(0);
    const ws2 = await socketNumber(2);
    ws2.open();
    ws2.serverClose(CloseCode.IdentityRefused, 'identity refused');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(client.connectionState).toBe('failed');
    expect(errors.map((e) => e.source)).toContain('connect');
    expect(notices.filter((n) => n.key === 'identityReset')).toHaveLength(1);
    client.destroy();
  });

  it('adopts the secret another tab stored for the same id instead of giving the id up', async () => {
    const storage = memoryStorage();
    storage.setItem('uuid', 'shared-id');
    const { client, notices } = setup({ storage });
    client.connect();
    const ws1 = await socketNumber(1);
    expect(connectPayload(ws1).d).not.toHaveProperty('clientSecret');
    // meanwhile the first tab claimed the id and stored the secret
    storage.setItem('clientSecret', 'claimed-by-tab-1');
    ws1.open();
    ws1.serverClose(CloseCode.IdentityRefused, 'identity refused');
    expect(client.clientId).toBe('shared-id');
    expect(notices.map((n) => n.key)).not.toContain('identityReset');
    await vi.advanceTimersByTimeAsync(0);
    expect(connectPayload(await socketNumber(2))).toMatchObject({ u: 'shared-id', d: { clientSecret: 'claimed-by-tab-1' } });
    client.destroy();
  });

  it('refused after another tab of this storage already replaced the id: takes that id and its secret, no third identity', async () => {
    const storage = memoryStorage();
    storage.setItem('uuid', 'vm-member-without-token');
    const { client, notices } = setup({ storage });
    const changes: unknown[] = [];
    client.on('identity', (c) => changes.push(c));
    client.connect();
    const ws1 = await socketNumber(1);
    // the other tab's 4004 came first: it stored a new id (and, welcomed, its secret)
    storage.setItem('uuid', 'fresh-of-tab-1');
    storage.setItem('clientSecret', 'secret-of-tab-1');
    ws1.open();
    ws1.serverClose(CloseCode.IdentityRefused, 'identity refused');
    expect(client.clientId).toBe('fresh-of-tab-1');
    expect(storage.getItem('uuid')).toBe('fresh-of-tab-1');
    expect(changes).toEqual([{ change: 'refused', clientId: 'fresh-of-tab-1' }]);
    expect(notices.map((n) => n.key)).toContain('identityReset');
    await vi.advanceTimersByTimeAsync(0);
    expect(connectPayload(await socketNumber(2))).toMatchObject({ u: 'fresh-of-tab-1', d: { clientSecret: 'secret-of-tab-1' } });
    client.destroy();
  });

  it('merged by another tab that logged in (4004 merged, another id stored): no new id, no retry, no error; it waits to follow that tab', async () => {
    const storage = memoryStorage();
    storage.setItem('uuid', 'anonymous-id');
    const { client, notices, errors } = setup({ storage });
    const changes: unknown[] = [];
    client.on('identity', (c) => changes.push(c));
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.receive(welcome('anonymous-id'));
    // another tab of this storage logged in: the server merged the id into the member's
    storage.setItem('uuid', 'vm-member');
    ws1.serverClose(CloseCode.IdentityRefused, 'merged');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(client.clientId).toBe('anonymous-id');
    expect(storage.getItem('uuid')).toBe('vm-member');
    expect(notices.map((n) => n.key)).not.toContain('identityReset');
    expect(changes).toEqual([]);
    expect(errors).toEqual([]);
    client.destroy();
  });

  it('merged, and no tab says to follow within MERGED_FOLLOW_WAIT: a new identity after all, told as identity change refused', async () => {
    const storage = memoryStorage();
    storage.setItem('uuid', 'anonymous-id');
    const { client } = setup({ storage });
    const changes: unknown[] = [];
    client.on('identity', (c) => changes.push(c));
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.receive(welcome('anonymous-id'));
    ws1.serverClose(CloseCode.IdentityRefused, 'merged');
    await vi.advanceTimersByTimeAsync(MERGED_FOLLOW_WAIT - 100);
    expect(client.clientId).toBe('anonymous-id');
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    const fresh = client.clientId;
    expect(fresh).not.toBe('anonymous-id');
    expect(changes).toEqual([{ change: 'refused', clientId: fresh }]);
    expect(connectPayload(await socketNumber(2)).u).toBe(fresh);
    client.destroy();
  });
});

describe('protocol §3a.3: history waits for the welcome while a connect is under way', () => {
  it('loadOlder during the connect asks findMsgForCus only once the welcome bound the key session', async () => {
    const history = vi.fn(() => ({ code: 0, message: 'ok', data: { list: [], hasMore: false } }));
    const { client } = setup({}, createFakePermit({ routes: { '/im/api/permit/findMsgForCus': history } }));
    client.connect();
    const ws = await socketNumber(1);
    ws.open();
    const page = client.loadOlder(20);
    await vi.advanceTimersByTimeAsync(100);
    expect(history).not.toHaveBeenCalled();
    ws.receive(welcome(client.clientId, 's'));
    await expect(page).resolves.toEqual({ list: [], hasMore: false });
    expect(history).toHaveBeenCalledTimes(1);
    // bound now: the next page goes at once
    await client.loadOlder(20);
    expect(history).toHaveBeenCalledTimes(2);
    client.destroy();
  });
});
