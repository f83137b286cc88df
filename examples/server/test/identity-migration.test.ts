/**
 * Migration 3 (protocol §3a) on a database written by the previous version: visitors and key
 * sessions are kept, unclaimed and unbound; the visitor's next connect claims it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/store/migrations.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { keyExchange, TestSocket, welcomeSecret } from '../../../conformance/src/client/index.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

describe('migration 3: identity columns on an existing database', () => {
  it('keeps visitors and key sessions of schema 2, unclaimed and unbound; the next connect claims the visitor', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir, 'kefu.db');
    const old = new Database(file);
    old.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (2);');
    old.exec(MIGRATIONS[0] ?? '');
    old.exec(MIGRATIONS[1] ?? '');
    old.prepare("INSERT INTO visitors (client_id, name, avatar, language, created_at, last_seen) VALUES ('legacy-visitor', 'Old', '', 'en', 1, 1)").run();
    old.prepare("INSERT INTO key_sessions (salt_key, request_key, aes_key, token, created_at, last_used) VALUES ('salt-old', ?, ?, ?, 1, 1)").run('f'.repeat(32), 'a'.repeat(32), 't'.repeat(32));
    old.close();

    const store = new SqliteStore(file);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect((await store.chat.visitor('legacy-visitor'))?.name).toBe('Old');
    expect(await store.identity.secretHash('legacy-visitor')).toBeUndefined();
    expect((await store.keys.bySaltKey('salt-old'))?.boundTo).toBeNull();
    await store.close();

    const server = await startServer({ dataDir: dir, memoryDb: false });
    try {
      const session = await keyExchange(server.url);
      const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, 'legacy-visitor', { mchId: 'M1001', platformId: 'P01' });
      expect(welcomeSecret(socket.log.find((m) => m.type === 60)!)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await server.store.identity.secretHash('legacy-visitor')).toMatch(/^[0-9a-f]{64}$/);
      await socket.close();
    } finally {
      await server.close();
    }
  });
});

describe('migrations 10 and 11: desk state and agents’ merchants on an existing database', () => {
  it('agents kept before work for the demo merchant; sessions ended before count as closed on the desk, later ones do not', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir, 'kefu.db');
    const old = new Database(file);
    old.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (9);');
    for (const sql of MIGRATIONS.slice(0, 9)) old.exec(sql);
    old.prepare("INSERT INTO agents (account, name, password_hash, created_at) VALUES ('carol', 'Carol', 'scrypt$x', 1)").run();
    const insert = old.prepare(
      "INSERT INTO sessions (session_id, client_id, mch_id, platform_id, state, agent_id, created_at, ended_at) VALUES (?, 'v1', 'M1001', 'P01', ?, 'agent:carol', 1, ?)",
    );
    insert.run('s-ended', 'ended', 5);
    insert.run('s-active', 'active', null);
    old.close();

    const store = new SqliteStore(file);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect((await store.identity.agent('carol'))?.merchants).toEqual(['M1001']);
    expect(await store.desk.deskEnded('agent:carol', 10)).toEqual([]);
    const active = await store.chat.session('s-active');
    expect(active?.endedBy).toBeNull();
    await store.chat.updateSession({ ...active!, state: 'ended', endedAt: 9, endedBy: 'visitor' });
    expect((await store.desk.deskEnded('agent:carol', 10)).map((s) => [s.sessionId, s.endedBy])).toEqual([['s-active', 'visitor']]);
    await store.close();
  });
});
