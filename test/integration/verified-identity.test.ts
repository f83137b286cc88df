/**
 * Verified identity (protocol §3b), the SDK against the real reference server on loopback, on
 * SQLite and on PostgreSQL + Redis: an anonymous visitor that logs in (`identify()`) keeps its
 * conversation, and the same member on a second device (separate storage, `getIdentityToken`)
 * sees one conversation with the whole history; a foreign merchant's token is refused once more
 * and then shown, never looped; `reset()` leaves nothing of the member on the device (storage and
 * IndexedDB checked) and the next visitor on that device cannot read the member's history.
 * Tokens are signed with `jose` the way a merchant's backend does (the server's helper).
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresUnavailable, type TestDatabase } from '../../examples/server/test/helpers/pg-database.js';
import { redisUnavailable, skipUnlessCi, TEST_REDIS_URL } from '../../examples/server/test/helpers/prerequisites.js';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { ApiError, memoryStorage, type StorageLike } from '../../src/index.js';
import { indexedDbOutboxStorage } from '../../src/outbox/storage.js';
import { clientsPerTest, DEMO, DEMO_VISITOR, open, recordingWebSocket, waitUntil, type TestServer } from './harness.js';
import { leaveMemberTraces, memberEnv, memberToken } from './member.js';

const OTHER_SECRET = 'another-merchant-secret-for-the-sdk-tests-01234';
const ENV = memberEnv(`M2002:${OTHER_SECRET}`);
const connectData = { ...DEMO_VISITOR, language: 'en' };

const pgSkip = skipUnlessCi('SDK verified identity on PostgreSQL', (await postgresUnavailable()) ?? (await redisUnavailable()));

/** A token as the merchant's backend signs it. */
const tokenFor = memberToken;

/** What a storage holds under the keys that could name the member. */
function keysOf(storage: StorageLike, known: string[]): Record<string, string | null> {
  return Object.fromEntries(known.map((k) => [k, storage.getItem(k)]));
}

function suite(kind: 'sqlite' | 'postgres'): void {
  let server: TestServer;
  let db: TestDatabase | undefined;
  const clients = clientsPerTest();

  beforeAll(async () => {
    const env: Record<string, string> = { ...ENV };
    if (kind === 'postgres') {
      db = await freshDatabase('sdk_verified_identity');
      Object.assign(env, { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, CLUSTER_NAME: `test-${randomUUID()}` });
    }
    server = await startServer(kind === 'postgres' ? { memoryDb: false } : {}, env);
  });
  afterAll(async () => {
    await server?.close();
    if (server) removeDir(server.dataDir);
    await db?.drop();
    expect(server.errors).toEqual([]);
  });

  it('an anonymous visitor logs in (identify) and keeps its conversation; the member on a second device sees the whole history', async () => {
    const sub = `member-${randomUUID()}`;
    const laptop = clients.make(server, { connectData, storage: memoryStorage() });
    await open(laptop);
    const anonymous = laptop.client.clientId;
    const before = laptop.client.sendText('asked before logging in');
    await waitUntil(() => expect(laptop.client.messages.get(before.fp!)?.sendState).toBe('sent'));

    await laptop.client.identify(await tokenFor(sub));
    const memberId = laptop.client.userId!;
    expect(memberId).toMatch(/^vm-/);
    expect(memberId).not.toBe(anonymous);
    expect(laptop.client.clientId).toBe(memberId);
    expect(laptop.client.connectionStore.getState()).toMatchObject({ verified: true, userId: memberId });
    // the anonymous conversation is kept (merged into the member's) and loaded again
    await waitUntil(() => expect(laptop.client.messages.getSnapshot().map((m) => m.dataContent)).toContain('asked before logging in'));
    const after = laptop.client.sendText('said after logging in');
    await waitUntil(() => expect(laptop.client.messages.get(after.fp!)?.sendState).toBe('sent'));

    // a second device: its own storage, the token from the start
    const phone = clients.make(server, { connectData, storage: memoryStorage(), getIdentityToken: () => tokenFor(sub) });
    await open(phone);
    expect(phone.client.userId).toBe(memberId);
    expect(phone.client.connectionStore.getState().verified).toBe(true);
    const page = await phone.client.loadOlder(50);
    expect(page.list.map((m) => m.dataContent)).toEqual(expect.arrayContaining(['asked before logging in', 'said after logging in']));
    const fromPhone = phone.client.sendText('and from the phone');
    await waitUntil(() => expect(phone.client.messages.get(fromPhone.fp!)?.sendState).toBe('sent'));
    // the laptop hears it live: one conversation
    await waitUntil(() => expect(laptop.client.messages.getSnapshot().map((m) => m.dataContent)).toContain('and from the phone'));
    expect([...laptop.errors, ...phone.errors]).toEqual([]);
  });

  it("attacker: another merchant's token is refused (4006), asked again once, then shown, never looped; nothing is bound", async () => {
    const { closeCodes, WebSocket } = recordingWebSocket();
    let asked = 0;
    const refusals: { reason: string; retrying: boolean }[] = [];
    const visitor = clients.make(server, {
      connectData,
      WebSocket,
      getIdentityToken: () => {
        asked += 1;
        return tokenFor('victim', 'M2002', OTHER_SECRET);
      },
    });
    visitor.client.on('identity token refused', (r) => refusals.push(r));
    await visitor.client.start();
    visitor.client.connect();
    await waitUntil(() => expect(visitor.client.connectionStore.getState().haltReason).toBe('identity-token-refused'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closeCodes).toEqual([4006, 4006]);
    expect(asked).toBe(2);
    expect(refusals).toEqual([
      { reason: 'merchant', retrying: true },
      { reason: 'merchant', retrying: false },
    ]);
    expect(visitor.client.userId).toBeUndefined();
  });

  it('reset() leaves nothing of the member on the device, and the next visitor cannot read its history', async () => {
    const sub = `member-${randomUUID()}`;
    const storage = memoryStorage();
    const outboxStorage = indexedDbOutboxStorage(`sdk-verified-${randomUUID()}`);
    const member = clients.make(server, { connectData, storage, outboxStorage, getIdentityToken: () => tokenFor(sub) });
    await open(member);
    const { memberId, scope } = await leaveMemberTraces(member.client, outboxStorage);
    expect(member.client.clientId).toBe(memberId);

    await member.client.reset();
    const next = member.client;
    expect(next.clientId).not.toBe(memberId);
    expect(keysOf(storage, ['uuid', 'clientSecret', `kefu-im:drafts:${scope}`])).toEqual({ uuid: next.clientId, clientSecret: null, [`kefu-im:drafts:${scope}`]: null });
    expect(await outboxStorage.load(scope)).toEqual([]);
    expect(next.messages.getSnapshot()).toEqual([]);

    next.connect();
    await waitUntil(() => {
      expect(next.connectionStore.getState().welcomed).toBe(true);
      expect(next.userId).toBe(next.clientId);
    });
    expect(next.connectionStore.getState().verified).toBe(false);
    const fresh = (await next.loadOlder(50)).list;
    expect(fresh.map((m) => m.dataContent)).not.toContain('my card ends in 4242');
    expect(fresh.filter((m) => m.from === memberId || m.to === memberId)).toEqual([]);
    // asking for the member's history by its id is forbidden (protocol §3a.3)
    const stolen = next.api.findMsgForCus({ clientId: memberId, mchId: DEMO.mchId, platformId: DEMO.platformId, size: 50 });
    await expect(stolen).rejects.toBeInstanceOf(ApiError);
    await expect(stolen).rejects.toMatchObject({ code: 4003 });
  });
}

describe('SDK verified identity on SQLite', () => suite('sqlite'));
describe.skipIf(pgSkip)('SDK verified identity on PostgreSQL + Redis', () => suite('postgres'));
