/**
 * {@link ChatRepo} on PostgreSQL: visitors, service sessions, messages and read state, with the
 * same answers as `sqlite-chat.ts`. Every statement is parameterised.
 *
 * Ordering follows SQLite's: `rowid` ties become the tables' insertion-order column and `NULL`s
 * sort first ascending (SQLite's rule, not PostgreSQL's default).
 * @module
 */

import { conversationKey } from './sqlite-chat.js';
import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import type { Async, ChatRepo, MessageRecord, PageQuery, ServiceSession, SessionState, Visitor } from './types.js';

interface VisitorRow {
  client_id: string;
  name: string;
  avatar: string;
  language: string;
  blacklisted: boolean;
  banned: boolean;
  created_at: number;
  last_seen: number;
}

interface SessionRow {
  session_id: string;
  client_id: string;
  mch_id: string;
  platform_id: string;
  state: string;
  agent_id: string | null;
  created_at: number;
  queued_at: number | null;
  accepted_at: number | null;
  ended_at: number | null;
  score: number | null;
  remark: string | null;
}

interface MessageRow {
  fp: string;
  type: number;
  from_id: string;
  to_id: string;
  fn: string;
  tn: string;
  fa: string;
  ta: string;
  mch_id: string;
  platform_id: string;
  client_id: string | null;
  group_id: string | null;
  session_id: string | null;
  data_content: string;
  is_read: number;
  robot: number;
  is_group: number;
  create_time: number;
  cm: number | null;
  seq: number | null;
}

const STATES: readonly SessionState[] = ['robot', 'queued', 'active', 'ended'];

const toVisitor = (row: VisitorRow): Visitor => ({
  clientId: row.client_id,
  name: row.name,
  avatar: row.avatar,
  language: row.language,
  blacklisted: row.blacklisted,
  banned: row.banned,
  createdAt: row.created_at,
  lastSeen: row.last_seen,
});

const toSession = (row: SessionRow): ServiceSession => ({
  sessionId: row.session_id,
  clientId: row.client_id,
  mchId: row.mch_id,
  platformId: row.platform_id,
  state: STATES.find((s) => s === row.state) ?? 'ended',
  agentId: row.agent_id,
  createdAt: row.created_at,
  queuedAt: row.queued_at,
  acceptedAt: row.accepted_at,
  endedAt: row.ended_at,
  score: row.score,
  remark: row.remark,
});

const toMessage = (row: MessageRow): MessageRecord => ({
  fp: row.fp,
  type: row.type,
  from: row.from_id,
  to: row.to_id,
  fn: row.fn,
  tn: row.tn,
  fa: row.fa,
  ta: row.ta,
  mchId: row.mch_id,
  platformId: row.platform_id,
  clientId: row.client_id,
  groupId: row.group_id,
  sessionId: row.session_id,
  dataContent: row.data_content,
  isRead: row.is_read,
  robot: row.robot,
  isGroup: row.is_group,
  createTime: row.create_time,
  cm: row.cm,
  ...(row.seq === null ? {} : { seq: row.seq }),
});

/** The columns of a session in `$n` order, as {@link sessionParams} lists them. */
const SESSION_COLUMNS =
  'session_id, client_id, mch_id, platform_id, state, agent_id, created_at, queued_at, accepted_at, ended_at, score, remark';

function sessionParams(s: ServiceSession): unknown[] {
  return [s.sessionId, s.clientId, s.mchId, s.platformId, s.state, s.agentId, s.createdAt, s.queuedAt, s.acceptedAt, s.endedAt, s.score, s.remark];
}

const MESSAGE_COLUMNS =
  'fp, type, from_id, to_id, fn, tn, fa, ta, mch_id, platform_id, client_id, group_id, session_id, data_content, is_read, robot, is_group, create_time, cm, seq';

/** The message columns but `seq`, as {@link messageParams} lists them. */
const INSERT_COLUMNS = MESSAGE_COLUMNS.replace(', seq', '');

function messageParams(m: MessageRecord): unknown[] {
  return [
    m.fp, m.type, m.from, m.to, m.fn, m.tn, m.fa, m.ta, m.mchId, m.platformId, m.clientId, m.groupId, m.sessionId,
    m.dataContent, m.isRead, m.robot, m.isGroup, m.createTime, m.cm,
  ];
}

/** `$1, $2, ..., $n`. */
const placeholders = (n: number): string => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');

/**
 * Page bounds as integer SQL parameters that select what SQLite's comparisons would: absent
 * bounds become the widest ones, fractional bounds round outwards (times and `seq` are integers).
 */
function bounds(page: PageQuery): { before: number; after: number; afterSeq: number; size: number } {
  const toInteger = (value: number, round: (x: number) => number, fallback: number): number =>
    Number.isFinite(value) ? round(value) : value > 0 ? Number.MAX_SAFE_INTEGER : fallback;
  return {
    before: toInteger(page.before ?? Number.MAX_SAFE_INTEGER, Math.ceil, -1),
    after: toInteger(page.after ?? -1, Math.floor, -1),
    afterSeq: toInteger(page.afterSeq ?? 0, Math.floor, -1),
    size: Math.min(Math.max(Math.trunc(page.size), 1), 101),
  };
}

/**
 * Pages through the messages matching `where` (its parameters first): by `seq` after `afterSeq`,
 * forwards after `after`, or backwards before `before`, always answered oldest first.
 */
async function pageMessages(q: Queryable, where: string, params: unknown[], page: PageQuery): Promise<MessageRecord[]> {
  const b = bounds(page);
  const n = params.length;
  const select = `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE ${where} AND type != 104`;
  if (page.afterSeq !== undefined) {
    const rows = await allRows<MessageRow>(q, `${select} AND seq > $${n + 1} ORDER BY seq ASC LIMIT $${n + 2}`, [...params, b.afterSeq, b.size]);
    return rows.map(toMessage);
  }
  const window = `${select} AND create_time < $${n + 1} AND create_time > $${n + 2}`;
  if (page.after !== undefined && page.before === undefined) {
    const rows = await allRows<MessageRow>(q, `${window} ORDER BY create_time ASC, id ASC LIMIT $${n + 3}`, [...params, b.before, b.after, b.size]);
    return rows.map(toMessage);
  }
  const rows = await allRows<MessageRow>(q, `${window} ORDER BY create_time DESC, id DESC LIMIT $${n + 3}`, [...params, b.before, b.after, b.size]);
  return rows.map(toMessage).reverse();
}

/**
 * Stores a message once per fp and stamps its `seq` in one transaction (a savepoint inside a
 * caller's transaction). The insert comes first, so a known fp takes no number; the counter row's
 * upsert then holds its row lock until commit, so numbers follow commit order per conversation.
 */
async function insertMessage(db: Queryable, m: MessageRecord): Promise<boolean> {
  // One statement, one round trip: the conversation's counter is bumped only for an unknown fp,
  // and its row lock (held to the commit) makes seq follow commit order. Two inserts of one fp
  // racing may both bump it; the loser's number is then never used (a gap, which gap-fill by
  // `afterSeq` does not mind).
  const row = await firstRow<{ seq: number }>(
    db,
    `WITH counter AS (
       INSERT INTO conversation_seq (conv, seq)
       SELECT $20, 1 WHERE NOT EXISTS (SELECT 1 FROM messages WHERE fp = $1)
       ON CONFLICT (conv) DO UPDATE SET seq = conversation_seq.seq + 1
       RETURNING seq
     )
     INSERT INTO messages (${INSERT_COLUMNS}, seq)
     SELECT ${placeholders(19)}, counter.seq FROM counter
     ON CONFLICT (fp) DO NOTHING RETURNING seq`,
    [...messageParams(m), conversationKey(m)],
  );
  if (row === undefined) return false;
  m.seq = row.seq;
  return true;
}

/**
 * Creates the chat repository over a queryable (the pool, or a transaction's connection).
 * @internal
 */
export function pgChatRepo(db: Queryable): Async<ChatRepo> {
  return {
    visitors: async (clientIds) => {
      if (clientIds.length === 0) return [];
      const result = await db.query<VisitorRow>('SELECT * FROM visitors WHERE client_id = ANY($1::text[])', [[...clientIds]]);
      return result.rows.map(toVisitor);
    },
    visitor: async (clientId) => {
      const row = await firstRow<VisitorRow>(db, 'SELECT * FROM visitors WHERE client_id = $1', [clientId]);
      return row ? toVisitor(row) : undefined;
    },
    saveVisitor: async (v) => {
      await db.query(
        `INSERT INTO visitors (client_id, name, avatar, language, blacklisted, banned, created_at, last_seen)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, avatar = EXCLUDED.avatar,
           language = EXCLUDED.language, last_seen = EXCLUDED.last_seen`,
        [v.clientId, v.name, v.avatar, v.language, v.blacklisted, v.banned, v.createdAt, v.lastSeen],
      );
    },
    setVisitorFlags: async (clientId, flags) => {
      await db.query(
        `UPDATE visitors SET blacklisted = COALESCE($1, blacklisted), banned = COALESCE($2, banned) WHERE client_id = $3`,
        [flags.blacklisted ?? null, flags.banned ?? null, clientId],
      );
    },
    createSession: async (s) =>
      (await changedRows(db, `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (${placeholders(12)}) ON CONFLICT DO NOTHING`, sessionParams(s))) === 1,
    session: async (id) => {
      const row = await firstRow<SessionRow>(db, 'SELECT * FROM sessions WHERE session_id = $1', [id]);
      return row ? toSession(row) : undefined;
    },
    latestSession: async (clientId, mchId, platformId) => {
      const row = await firstRow<SessionRow>(
        db,
        `SELECT * FROM sessions WHERE client_id = $1 AND mch_id = $2 AND platform_id = $3
         ORDER BY created_at DESC, row_order DESC LIMIT 1`,
        [clientId, mchId, platformId],
      );
      return row ? toSession(row) : undefined;
    },
    updateSession: async (s) => {
      await db.query(
        `UPDATE sessions SET state = $2, agent_id = $3, queued_at = $4, accepted_at = $5, ended_at = $6,
           score = $7, remark = $8
         WHERE session_id = $1`,
        [s.sessionId, s.state, s.agentId, s.queuedAt, s.acceptedAt, s.endedAt, s.score, s.remark],
      );
    },
    queue: async () =>
      (
        await allRows<SessionRow>(db, "SELECT * FROM sessions WHERE state = 'queued' ORDER BY queued_at ASC NULLS FIRST, row_order ASC")
      ).map(toSession),
    servingAgents: async () =>
      (await db.query<{ agent_id: string }>(
        `SELECT DISTINCT agent_id COLLATE "C" AS agent_id FROM sessions WHERE state = 'active' AND agent_id IS NOT NULL ORDER BY 1`,
      )).rows.map((r) => r.agent_id),
    activeSessions: async (agentId) =>
      (
        await allRows<SessionRow>(
          db,
          "SELECT * FROM sessions WHERE state = 'active' AND agent_id = $1 ORDER BY accepted_at ASC NULLS FIRST, row_order ASC",
          [agentId],
        )
      ).map(toSession),
    claimQueued: async (clientId, agentId, now) => {
      // The row lock with SKIP LOCKED: a second agent accepting at once finds nothing to claim.
      const row = await firstRow<SessionRow>(
        db,
        `UPDATE sessions SET state = 'active', agent_id = $1, accepted_at = $2
         WHERE session_id = (
             SELECT session_id FROM sessions WHERE client_id = $3 AND state = 'queued'
             ORDER BY queued_at ASC NULLS FIRST, row_order ASC LIMIT 1 FOR UPDATE SKIP LOCKED)
           AND state = 'queued'
         RETURNING *`,
        [agentId, now, clientId],
      );
      return row ? toSession(row) : undefined;
    },
    insertMessage: (m) => insertMessage(db, m),
    message: async (fp) => {
      const row = await firstRow<MessageRow>(db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE fp = $1`, [fp]);
      return row ? toMessage(row) : undefined;
    },
    conversation: (clientId, mchId, platformId, page) =>
      pageMessages(db, 'client_id = $1 AND mch_id = $2 AND platform_id = $3', [clientId, mchId, platformId], page),
    groupMessages: (groupId, page) => pageMessages(db, 'group_id = $1', [groupId], page),
    markRead: async (fp) => {
      await db.query('UPDATE messages SET is_read = 1 WHERE fp = $1', [fp]);
    },
    addGroupRead: async (fp, clientId, at) =>
      (await changedRows(db, 'INSERT INTO group_reads (fp, client_id, read_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [fp, clientId, at])) === 1,
    groupReads: async (fps) => {
      const out = new Map<string, { clientId: string; readAt: number }[]>();
      for (const fp of fps) out.set(fp, []);
      if (fps.length === 0) return out;
      const rows = await allRows<{ fp: string; client_id: string; read_at: number }>(
        db,
        'SELECT fp, client_id, read_at FROM group_reads WHERE fp = ANY($1::text[]) ORDER BY read_at ASC',
        [[...new Set(fps)]],
      );
      for (const r of rows) out.get(r.fp)?.push({ clientId: r.client_id, readAt: r.read_at });
      return out;
    },
    maxCreateTime: async () => (await firstRow<{ t: number }>(db, 'SELECT COALESCE(MAX(create_time), 0) AS t FROM messages'))?.t ?? 0,
  };
}
