/**
 * A real cluster for the cluster tests: compiled server nodes on one fresh PostgreSQL database and
 * one Redis, behind HAProxy, all started (and stopped) by the test. Where PostgreSQL, Redis or
 * HAProxy is missing, {@link clusterPrerequisites} says which; under CI that is a failure, since
 * `.ci/run` makes sure all three run.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { redisUnavailable, TEST_REDIS_URL } from '../../examples/server/test/helpers/prerequisites.js';
import { AGENTS, tempDir } from '../../examples/server/test/helpers/start.js';
import { freePort, startServerProcess, type ServerProcess } from '../e2e/server-process.js';

const SERVER_DIR = fileURLToPath(new URL('../../examples/server/', import.meta.url));
/** The PostgreSQL server the cluster tests use (its `postgres` database; each run makes its own). */
export const PG_ADMIN_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The Redis the cluster tests use. */
export const REDIS_URL = TEST_REDIS_URL;
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((p) => existsSync(p));

/** Why the cluster cannot run here, or null when it can. */
export async function clusterPrerequisites(): Promise<string | null> {
  const missing: string[] = [];
  if (!HAPROXY) missing.push('HAProxy is not installed (apt-get install -y haproxy)');
  if (!existsSync(join(SERVER_DIR, 'dist', 'main.js'))) missing.push('the server is not built (npm run build)');
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    missing.push(`PostgreSQL does not answer at ${PG_ADMIN_URL} (${(error as Error).message})`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = await redisUnavailable(REDIS_URL);
  if (redis !== null) missing.push(redis);
  return missing.length === 0 ? null : missing.join('; ');
}

/** One node of the cluster. */
export interface ClusterNode {
  /** Its name (`NODE_ID`). */
  readonly name: string;
  /** Its own port (the balancer's is {@link Cluster.url}). */
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The running process (replaced by {@link Cluster.restart}). */
  process: ServerProcess;
}

/** The running cluster. */
export interface Cluster {
  /** The balancer's URL (`PUBLIC_URL` of every node). */
  readonly url: string;
  /** The nodes. */
  readonly nodes: ClusterNode[];
  /** The database URL the nodes use. */
  readonly databaseUrl: string;
  /** Starts a killed node again on its port. */
  restart(node: ClusterNode): Promise<void>;
  /** Everything the balancer printed. */
  balancerOutput(): string;
  /** Stops the nodes and the balancer, drops the database. */
  stop(): Promise<void>;
}

/** How the balancer picks a node (`leastconn` as deployed; `first` when a test must know where a socket lands). */
export type Balance = 'leastconn' | 'first';

/**
 * Starts `count` nodes on a fresh database and HAProxy in front of them (the deploy config, with
 * the test's ports, health checks every 250 ms).
 */
export async function startCluster(count: number, balance: Balance, env: Record<string, string> = {}): Promise<Cluster> {
  const database = `kefu_cluster_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
  const work = tempDir();
  const filesDir = join(work, 'shared-files');
  mkdirSync(filesDir, { recursive: true });
  const balancerPort = await freePort();
  const url = `http://127.0.0.1:${balancerPort}`;
  const nodes: ClusterNode[] = [];
  const envOf = (name: string): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: REDIS_URL,
    FILES_DIR: filesDir,
    NODE_ID: name,
    // a cluster of its own: other test files' nodes share the Redis
    CLUSTER_NAME: database,
    PUBLIC_URL: url,
    TRUST_PROXY: '127.0.0.1',
    AGENTS,
    ...env,
  });
  const launch = (node: { name: string; port: number }): Promise<ServerProcess> =>
    startServerProcess({ port: node.port, dataDir: join(work, node.name), appDir: join(work, 'no-app'), compiled: true, env: envOf(node.name) });
  for (let i = 1; i <= count; i++) {
    const port = await freePort();
    const name = `node${i}`;
    // one after the other: the first migrates and seeds (the others would wait on its lock anyway)
    nodes.push({ name, port, url: `http://127.0.0.1:${port}`, process: await launch({ name, port }) });
  }
  const template = readFileSync(join(SERVER_DIR, 'deploy', 'haproxy.cfg'), 'utf8');
  const servers = nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check`).join('\n');
  const config = template
    .replace(/bind 127\.0\.0\.1:\d+/, `bind 127.0.0.1:${balancerPort}`)
    .replace(/balance leastconn/, `balance ${balance}`)
    .replace(/inter 1s fall 2 rise 2/, 'inter 250ms fall 2 rise 1')
    .replace(/  # nodes\n(  server .*\n?)+/, `  # nodes\n${servers}\n`);
  const cfgFile = join(work, 'haproxy.cfg');
  writeFileSync(cfgFile, config);
  let balancerLog = '';
  const balancer: ChildProcess = spawn(HAPROXY ?? 'haproxy', ['-db', '-f', cfgFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  balancer.stdout?.on('data', (c: Buffer) => (balancerLog += c.toString('utf8')));
  balancer.stderr?.on('data', (c: Buffer) => (balancerLog += c.toString('utf8')));
  await waitForReady(`${url}/readyz`, 15_000, () => balancerLog);

  return {
    url,
    nodes,
    databaseUrl,
    async restart(node) {
      node.process = await launch(node);
    },
    balancerOutput: () => balancerLog,
    async stop() {
      balancer.kill('SIGKILL');
      for (const node of nodes) await node.process.kill();
      const drop = new pg.Client({ connectionString: PG_ADMIN_URL });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await drop.end();
    },
  };
}

async function waitForReady(url: string, ms: number, log: () => string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms:\n${log()}`);
}

/** The endpoints of a node or of the balancer, read from its public config. */
export { endpointsOf } from './harness.js';
