/**
 * The per-conversation sequence (docs/protocol.md §3 `seq`): stamped inside the insert, per
 * conversation and per group, never consumed by a duplicate `fp`, read back with `afterSeq` (a bad
 * one is refused with 1001); and migration 5 numbers the messages of an existing database in their
 * stored order.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/store/migrations.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { MessageRecord } from '../src/store/types.js';
import { boundSession, enc } from '../../../conformance/src/client/index.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

let n = 0;
function message(over: Partial<MessageRecord>): MessageRecord {
  n += 1;
  return {
    fp: `fp-${n}`,
    type: 100,
    from: 'v1',
    to: 'robot',
    fn: '',
    tn: '',
    fa: '',
    ta: '',
    mchId: 'M1',
    platformId: 'P1',
    clientId: 'v1',
    groupId: null,
    sessionId: null,
    dataContent: `text ${n}`,
    isRead: 0,
    robot: 0,
    isGroup: 0,
    createTime: 10_000 - n, // a clock going backwards changes nothing
    cm: null,
    ...over,
  };
}

describe('message seq', () => {
  it('numbers each conversation and group on its own, in insert order, and skips duplicates', async () => {
    const store = new SqliteStore(':memory:');
    const a1 = message({});
    const a2 = message({});
    const b1 = message({ clientId: 'v2', from: 'v2' });
    const g1 = message({ isGroup: 1, groupId: 'G1', to: 'G1' });
    const other = message({ platformId: 'P2' });
    for (const m of [a1, b1, a2, g1, other]) expect(await store.chat.insertMessage(m)).toBe(true);
    expect([a1.seq, a2.seq, b1.seq, g1.seq, other.seq]).toEqual([1, 2, 1, 1, 1]);

    const again = { ...a1, seq: undefined };
    expect(await store.chat.insertMessage(again)).toBe(false);
    expect(again.seq).toBeUndefined();
    const a3 = message({});
    await store.chat.insertMessage(a3);
    expect(a3.seq).toBe(3); // the duplicate consumed nothing

    const after = await store.chat.conversation('v1', 'M1', 'P1', { afterSeq: 1, size: 10 });
    expect(after.map((m) => [m.fp, m.seq])).toEqual([[a2.fp, 2], [a3.fp, 3]]);
    expect((await store.chat.groupMessages('G1', { afterSeq: 0, size: 10 })).map((m) => m.seq)).toEqual([1]);
    expect((await store.chat.message(a3.fp))?.seq).toBe(3);
    await store.close();
  });

  it('migration 5 numbers the messages of an existing database per conversation, and new ones follow', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir, 'kefu.db');
    const old = new Database(file);
    old.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (4);');
    for (const sql of MIGRATIONS.slice(0, 4)) old.exec(sql);
    const insert = old.prepare(
      `INSERT INTO messages (fp, type, from_id, to_id, fn, tn, fa, ta, mch_id, platform_id, client_id, group_id, session_id, data_content, is_read, robot, is_group, create_time, cm)
       VALUES (?, 100, 'v1', 'robot', '', '', '', '', 'M1', 'P1', ?, NULL, NULL, 'x', 0, 0, 0, ?, NULL)`,
    );
    insert.run('old-1', 'v1', 100);
    insert.run('old-2', 'v2', 150);
    insert.run('old-3', 'v1', 200);
    old.close();

    const store = new SqliteStore(file);
    expect((await store.chat.message('old-1'))?.seq).toBe(1);
    expect((await store.chat.message('old-3'))?.seq).toBe(2);
    expect((await store.chat.message('old-2'))?.seq).toBe(1);
    const next = message({ fp: 'new-1' });
    await store.chat.insertMessage(next);
    expect(next.seq).toBe(3);
    await store.close();
  });
});

describe('afterSeq over HTTP (findMsgForCus)', () => {
  it('returns what follows, oldest first, with seq on every entry; refuses a bad afterSeq with 1001', async () => {
    const server = await startServer();
    try {
      const where = { mchId: 'M1001', platformId: 'P01' };
      const session = await boundSession(server, `seq-${Date.now()}`, where);
      const all = await enc<{ list: { seq?: number; type: number }[]; hasMore: boolean }>(server.url, session, 'POST', 'findMsgForCus', { clientId: session.clientId, ...where, size: 100 });
      const seqs = (all.data?.list ?? []).map((m) => m.seq);
      expect(seqs.length).toBeGreaterThan(1); // the session start: created, suggestions, greeting
      expect(seqs).toEqual([...seqs].sort((a, b) => (a ?? 0) - (b ?? 0)));
      const first = seqs[0] ?? 0;
      const after = await enc<{ list: { seq?: number }[] }>(server.url, session, 'POST', 'findMsgForCus', { clientId: session.clientId, ...where, afterSeq: first, size: 100 });
      expect(after.data?.list.map((m) => m.seq)).toEqual(seqs.slice(1));
      for (const bad of [-1, 'x', 1.5, Number.MAX_SAFE_INTEGER + 2]) {
        const refused = await enc(server.url, session, 'POST', 'findMsgForCus', { clientId: session.clientId, ...where, afterSeq: bad });
        expect(refused).toMatchObject({ code: 1001, data: null });
      }
    } finally {
      await server.close();
      removeDir(server.dataDir);
    }
  });
});
