/**
 * Key sessions and sockets, SDK against the real reference server: an open socket keeps its key
 * session alive (KEY_SESSION_TTL_MS after the last use), so a tab open and quiet for longer than
 * the TTL still makes its HTTP calls; a key session with no socket expires (1002), an unbound one
 * sooner (KEY_SESSION_UNBOUND_TTL_MS); a page that connects long after its start-up is refused
 * once (4001) and connects again at once with a new key session.
 */
import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/codes.js';
import { ApiError } from '../../src/index.js';
import { clientsPerTest, connectedVisitor, DEMO, DEMO_VISITOR, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;
const TTL_MS = 2_000;
const UNBOUND_TTL_MS = 1_000;
sharedServer((s) => (server = s), { env: { KEY_SESSION_TTL_MS: String(TTL_MS), KEY_SESSION_UNBOUND_TTL_MS: String(UNBOUND_TTL_MS) } });
const clients = clientsPerTest();

describe('key sessions and open sockets', () => {
  it('a connected visitor quiet for longer than the TTL still makes its calls; a session without a socket expires', async () => {
    const visitor = await connectedVisitor(clients, server, { limits: { heartbeatInterval: 200 } });
    const bare = clients.make(server);
    expect((await bare.client.start()).errors).toEqual([]);
    await new Promise((r) => setTimeout(r, TTL_MS * 1.6));
    const query = { mchId: DEMO.mchId, platformId: DEMO.platformId };
    // the connected visitor's session was kept by its socket's heartbeats
    await expect(visitor.client.api.checkPlatform(query)).resolves.toBeDefined();
    await expect(visitor.client.loadOlder()).resolves.toBeDefined();
    // the other one made no call and has no socket: its session expired
    const refused = await bare.client.api.checkPlatform(query).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(ApiErrorCode.BadSalt);
  });

  it('a page that connects long after its start-up: refused once (its key session is gone), it connects again at once with a new one', async () => {
    // a reconnect delay far longer than the test waits: only the at-once retry can open it in time
    const rec = clients.make(server, { connectData: { ...DEMO_VISITOR, language: 'en' }, limits: { reconnectDelay: 30_000 } });
    expect((await rec.client.start()).errors).toEqual([]);
    await new Promise((r) => setTimeout(r, UNBOUND_TTL_MS * 1.5));
    const closes: number[] = [];
    rec.client.connectionStore.subscribe((s) => {
      if (s.lastCloseCode !== null && closes.at(-1) !== s.lastCloseCode) closes.push(s.lastCloseCode);
    });
    rec.client.connect();
    await waitUntil(() => {
      expect(rec.client.connectionState).toBe('open');
      expect(rec.client.userId).toBeDefined();
    }, 10_000);
    expect(closes).toEqual([4001]);
    await expect(rec.client.loadOlder()).resolves.toBeDefined();
  });
});
