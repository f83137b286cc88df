/**
 * The admin command's privacy commands (the rules are the services', `services/privacy.ts` and
 * `services/retention.ts`):
 *
 * - `visitor export <clientId>`: everything stored about the visitor, as JSON on stdout;
 * - `visitor delete <clientId>`: deletes it all (rows, files on disk); with `REDIS_URL` set, the
 *   visitor's live sockets on every node are closed too (through the cluster's channel); without
 *   it a running server keeps the visitor's open sockets until they reconnect: delete through the
 *   admin API (`DELETE /admin/api/visitors/<clientId>`) to close them at once;
 * - `retention show | set <days> | off | default | run`: the retention in force (the store's
 *   setting wins over `RETENTION_DAYS`; every node reads it at its next check) and the latest
 *   runs; `run` deletes what is older than the retention now;
 * - `admin-token`: a new random admin token and the `ADMIN_TOKEN=sha256:...` that keeps only its hash.
 * @module
 */

import { join } from 'node:path';
import { Redis } from 'ioredis';
import { publishCloseOrder } from './cluster/redis-link.js';
import { ApiError, Code } from './http/envelope.js';
import { FileStore } from './http/files.js';
import { newAdminToken, parsePrivacyConfig, PrivacyConfigError } from './privacy-config.js';
import { Privacy } from './services/privacy.js';
import { DAY_MS, Retention } from './services/retention.js';
import type { Store } from './store/types.js';

/** The usage lines of the privacy commands. */
export const PRIVACY_USAGE = `  visitor export <clientId>                      everything stored about the visitor, as JSON
  visitor delete <clientId>                      deletes it all (rows, files; live sockets through REDIS_URL)
  retention show|off|default|run                 the retention in force and its runs; run: delete what is older now
  retention set <days>                           delete conversations and files older than <days> (wins over RETENTION_DAYS)
  admin-token                                    prints a new admin token and its ADMIN_TOKEN=sha256:... form`;

/** What the privacy commands need. */
export interface PrivacyCommandIo {
  /** The environment (`DATA_DIR`, `FILES_DIR`, `REDIS_URL`, `CLUSTER_NAME`, `RETENTION_DAYS`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Output lines. */
  out: (line: string) => void;
  /** Builds the usage error of a bad command line. */
  usage: (message: string) => Error;
}

/** `admin-token`: a new token, and the hashed form for the server's environment. */
export function adminTokenCommand(out: (line: string) => void): number {
  const { token, hashed } = newAdminToken();
  out(`admin token (give it to your admin tools; it is shown once): ${token}`);
  out(`server environment (keeps only its hash): ADMIN_TOKEN=${hashed}`);
  return 0;
}

/** The files of `DATA_DIR` or `FILES_DIR`, as the server keeps them. */
function filesOf(env: PrivacyCommandIo['env'], dataDir: string): FileStore {
  const filesDir = env['FILES_DIR']?.trim() ?? '';
  return filesDir === '' ? new FileStore(join(dataDir, 'files'), join(dataDir, 'parts')) : new FileStore(filesDir, `${filesDir}-parts`);
}

/** Turns a refusal of a service into the usage error. */
async function asUsage<T>(io: PrivacyCommandIo, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError || error instanceof PrivacyConfigError) throw io.usage(error.message);
    throw error;
  }
}

/**
 * Runs `visitor export|delete <clientId>`.
 * @returns the exit code (1 when nothing names the visitor)
 */
export async function visitorPrivacyCommand(command: 'export' | 'delete', clientId: string, store: Store, dataDir: string, io: PrivacyCommandIo): Promise<number> {
  const redisUrl = command === 'delete' ? (io.env['REDIS_URL']?.trim() ?? '') : '';
  const redis = redisUrl === '' ? undefined : new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis?.on('error', () => undefined); // a failed publish rejects where it is awaited
  const cluster = io.env['CLUSTER_NAME']?.trim() || 'kefu';
  const privacy = new Privacy({
    store,
    files: filesOf(io.env, dataDir),
    // no node here: the nodes close the sockets when told through the cluster's channel
    disconnect: async (userId, code, reason) => {
      if (redis) await publishCloseOrder(redis, cluster, 'admin-command', userId, code, reason);
      return 0;
    },
  });
  try {
    if (command === 'export') {
      const exported = await privacy.export(clientId).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === Code.NotFound) return undefined;
        throw error;
      });
      if (exported === undefined) {
        io.out(`nothing is stored about visitor "${clientId}"`);
        return 1;
      }
      io.out(JSON.stringify(exported, null, 2));
      return 0;
    }
    await redis?.connect();
    const deleted = await privacy.delete(clientId);
    io.out(JSON.stringify(deleted, null, 2));
    io.out(
      redis
        ? 'the visitor\'s open sockets were told to close on every node (through REDIS_URL)'
        : 'note: without REDIS_URL a running server keeps the visitor\'s open sockets (new connects of the id are refused); the admin API (DELETE /admin/api/visitors/<clientId>) closes them at once',
    );
    return deleted.found ? 0 : 1;
  } catch (error) {
    if (error instanceof ApiError) throw io.usage(error.message);
    throw error;
  } finally {
    redis?.disconnect();
  }
}

/** Runs `retention show|set <days>|off|default|run`. */
export async function retentionCommand(command: string | undefined, rest: readonly string[], store: Store, dataDir: string, io: PrivacyCommandIo): Promise<number> {
  const settings = await asUsage(io, async () => parsePrivacyConfig(io.env));
  const retention = new Retention({
    store,
    files: filesOf(io.env, dataDir),
    nodeId: 'admin-command',
    envDays: settings.retentionDays,
    intervalMs: settings.retentionIntervalMs,
  });
  const show = (days: number, source: string): void =>
    io.out(days === 0 ? `retention: off, everything is kept (${source})` : `retention: ${days} days (${source})`);
  if (command === 'show') {
    const { days, source } = await retention.setting();
    show(days, source === 'store' ? 'set with the admin command' : 'RETENTION_DAYS');
    for (const run of await retention.runs(10)) {
      const took = run.finishedAt === null ? 'not finished' : `${run.finishedAt - run.startedAt} ms`;
      io.out(`${new Date(run.startedAt).toISOString()}\t${run.node}\tcutoff ${new Date(run.cutoff).toISOString()}\t${took}\t${JSON.stringify(run.deleted)}`);
    }
    return 0;
  }
  if (command === 'set' || command === 'off' || command === 'default') {
    const value = command === 'off' ? 0 : command === 'default' ? 'default' : Number(rest[0] ?? '');
    if (command === 'set' && (rest[0] ?? '').trim() === '') throw io.usage('retention set needs a number of days');
    const { days, source } = await asUsage(io, () => retention.set(value));
    show(days, source === 'store' ? 'set with the admin command; every node reads it at its next check' : 'RETENTION_DAYS');
    return 0;
  }
  if (command === 'run') {
    const { days } = await retention.setting();
    if (days === 0) {
      io.out('retention is off: nothing deleted');
      return 0;
    }
    const started = performance.now();
    const deleted = await retention.purge(Date.now() - days * DAY_MS);
    io.out(`deleted what is older than ${days} days in ${(performance.now() - started).toFixed(0)} ms: ${JSON.stringify(deleted)}`);
    return 0;
  }
  throw io.usage(`unknown retention command "${command ?? ''}"`);
}
