/**
 * A suite that must hold on one node and across a cluster, run both ways: once on one node on
 * SQLite, once on two nodes sharing one PostgreSQL database and one Redis. The second part skips
 * with the reason printed when either service does not answer, except under CI, where that fails.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { freshDatabase, postgresUnavailable, type TestDatabase } from './pg-database.js';
import { redisUnavailable, skipUnlessCi, TEST_REDIS_URL } from './prerequisites.js';
import { removeDir, startServer, type StartedServer } from './start.js';

/** How the nodes are started and stopped. */
export interface NodesOptions {
  /** The title of both parts (`<title>: one node on SQLite`, `<title>: two nodes on PostgreSQL + Redis`). */
  title: string;
  /** The prefix of the fresh PostgreSQL database's name. */
  database: string;
  /** Environment for every node. */
  env?: Record<string, string>;
  /** Run before the nodes close (the clients' teardown). */
  beforeClose?: () => void;
}

/**
 * Declares the suite twice. `nodes()` gives the part's two nodes: the same node twice on SQLite,
 * nodes `a` and `b` on the cluster. After each part, no node reported an unexpected error.
 * @param options - titles, database name, environment
 * @param suite - declares the tests (called once per part, at collection time)
 */
export async function onOneNodeAndTwo(options: NodesOptions, suite: (nodes: () => [StartedServer, StartedServer]) => void): Promise<void> {
  const env = options.env ?? {};
  /**
   * Closes the part's nodes, removes their files and drops the database, whatever happens; then
   * fails if a node reported an unexpected error (each one's `close` says which).
   */
  const stop = async (nodes: (StartedServer | undefined)[], database?: TestDatabase): Promise<void> => {
    options.beforeClose?.();
    const started = [...new Set(nodes)].filter((node): node is StartedServer => node !== undefined);
    const closed = await Promise.allSettled(started.map((node) => node.close()));
    for (const node of started) removeDir(node.dataDir);
    await database?.drop();
    for (const outcome of closed) if (outcome.status === 'rejected') throw outcome.reason;
  };

  describe(`${options.title}: one node on SQLite`, () => {
    let server: StartedServer | undefined;
    beforeAll(async () => {
      server = await startServer({}, env);
    });
    afterAll(() => stop([server]));
    suite(() => [server as StartedServer, server as StartedServer]);
  });

  const missing = [await postgresUnavailable(), await redisUnavailable()].filter((m) => m !== null).join('; ');
  const skip = skipUnlessCi(`${options.title} on two nodes`, missing === '' ? null : missing);
  describe.skipIf(skip)(`${options.title}: two nodes on PostgreSQL + Redis`, () => {
    let a: StartedServer | undefined;
    let b: StartedServer | undefined;
    let database: TestDatabase | undefined;
    beforeAll(async () => {
      database = await freshDatabase(options.database);
      const cluster = { ...env, DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, CLUSTER_NAME: `${options.database}-${randomUUID()}` };
      a = await startServer({ memoryDb: false }, { ...cluster, NODE_ID: 'a' });
      b = await startServer({ memoryDb: false }, { ...cluster, NODE_ID: 'b' });
    });
    afterAll(() => stop([a, b], database));
    suite(() => [a as StartedServer, b as StartedServer]);
  });
}
