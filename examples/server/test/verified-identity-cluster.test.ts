/**
 * Verified identity (protocol §3b) on a two-node cluster (PostgreSQL + Redis): one member on two
 * nodes is one visitor id; an anonymous visitor that logs in on node B while its other tab is open
 * on node A is merged, its key sessions bound as in §3a, and its tab on node A closed with 4004
 * `merged` (through the cluster's channel).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIdentityToken } from '../src/identity/identity-token.js';
import { connectUrl, enc, keyExchange, TestSocket, welcomeSecret, type Msg } from '../../../conformance/src/client/index.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from './helpers/pg-database.js';
import { redisUnavailable, skipUnlessCi, TEST_REDIS_URL } from './helpers/prerequisites.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const skip = skipUnlessCi('verified-identity-cluster', (await postgresUnavailable()) ?? (await redisUnavailable()));
type Server = Awaited<ReturnType<typeof startServer>>;
const where = { mchId: 'M1001', platformId: 'P01' };
const SECRET = 'cluster-merchant-secret-0123456789abcdefghij';

describe.skipIf(skip)('verified identity on two nodes (PostgreSQL + Redis)', () => {
  const dataDir = tempDir();
  let db: TestDatabase;
  let a: Server;
  let b: Server;
  beforeAll(async () => {
    db = await freshDatabase('verified_cluster');
    const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, CLUSTER_NAME: `test-${randomUUID()}`, MERCHANT_SECRETS: `M1001:${SECRET}` };
    a = await startServer({ memoryDb: false, dataDir }, { ...env, NODE_ID: 'a' });
    b = await startServer({ memoryDb: false, dataDir }, { ...env, NODE_ID: 'b' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    removeDir(dataDir);
  });

  const token = (sub: string): Promise<string> => signIdentityToken({ mchId: where.mchId, sub, ttlS: 600 }, SECRET);

  it('the same member on node A and node B is one visitor id', async () => {
    const sub = `two-nodes-${randomUUID()}`;
    const [onA, onB] = await Promise.all([a, b].map(async (node) => {
      const session = await keyExchange(node.url);
      const socket = await TestSocket.open(connectUrl(node.socketUrl, node.socketKey, session.saltKey, randomUUID(), { ...where, identityToken: await token(sub) }), session);
      return { socket, welcome: await socket.next((m) => m.type === 60) };
    }));
    expect(onA?.welcome.to).toBe(onB?.welcome.to);
    await Promise.all([onA?.socket.close(), onB?.socket.close()]);
  });

  it('a login on node B merges the anonymous visitor whose other tab is open on node A; that tab is closed 4004 merged', async () => {
    const anon = randomUUID();
    const sessionA = await keyExchange(a.url);
    const tab = await TestSocket.open(connectUrl(a.socketUrl, a.socketKey, sessionA.saltKey, anon, where), sessionA);
    const secret = welcomeSecret(await tab.next((m) => m.type === 60));
    const fp = tab.say(anon, 100, 'typed on node A before login');
    await tab.next((m) => m.fp === fp);

    const sessionB = await keyExchange(b.url);
    const login = await TestSocket.open(connectUrl(b.socketUrl, b.socketKey, sessionB.saltKey, anon, { ...where, clientSecret: secret, identityToken: await token(`merge-${randomUUID()}`) }), sessionB);
    const memberId = String((await login.next((m) => m.type === 60)).to);
    expect(await tab.closed).toEqual({ code: 4004, reason: 'merged' });
    const history = await enc<{ list: Msg[] }>(b.url, sessionB, 'POST', 'findMsgForCus', { clientId: memberId, ...where, size: 50 });
    expect(history.data.list.map((m) => m.dataContent)).toContain('typed on node A before login');
    // the tab's key session on node A ended with the retired id; the login's speaks for the member only
    expect(await a.store.keys.bySaltKey(sessionA.saltKey)).toBeUndefined();
    expect((await b.store.keys.bySaltKey(sessionB.saltKey))?.boundTo).toBe(memberId);
    expect((await enc(b.url, sessionB, 'POST', 'findMsgForCus', { clientId: anon, ...where })).code).toBe(4003);
    await login.close();
  });
});
