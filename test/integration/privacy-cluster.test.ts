/**
 * Visitor privacy on PostgreSQL (issue 22): two server nodes on one fresh database, one Redis and
 * one shared files folder, SDK clients against them.
 *
 * - the export (through node B) holds everything a visitor left on node A; the delete (through
 *   node B) leaves no row naming it in any text column of any table and no file, and closes the
 *   visitor's socket on node A (4004, told through Redis);
 * - retention runs once per period across the two nodes: both check the same period at the same
 *   moment, exactly one claims and deletes, the other deletes nothing; the next period finds
 *   nothing left (the time it takes is printed).
 *
 * Without PostgreSQL or Redis the tests say why and skip; under CI (`CI` set) that is a failure.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUnavailable, skipUnlessCi, TEST_REDIS_URL } from '../../examples/server/test/helpers/prerequisites.js';
import { removeDir, startServer, tempDir } from '../../examples/server/test/helpers/start.js';
import { PG_ADMIN_URL } from './cluster-harness.js';
import { clientsPerTest, waitUntil, type TestServer } from './harness.js';
import {
  ADMIN_TOKEN,
  adminCall,
  expectExportHoldsEverything,
  pgRowsNaming,
  seedOldConversations,
  storedName,
  testAddress,
  visitorWithEverything,
} from './privacy-helpers.js';

/** Why PostgreSQL and Redis cannot be used here, or null. */
async function missing(): Promise<string | null> {
  const reasons: string[] = [];
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    reasons.push(`PostgreSQL does not answer at ${PG_ADMIN_URL} (${(error as Error).message})`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = await redisUnavailable();
  if (redis !== null) reasons.push(redis);
  return reasons.length === 0 ? null : reasons.join('; ');
}

const skip = skipUnlessCi('privacy-cluster', await missing());
const DAY = 86_400_000;

async function onAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

describe.skipIf(skip)('privacy on PostgreSQL: two nodes, one database, one Redis', () => {
  const database = `kefu_privacy_${process.pid}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
  const work = tempDir();
  const filesDir = join(work, 'shared-files');
  const clients = clientsPerTest();
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    await onAdmin(`CREATE DATABASE ${database}`);
    mkdirSync(filesDir, { recursive: true });
    const env = (node: string): Record<string, string> => ({
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      CLUSTER_NAME: database, // a cluster of its own: other test files' nodes share the Redis
      NODE_ID: node,
      FILES_DIR: filesDir,
      ADMIN_TOKEN,
      TRUST_PROXY: '127.0.0.1',
      RATE_SOCKET_MAX: '100',
    });
    a = await startServer({ memoryDb: false, dataDir: join(work, 'a') }, env('a'));
    b = await startServer({ memoryDb: false, dataDir: join(work, 'b') }, env('b'));
  }, 60_000);
  afterAll(async () => {
    clients.destroyAll();
    await a?.close();
    await b?.close();
    expect([...(a?.errors ?? []), ...(b?.errors ?? [])]).toEqual([]);
    await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    removeDir(work);
  });

  it('the export through node B holds everything the visitor left on node A; the delete through B leaves nothing and closes its socket on A', async () => {
    const trail = await visitorWithEverything(clients, a);
    const address = testAddress();
    const exported = await adminCall(b, 'GET', `visitors/${trail.clientId}`, { address });
    expect(exported.status).toBe(200);
    expectExportHoldsEverything(exported.body.data, trail);
    const before = await pgRowsNaming(databaseUrl, trail.clientId);
    for (const where of ['visitors.client_id', 'key_sessions.bound_to', 'sessions.client_id', 'messages.client_id', 'complaints.client_id', 'leave_messages.client_id', 'uploads.client_key', 'uploaded_files.owner', 'conversation_seq.conv']) {
      expect(before[where], where).toBeGreaterThan(0);
    }
    const names = Object.values(trail.files).map((f) => storedName(f.url));
    for (const name of names) expect(existsSync(join(filesDir, name)), name).toBe(true);

    const deleted = await adminCall(b, 'DELETE', `visitors/${trail.clientId}`, { address });
    expect(deleted.body.data).toMatchObject({ found: true, files: { deleted: 4, kept: 0 }, socketsClosed: 0 }); // none on B
    await waitUntil(() => expect(trail.closeCodes).toContain(4004)); // A closed it when told through Redis
    expect(await pgRowsNaming(databaseUrl, trail.clientId)).toEqual({});
    for (const name of names) expect(existsSync(join(filesDir, name)), name).toBe(false);
    expect(existsSync(`${filesDir}-parts/${trail.unfinishedUploadId}`)).toBe(false);
    await waitUntil(() => expect(trail.visitor.client.clientId).not.toBe(trail.clientId), 10_000);
    await waitUntil(() => expect(trail.visitor.client.connectionState).toBe('open'), 10_000);
    expect(await pgRowsNaming(databaseUrl, trail.clientId)).toEqual({});
  });

  it('retention: both nodes check one period at the same moment; exactly one deletes, once', async () => {
    const seeding = performance.now();
    const old = await seedOldConversations(a.store, filesDir, { visitors: 20, messages: 100 }, Date.now() - 40 * DAY);
    console.log(`[retention] PostgreSQL: seeded ${old.messages} old messages in ${(performance.now() - seeding).toFixed(0)} ms`);
    // two periods ahead: no automatic check (at the start, then hourly) can have claimed it
    const now = Date.now() + 2 * 3_600_000;
    const recentId = `recent-${randomUUID()}`;
    await a.store.chat.saveVisitor({ clientId: recentId, name: 'New', avatar: '', language: 'en', blacklisted: false, banned: false, createdAt: Date.now(), lastSeen: Date.now() });
    await b.retention.set(30); // in the store: node A reads it too
    expect(await a.retention.setting()).toEqual({ days: 30, source: 'store' });
    try {
      const [fromA, fromB] = await Promise.all([a.retention.runOnce(now), b.retention.runOnce(now)]);
      const ran = [fromA, fromB].filter((o) => o.ran);
      expect(ran).toHaveLength(1);
      expect([fromA, fromB].filter((o) => !o.ran)).toEqual([expect.objectContaining({ ran: false, reason: 'claimed' })]);
      const run = ran[0];
      if (!run?.ran) return;
      console.log(`[retention] PostgreSQL, 2 nodes: ${old.messages} messages of ${old.clientIds.length} visitors and ${old.files.length} files deleted once in ${run.ms.toFixed(0)} ms (${JSON.stringify(run.deleted)})`);
      expect(run.deleted).toMatchObject({ messages: old.messages, sessions: 20, complaints: 20, leave_messages: 20, uploaded_files: 20, files: old.files.length });
      for (const file of old.files) expect(existsSync(join(filesDir, file)), file).toBe(false);
      for (const id of old.clientIds.slice(0, 3)) {
        expect(Object.keys(await pgRowsNaming(databaseUrl, id)).sort()).toEqual(['conversation_seq.conv', 'visitors.client_id']);
      }
      expect(await a.store.chat.visitor(recentId)).toBeDefined();
      // the cluster's record: one run for the period, by the node that claimed it
      const runs = await b.retention.runs(5);
      expect(runs.filter((r) => r.period === run.period)).toEqual([expect.objectContaining({ node: fromA.ran ? 'a' : 'b', finishedAt: expect.any(Number) })]);
      // the next period: one node runs again and finds nothing older left
      const next = now + 3_600_000;
      const again = await Promise.all([a.retention.runOnce(next), b.retention.runOnce(next)]);
      expect(again.filter((o) => o.ran)).toEqual([expect.objectContaining({ ran: true, deleted: {} })]);
    } finally {
      await a.retention.set('default');
    }
  }, 90_000);
});
