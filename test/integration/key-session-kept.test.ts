/**
 * An open socket keeps its key session alive (KEY_SESSION_TTL_MS after the last use): a visitor's
 * tab open and quiet for longer than the TTL, its socket up, still makes its HTTP calls. A key
 * session with no socket expires as before (1002). SDK against the real reference server.
 */
import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/codes.js';
import { ApiError } from '../../src/index.js';
import { clientsPerTest, connectedVisitor, DEMO, sharedServer, type TestServer } from './harness.js';

let server: TestServer;
const TTL_MS = 2_000;
sharedServer((s) => (server = s), { env: { KEY_SESSION_TTL_MS: String(TTL_MS) } });
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
});
