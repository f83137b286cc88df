/**
 * Verified identity (protocol §3b) in ImClient, with injected transports and fake timers: the
 * `getIdentityToken` answer travels as `d.identityToken`; it is asked again before its `exp`; a
 * 4006 asks once more and reconnects, a second 4006 in a row halts and is told (never a loop);
 * the welcome's `to` becomes the user id and `verified` shows in the snapshot; `identify()`
 * switches a running client; `reset()` forgets the member on the device (drafts, secret, the
 * IndexedDB outbox) and starts over with a new client id.
 */
import 'fake-indexeddb/auto';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImClient, memoryStorage, type ImClientOptions } from '../src/index.js';
import { CloseCode } from '../src/codes.js';
import { FakeNetwork, FakeWebSocket } from '../src/socket/test-utils.js';
import { indexedDbOutboxStorage } from '../src/outbox/storage.js';
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

/** A JWT-shaped token (the SDK reads `exp`, it never verifies: the signature part is a dummy). */
function jwt(sub: string, expSeconds: number): string {
  const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ mch: '7', sub, iat: Math.floor(Date.now() / 1000), exp: expSeconds })}.c2lnbmF0dXJl`;
}

function welcome(to: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 60, to, sm: Date.now(), dataContent: JSON.stringify({ role: 'visitor', userId: to, ...extra }) });
}

function setup(options: Partial<ImClientOptions> = {}) {
  const storage = options.storage ?? memoryStorage();
  const client = new ImClient({
    baseUrl: 'http://im.test',
    socketUrl: 'ws://im.test/ws',
    socketKey: keys.socketKey,
    connectData: { mchId: 7, platformId: 9 },
    fetch: createFakePermit().fetch,
    WebSocket: FakeWebSocket,
    window: new FakeNetwork(),
    document: null,
    limits: { reconnectDelay: 1000 },
    tabs: false,
    ...options,
    storage,
  });
  const refusals: { reason: string; retrying: boolean }[] = [];
  client.on('identity token refused', (r) => refusals.push(r));
  return { client, storage, refusals };
}

async function socketNumber(n: number): Promise<FakeWebSocket> {
  await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThanOrEqual(n), { timeout: 5_000, interval: 10 });
  return FakeWebSocket.instances[n - 1]!;
}

const inAnHour = (): number => Math.floor(Date.now() / 1000) + 3600;

beforeEach(() => {
  FakeWebSocket.reset();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('protocol §3b.2: the token of getIdentityToken travels as d.identityToken; the welcome binds the member', () => {
  it('asks before the connect, sends the token, adopts `to` as the user id and shows verified', async () => {
    const token = jwt('member-1', inAnHour());
    const getIdentityToken = vi.fn(async () => token);
    const { client } = setup({ getIdentityToken });
    client.connect();
    const ws = await socketNumber(1);
    expect(getIdentityToken).toHaveBeenCalledTimes(1);
    expect(connectPayload(ws).d).toEqual({ mchId: 7, platformId: 9, identityToken: token });
    ws.open();
    ws.receive(welcome('m-7-member-1', { verified: true }));
    expect(client.userId).toBe('m-7-member-1');
    expect(client.connectionStore.getState()).toMatchObject({ userId: 'm-7-member-1', verified: true });
    client.destroy();
  });

  it('null from the source connects as an anonymous visitor (no identityToken, not verified)', async () => {
    const { client } = setup({ getIdentityToken: async () => null });
    client.connect();
    const ws = await socketNumber(1);
    expect(connectPayload(ws).d).toEqual({ mchId: 7, platformId: 9 });
    ws.open();
    ws.receive(welcome(client.clientId));
    expect(client.connectionStore.getState().verified).toBe(false);
    client.destroy();
  });

  it('a source that rejects fails the attempt (reported), and the next attempt asks again', async () => {
    let calls = 0;
    const token = jwt('member-1', inAnHour());
    const { client } = setup({ getIdentityToken: async () => (++calls === 1 ? Promise.reject(new Error('shop backend down')) : token) });
    const errors: string[] = [];
    client.on('error', ({ error }) => errors.push(error.message));
    client.connect();
    await vi.waitFor(() => expect(errors).toContain('shop backend down'));
    expect(FakeWebSocket.instances).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    const ws = await socketNumber(1);
    expect(connectPayload(ws).d.identityToken).toBe(token);
    client.destroy();
  });
});

describe('protocol §3b: the token is asked again before its exp', () => {
  it('refreshes ahead of exp, and a reconnect after exp sends the fresh token without asking again', async () => {
    const first = jwt('member-1', Math.floor(Date.now() / 1000) + 600);
    const second = jwt('member-1', Math.floor(Date.now() / 1000) + 1200);
    const getIdentityToken = vi.fn().mockResolvedValueOnce(first).mockResolvedValueOnce(second);
    const { client } = setup({ getIdentityToken });
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.receive(welcome('m-1', { verified: true }));
    await vi.advanceTimersByTimeAsync(530_000); // before the refresh margin (60 s before exp)
    expect(getIdentityToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000); // 550 s: inside the margin
    expect(getIdentityToken).toHaveBeenCalledTimes(2);
    ws1.serverClose(1006, 'gone');
    await vi.advanceTimersByTimeAsync(1000);
    const ws2 = await socketNumber(2);
    expect(connectPayload(ws2).d.identityToken).toBe(second);
    expect(getIdentityToken).toHaveBeenCalledTimes(2);
    client.destroy();
  });

  it('destroy leaves no refresh timer', async () => {
    const { client } = setup({ getIdentityToken: async () => jwt('member-1', inAnHour()) });
    client.connect();
    const ws = await socketNumber(1);
    ws.open();
    ws.receive(welcome('m-1', { verified: true }));
    client.destroy();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('protocol §3b.3: a refused token is asked again once; a second 4006 in a row is shown, not retried', () => {
  it('4006 then a welcome: one fresh token, reconnected at once', async () => {
    const stale = jwt('member-1', inAnHour());
    const fresh = jwt('member-1', inAnHour() + 1);
    const getIdentityToken = vi.fn().mockResolvedValueOnce(stale).mockResolvedValueOnce(fresh);
    const { client, refusals } = setup({ getIdentityToken });
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.serverClose(CloseCode.IdentityTokenRefused, 'expired');
    const ws2 = await socketNumber(2);
    expect(connectPayload(ws2).d.identityToken).toBe(fresh);
    expect(refusals).toEqual([{ reason: 'expired', retrying: true }]);
    ws2.open();
    ws2.receive(welcome('m-1', { verified: true }));
    expect(client.connectionStore.getState()).toMatchObject({ halted: false, verified: true });
    client.destroy();
  });

  it('4006 twice in a row: halted with identity-token-refused, told once with retrying false, no third socket', async () => {
    const getIdentityToken = vi.fn(async () => jwt('member-1', inAnHour()));
    const { client, refusals } = setup({ getIdentityToken });
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.serverClose(CloseCode.IdentityTokenRefused, 'invalid');
    const ws2 = await socketNumber(2);
    ws2.open();
    ws2.serverClose(CloseCode.IdentityTokenRefused, 'merchant');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(getIdentityToken).toHaveBeenCalledTimes(2);
    expect(refusals).toEqual([
      { reason: 'invalid', retrying: true },
      { reason: 'merchant', retrying: false },
    ]);
    expect(client.connectionStore.getState()).toMatchObject({ halted: true, haltReason: 'identity-token-refused', state: 'failed' });
    // the user acts (logs in again): one more try
    client.reconnect();
    await socketNumber(3);
    client.destroy();
  });

  it('an unknown close reason counts as invalid', async () => {
    const { client, refusals } = setup({ getIdentityToken: async () => jwt('m', inAnHour()) });
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.serverClose(CloseCode.IdentityTokenRefused, '<script>');
    expect(refusals).toEqual([{ reason: 'invalid', retrying: true }]);
    client.destroy();
  });
});

describe('client.identify(): a running anonymous client becomes the member without a reload', () => {
  it('reconnects with the token, keeps the client id, adopts the member id, and loads the member history', async () => {
    const { client } = setup();
    const changes: string[] = [];
    client.on('identity', ({ change }) => changes.push(change));
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    const anonymous = client.clientId;
    ws1.receive(welcome(anonymous, { clientSecret: 'anon-secret' }));
    expect(client.userId).toBe(anonymous);
    const token = jwt('member-1', inAnHour());
    const done = client.identify(token);
    const ws2 = await socketNumber(2);
    expect(ws1.readyState).toBe(3);
    // the anonymous id and its secret travel too: the server merges that conversation (§3b.4)
    expect(connectPayload(ws2)).toMatchObject({ u: anonymous, d: { identityToken: token, clientSecret: 'anon-secret' } });
    ws2.open();
    ws2.receive(welcome('m-7-member-1', { verified: true }));
    await done;
    expect(changes).toEqual(['identify']);
    expect(client.userId).toBe('m-7-member-1');
    // the member's id is the client id from now on (no §3a secret for a member)
    expect(client.clientId).toBe('m-7-member-1');
    expect(client.state.getState().clientSecret).toBeNull();
    expect(client.connectionStore.getState().verified).toBe(true);
    client.destroy();
  });

  it('refuses a blank token with a clear error and changes nothing', async () => {
    const { client } = setup();
    await expect(client.identify('  ')).rejects.toThrow(/identity token/);
    client.destroy();
  });
});

describe('client.reset(): the member logs out; nothing of the member stays on the device', () => {
  it('forgets the token, the secret, the drafts and the IndexedDB outbox, and connects as a new visitor', async () => {
    vi.useRealTimers(); // fake-indexeddb schedules with the real timers
    const outboxStorage = indexedDbOutboxStorage(`reset-test-${Math.random()}`);
    const getIdentityToken = vi.fn(async () => jwt('member-1', inAnHour()));
    const { client, storage } = setup({ getIdentityToken, outboxStorage });
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    ws1.receive(welcome('m-7-member-1', { verified: true }));
    const oldId = client.clientId;
    expect(oldId).toBe('m-7-member-1');
    client.drafts.set('service', 'my address is ...');
    client.disconnect(); // a message written while offline stays in the durable outbox
    client.sendText('pending while offline');
    const scope = `${oldId}|7|9|`;
    await vi.waitFor(async () => expect(await outboxStorage.load(scope)).toHaveLength(1), { timeout: 5_000, interval: 10 });

    await client.reset();
    expect(client.clientId).not.toBe(oldId);
    expect(storage.getItem('uuid')).toBe(client.clientId);
    expect(storage.getItem('clientSecret')).toBeNull();
    expect(client.drafts.get('service')).toBe('');
    expect(storage.getItem(`kefu-im:drafts:${scope}`)).toBeNull();
    expect(await outboxStorage.load(scope)).toEqual([]);
    expect(client.messages.getSnapshot()).toHaveLength(0);
    expect(client.connectionStore.getState()).toMatchObject({ userId: undefined, verified: false });

    client.connect();
    const ws2 = await socketNumber(2);
    const payload = connectPayload(ws2);
    expect(payload.u).toBe(client.clientId);
    expect(payload.d).toEqual({ mchId: 7, platformId: 9 }); // no token, no secret
    client.destroy();
  });

  it('an anonymous visitor that resets forgets its §3a secret and its id', async () => {
    vi.useRealTimers(); // fake-indexeddb schedules with the real timers
    const { client, storage } = setup();
    client.connect();
    const ws1 = await socketNumber(1);
    ws1.open();
    const oldId = client.clientId;
    ws1.receive(welcome(oldId, { clientSecret: 'anon-secret' }));
    expect(storage.getItem('clientSecret')).toBe('anon-secret');
    await client.reset();
    expect(storage.getItem('clientSecret')).toBeNull();
    expect(client.clientId).not.toBe(oldId);
    const ws2 = await socketNumber(2);
    expect(connectPayload(ws2)).toEqual(expect.objectContaining({ u: client.clientId, d: { mchId: 7, platformId: 9 } }));
    client.destroy();
  });
});
