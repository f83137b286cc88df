/**
 * The privacy side of the admin command and of the configuration: `admin-token`, `ADMIN_TOKEN`
 * kept as a hash (and refused when short), `RETENTION_*` checked, `visitor export|delete` on the
 * store of DATA_DIR (rows and files; a running node's sockets closed through REDIS_URL; the id
 * refused afterwards), and `retention show|set|off|default|run`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { secretMatches } from '../src/identity/secrets.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { Store } from '../src/store/types.js';
import { skipWithoutRedis, TEST_REDIS_URL } from './helpers/prerequisites.js';
import { connectUrl, keyExchange, TestSocket } from './helpers/protocol-client.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function newDir(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

async function admin(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await runAdmin(args, { env: { DATA_DIR: dataDir, ...env }, readPassword: async () => '', out: (l) => out.push(l) });
  return { code, out };
}

const DAY = 86_400_000;

/** A visitor with a text, an image message whose file is on disk, and a left message, at `at`. */
async function storedVisitor(store: Store, dataDir: string, at = Date.now()): Promise<{ clientId: string; file: string }> {
  const clientId = `cli-${randomUUID()}`;
  const file = `${randomUUID()}.png`;
  mkdirSync(join(dataDir, 'files'), { recursive: true });
  writeFileSync(join(dataDir, 'files', file), 'png bytes');
  await store.chat.saveVisitor({ clientId, name: 'Cli', avatar: '', language: 'en', blacklisted: false, banned: false, createdAt: at, lastSeen: at });
  const base = { to: 'robot', fn: 'Cli', tn: 'Robot', fa: '', ta: '', mchId: 'M1001', platformId: 'P01', clientId, groupId: null, sessionId: null, isRead: 0, robot: 0, isGroup: 0, cm: null, from: clientId };
  await store.chat.insertMessage({ ...base, fp: randomUUID(), type: 100, dataContent: 'hello from the cli test', createTime: at });
  await store.chat.insertMessage({ ...base, fp: randomUUID(), type: 101, dataContent: `http://x/files/${file}`, createTime: at + 1 });
  await store.records.addLeaveMessage({ fp: randomUUID(), clientId, mchId: 'M1001', platformId: 'P01', contact: 'c', content: 'call', name: 'n', createdAt: at });
  return { clientId, file };
}

describe('ADMIN_TOKEN and RETENTION_* in the configuration', () => {
  it('admin-token prints a token and the hashed form; both forms give the same hash; short and malformed ones stop the start', async () => {
    const { out } = await admin(newDir(), ['admin-token']);
    const token = /: (\S+)$/.exec(out[0] ?? '')?.[1] ?? '';
    const hashed = /ADMIN_TOKEN=(sha256:[0-9a-f]{64})$/.exec(out[1] ?? '')?.[1] ?? '';
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(hashed).not.toBe('');
    const fromPlain = loadConfig({ ADMIN_TOKEN: token }).privacy.adminTokenHash;
    expect(loadConfig({ ADMIN_TOKEN: hashed }).privacy.adminTokenHash).toBe(fromPlain);
    expect(secretMatches(token, fromPlain)).toBe(true);
    expect(JSON.stringify(loadConfig({ ADMIN_TOKEN: token }))).not.toContain(token);
    expect(loadConfig({}).privacy).toMatchObject({ adminTokenHash: '', retentionDays: 0, retentionIntervalMs: 3_600_000, adminRateMax: 30 });
    for (const bad of [{ ADMIN_TOKEN: 'short' }, { ADMIN_TOKEN: 'sha256:abc' }, { ADMIN_TOKEN: `${'x'.repeat(40)} y` }, { RETENTION_DAYS: '-1' }, { RETENTION_DAYS: '1.5' }, { RETENTION_INTERVAL_MS: '10' }, { ADMIN_RATE_MAX: '0' }]) {
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(ConfigError);
    }
    expect(() => loadConfig({ ADMIN_TOKEN: 'short' })).toThrow(/at least|32-256 characters/);
  });
});

describe('npm run admin -- visitor export|delete', () => {
  it('exports everything as JSON; deletes the rows and the files; unknown and bad ids are told apart', async () => {
    const dir = newDir();
    const store = new SqliteStore(join(dir, 'kefu.db'));
    const { clientId, file } = await storedVisitor(store, dir);
    const other = await storedVisitor(store, dir);
    await store.close();

    const exported = await admin(dir, ['visitor', 'export', clientId]);
    expect(exported.code).toBe(0);
    const data = JSON.parse(exported.out.join('\n')) as { clientId: string; messages: { dataContent: string }[]; leftMessages: unknown[] };
    expect(data.clientId).toBe(clientId);
    expect(data.messages.map((m) => m.dataContent)).toEqual(['hello from the cli test', `http://x/files/${file}`]);
    expect(data.leftMessages).toHaveLength(1);

    const deleted = await admin(dir, ['visitor', 'delete', clientId]);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.out.slice(0, -1).join('\n'))).toMatchObject({ found: true, rows: { messages: 2, leave_messages: 1, visitors: 1 }, files: { deleted: 1, kept: 0 } });
    expect(deleted.out.at(-1)).toMatch(/admin API/); // no REDIS_URL: says how to close a running server's sockets
    expect(existsSync(join(dir, 'files', file))).toBe(false);
    expect(existsSync(join(dir, 'files', other.file))).toBe(true);
    expect(await admin(dir, ['visitor', 'export', clientId])).toEqual({ code: 1, out: [`nothing is stored about visitor "${clientId}"`] });
    expect((await admin(dir, ['visitor', 'delete', clientId])).code).toBe(1);
    await expect(admin(dir, ['visitor', 'export', 'agent:alice'])).rejects.toThrow(/clientId/);
    await expect(admin(dir, ['visitor', 'delete'])).rejects.toThrow(/clientId/);
    const reopened = new SqliteStore(join(dir, 'kefu.db'));
    expect(await reopened.chat.visitor(other.clientId)).toBeDefined();
    await reopened.close();
  });
});

const noRedis = await skipWithoutRedis('admin-privacy');

describe.skipIf(noRedis)('npm run admin -- visitor delete, with a node running (REDIS_URL)', () => {
  it('closes the visitor\'s socket on the running node (4004 deleted), and the id is refused afterwards', async () => {
    const dir = newDir();
    const cluster = { REDIS_URL: TEST_REDIS_URL, CLUSTER_NAME: `admin-${randomUUID()}` };
    const server = await startServer({ memoryDb: false, dataDir: dir }, { ...cluster, NODE_ID: 'n1' });
    try {
      const session = await keyExchange(server.url);
      const clientId = `live-${randomUUID()}`;
      const visitor = await TestSocket.connect(server.socketUrl, server.socketKey, session, clientId, { mchId: 'M1001', platformId: 'P01', language: 'en' });
      const deleted = await admin(dir, ['visitor', 'delete', clientId], cluster);
      expect(deleted.code).toBe(0);
      expect(deleted.out.at(-1)).toMatch(/told to close on every node/);
      expect(await visitor.closed).toEqual({ code: 4004, reason: 'deleted' });
      // a client still holding the id (and its secret) is refused, and stores nothing
      const again = await keyExchange(server.url);
      const retry = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, again.saltKey, clientId, { mchId: 'M1001', platformId: 'P01' }), again);
      expect((await retry.closed).code).toBe(4004);
      expect(await server.store.chat.visitor(clientId)).toBeUndefined();
      expect(server.errors).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('npm run admin -- retention', () => {
  it('show, set (wins over RETENTION_DAYS), off, default, and run: deletes what is older now', async () => {
    const dir = newDir();
    const store = new SqliteStore(join(dir, 'kefu.db'));
    const old = await storedVisitor(store, dir, Date.now() - 40 * DAY);
    const recent = await storedVisitor(store, dir);
    await store.close();
    const env = { RETENTION_DAYS: '90' };
    expect((await admin(dir, ['retention', 'show'], env)).out).toEqual(['retention: 90 days (RETENTION_DAYS)']);
    expect((await admin(dir, ['retention', 'run'], env)).out[0]).toMatch(/older than 90 days .*\{\}/);
    expect((await admin(dir, ['retention', 'set', '30'], env)).out[0]).toMatch(/^retention: 30 days \(set with the admin command/);
    const run = await admin(dir, ['retention', 'run'], env);
    expect(run.out[0]).toMatch(/older than 30 days in \d+ ms: .*"messages":2.*"files":1/);
    expect(existsSync(join(dir, 'files', old.file))).toBe(false);
    expect(existsSync(join(dir, 'files', recent.file))).toBe(true);
    expect((await admin(dir, ['retention', 'off'], env)).out[0]).toMatch(/^retention: off, everything is kept/);
    expect((await admin(dir, ['retention', 'run'], env)).out).toEqual(['retention is off: nothing deleted']);
    expect((await admin(dir, ['retention', 'default'], env)).out[0]).toBe('retention: 90 days (RETENTION_DAYS)');
    await expect(admin(dir, ['retention', 'set', 'soon'], env)).rejects.toThrow(/whole number of days/);
    await expect(admin(dir, ['retention', 'set'], env)).rejects.toThrow(/number of days/);
    await expect(admin(dir, ['retention', 'purge'], env)).rejects.toThrow(/unknown retention command/);
  });
});
