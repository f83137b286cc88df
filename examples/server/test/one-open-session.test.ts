/**
 * One open session per conversation (migration 6 of the SQLite store; migration 2 of the
 * PostgreSQL one, covered by the store contract suite): a database holding two open sessions of
 * one visitor, from before the rule, keeps the newer one open and ends the older; a server asked
 * twice at once to start a visitor's session starts one.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/store/migrations.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { AgentDirectory } from '../src/agents/directory.js';
import { MessageClock } from '../src/chat/clock.js';
import type { ChatContext } from '../src/chat/context.js';
import { Hub } from '../src/chat/hub.js';
import { Sessions } from '../src/chat/sessions.js';
import { loadConfig } from '../src/config.js';
import { groupAliaser } from '../src/identity/group-alias.js';
import { removeDir, tempDir } from './helpers/start.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) removeDir(dir);
});

describe('one open session per conversation', () => {
  it('migration 6 ends the older of two open sessions of one visitor and keeps the rest', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir, 'kefu.db');
    const old = new Database(file);
    old.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (5);');
    for (const sql of MIGRATIONS.slice(0, 5)) old.exec(sql);
    const insert = old.prepare(
      `INSERT INTO sessions (session_id, client_id, mch_id, platform_id, state, agent_id, created_at, queued_at, accepted_at, ended_at, score, remark)
       VALUES (?, ?, 'M1', 'P1', ?, NULL, ?, NULL, NULL, NULL, NULL, NULL)`,
    );
    insert.run('older', 'v1', 'robot', 100);
    insert.run('newer', 'v1', 'queued', 200);
    insert.run('other', 'v2', 'robot', 150);
    old.close();

    const store = new SqliteStore(file);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect(await store.chat.session('older')).toMatchObject({ state: 'ended', endedAt: 100 });
    expect(await store.chat.session('newer')).toMatchObject({ state: 'queued', endedAt: null });
    expect(await store.chat.session('other')).toMatchObject({ state: 'robot' });
    await store.close();
  });

  it('two starts of one visitor at once (a socket and an HTTP call, say) open one session and greet once', async () => {
    const store = new SqliteStore(':memory:');
    const config = loadConfig({ AGENTS: 'alice:secret1' }, { memoryDb: true });
    const ctx: ChatContext = { store, hub: new Hub(), clock: new MessageClock(0), config, agents: new AgentDirectory(config.agents, store), groupAlias: await groupAliaser(store) };
    const sessions = new Sessions(ctx);
    const v = { clientId: randomUUID(), name: 'Twice', avatar: '', mchId: 'M1', platformId: 'P1', language: 'en' };
    const [a, b] = await Promise.all([sessions.start(v), sessions.start(v)]);
    expect(a.sessionId).toBe(b.sessionId);
    const stored = await store.chat.conversation(v.clientId, 'M1', 'P1', { size: 101 });
    expect(stored.filter((m) => m.type === 300 && m.dataContent.includes('"created"'))).toHaveLength(1);
    expect(stored.filter((m) => m.type === 200)).toHaveLength(1); // one greeting
    sessions.dispose();
    await store.close();
  });
});

