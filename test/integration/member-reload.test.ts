/**
 * A member who identified on this device reloads a page that gives no identity token (the
 * merchant's page passed no `?identity=` this time): the stored client id is the member's `vm-` id,
 * which the server refuses without a token (4004, protocol §3b forged ids). The visitor is not
 * stuck: the client forgets the member on this device as `reset()` does (a new anonymous id, no
 * member data), connects as a new anonymous visitor by itself, emits `identity` with
 * `change: 'refused'`, and never loops. SDK against the real reference server on SQLite.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { memoryStorage } from '../../src/index.js';
import { indexedDbOutboxStorage } from '../../src/outbox/storage.js';
import { clientsPerTest, DEMO, DEMO_VISITOR, open, recordingWebSocket, waitUntil, type TestServer } from './harness.js';
import { leaveMemberTraces, memberEnv, memberToken } from './member.js';

const connectData = { ...DEMO_VISITOR, language: 'en' };

describe('a member reloads a page without an identity token (SQLite)', () => {
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

  it('the client forgets the member on this device and connects as a new anonymous visitor, once', async () => {
    const sub = `member-${randomUUID()}`;
    const storage = memoryStorage();
    const outboxStorage = indexedDbOutboxStorage(`sdk-member-reload-${randomUUID()}`);
    const token = await memberToken(sub);
    const member = clients.make(server, { connectData, storage, outboxStorage, getIdentityToken: () => Promise.resolve(token) });
    await open(member);
    const { memberId, scope } = await leaveMemberTraces(member.client, outboxStorage);
    expect(memberId).toMatch(/^vm-/);
    member.client.destroy();
    expect(storage.getItem('uuid')).toBe(memberId);

    // the reload: same storage, no token this time
    const { closeCodes, WebSocket } = recordingWebSocket();
    const page = clients.make(server, { connectData, storage, outboxStorage, WebSocket });
    const changes: { change: string; clientId: string }[] = [];
    page.client.on('identity', (c) => changes.push(c));
    await page.client.start();
    page.client.connect();
    await waitUntil(() => {
      expect(page.client.connectionStore.getState().welcomed).toBe(true);
      expect(page.client.userId).toBe(page.client.clientId);
    });
    const next = page.client;
    expect(next.clientId).not.toBe(memberId);
    expect(next.clientId).not.toMatch(/^vm-/);
    expect(next.connectionStore.getState()).toMatchObject({ verified: false, state: 'open' });
    expect(closeCodes).toEqual([4004]);
    expect(changes).toEqual([{ change: 'refused', clientId: next.clientId }]);
    // nothing of the member is left on the device
    expect(storage.getItem('uuid')).toBe(next.clientId);
    expect(storage.getItem(`kefu-im:drafts:${scope}`)).toBeNull();
    expect(await outboxStorage.load(scope)).toEqual([]);
    expect(next.messages.getSnapshot().map((m) => m.dataContent)).not.toContain('written while offline');
    const fresh = (await next.loadOlder(50)).list;
    expect(fresh.filter((m) => m.from === memberId || m.to === memberId)).toEqual([]);
    // a new anonymous visitor that keeps working: it sends, and it is not refused again
    const hello = next.sendText('hello as a guest');
    await waitUntil(() => expect(next.messages.get(hello.fp!)?.sendState).toBe('sent'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closeCodes).toEqual([4004]);
    expect(page.errors).toEqual([]);
  });
});
