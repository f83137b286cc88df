/**
 * {@link ChatRepo} on PostgreSQL: visitors, service sessions, messages and read state, with the
 * same answers as `sqlite-chat.ts`. Every statement is parameterised.
 *
 * Ordering follows SQLite's: `rowid` ties become the tables' insertion-order column and `NULL`s
 * sort first ascending (SQLite's rule, not PostgreSQL's default).
 * @module
 */

import { insertInto, placeholders } from './pg-params.js';
import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import { columnList, mapRow, rowValues } from './rows.js';
import * as rows from './rows-chat.js';
import { pgRoutingMethods } from './pg-routing.js';
import type { RoutingMethods } from './sqlite-routing.js';
import type { Async, ChatRepo, MessageRecord, PageQuery } from './types.js';

/** The message and read-state methods of {@link ChatRepo}. */
type MessageMethods = Pick<
  Async<ChatRepo>,
  'insertMessage' | 'message' | 'conversation' | 'groupMessages' | 'markRead' | 'addGroupRead' | 'groupReads' | 'maxCreateTime'
>;

/** The visitor methods of {@link ChatRepo}. */
type VisitorMethods = Pick<Async<ChatRepo>, 'visitor' | 'visitors' | 'saveVisitor' | 'setVisitorFlags'>;

/** The service-session methods of {@link ChatRepo}. */
type SessionMethods = Omit<Async<ChatRepo>, keyof MessageMethods | keyof VisitorMethods | keyof RoutingMethods>;

const MESSAGES = columnList(rows.MESSAGE_COLUMNS);

/**
 * Pages through the messages matching `where` (its parameters first), oldest first (see
 * {@link rows.pageWindow}).
 */
async function pageMessages(q: Queryable, where: string, params: unknown[], page: PageQuery): Promise<MessageRecord[]> {
  const w = rows.pageWindow(page);
  const n = params.length;
  const select = `SELECT ${MESSAGES} FROM messages WHERE ${where} AND type != 104`;
  if (w.order === 'seq') {
    const found = await allRows<rows.MessageRow>(q, `${select} AND seq > $${n + 1} ORDER BY seq ASC LIMIT $${n + 2}`, [...params, w.afterSeq, w.size]);
    return found.map(rows.toMessage);
  }
  const direction = w.order === 'forward' ? 'ASC' : 'DESC';
  const found = await allRows<rows.MessageRow>(
    q,
    `${select} AND create_time < $${n + 1} AND create_time > $${n + 2} ORDER BY create_time ${direction}, id ${direction} LIMIT $${n + 3}`,
    [...params, w.before, w.after, w.size],
  );
  const messages = found.map(rows.toMessage);
  return w.order === 'backward' ? messages.reverse() : messages;
}

/**
 * Stores a message once per fp and stamps its `seq`, in one statement (one round trip): the
 * conversation's counter is bumped only for an unknown fp, and its row lock (held to the commit)
 * makes seq follow commit order. Two inserts of one fp racing may both bump it; the loser's
 * number is then never used (a gap, which gap-fill by `afterSeq` does not mind).
 */
async function insertMessage(db: Queryable, m: MessageRecord): Promise<boolean> {
  // $1 is the fp: the first of the insert columns.
  const values = rowValues(rows.messageRow(m, null), rows.MESSAGE_INSERT_COLUMNS);
  const row = await firstRow<{ seq: number }>(
    db,
    `WITH counter AS (
       INSERT INTO conversation_seq (conv, seq)
       SELECT $${values.length + 1}, 1 WHERE NOT EXISTS (SELECT 1 FROM messages WHERE fp = $1)
       ON CONFLICT (conv) DO UPDATE SET seq = conversation_seq.seq + 1
       RETURNING seq
     )
     INSERT INTO messages (${columnList(rows.MESSAGE_INSERT_COLUMNS)}, seq)
     SELECT ${placeholders(values.length)}, counter.seq FROM counter
     ON CONFLICT (fp) DO NOTHING RETURNING seq`,
    [...values, rows.conversationKey(m)],
  );
  if (row === undefined) return false;
  m.seq = row.seq;
  return true;
}

/** Visitors on `db`. */
function pgVisitorMethods(db: Queryable): VisitorMethods {
  return {
    visitors: async (clientIds) => {
      if (clientIds.length === 0) return [];
      return (await allRows<rows.VisitorRow>(db, 'SELECT * FROM visitors WHERE client_id = ANY($1::text[])', [[...clientIds]])).map(rows.toVisitor);
    },
    visitor: async (clientId) => mapRow(await firstRow<rows.VisitorRow>(db, 'SELECT * FROM visitors WHERE client_id = $1', [clientId]), rows.toVisitor),
    saveVisitor: async (v) => {
      await db.query(
        `${insertInto('visitors', rows.VISITOR_COLUMNS)}
         ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, avatar = EXCLUDED.avatar,
           language = EXCLUDED.language, last_seen = EXCLUDED.last_seen`,
        rowValues(rows.visitorRow(v), rows.VISITOR_COLUMNS),
      );
    },
    setVisitorFlags: async (clientId, flags) => {
      await db.query(
        `UPDATE visitors SET blacklisted = COALESCE($1, blacklisted), banned = COALESCE($2, banned) WHERE client_id = $3`,
        [flags.blacklisted ?? null, flags.banned ?? null, clientId],
      );
    },
  };
}

/** Service sessions on `db`: one open per conversation, the queue, claims. */
function pgSessionMethods(db: Queryable): SessionMethods {
  return {
    createSession: async (s) =>
      (await changedRows(
        db,
        `${insertInto('sessions', rows.SESSION_COLUMNS)} ON CONFLICT DO NOTHING`,
        rowValues(rows.sessionRow(s), rows.SESSION_COLUMNS),
      )) === 1,
    session: async (id) => mapRow(await firstRow<rows.SessionRow>(db, 'SELECT * FROM sessions WHERE session_id = $1', [id]), rows.toSession),
    latestSession: async (clientId, mchId, platformId) =>
      mapRow(
        await firstRow<rows.SessionRow>(
          db,
          `SELECT * FROM sessions WHERE client_id = $1 AND mch_id = $2 AND platform_id = $3
           ORDER BY created_at DESC, row_order DESC LIMIT 1`,
          [clientId, mchId, platformId],
        ),
        rows.toSession,
      ),
    updateSession: async (s) => {
      await db.query(
        `UPDATE sessions SET state = $2, agent_id = $3, queued_at = $4, accepted_at = $5, ended_at = $6,
           score = $7, remark = $8, ended_by = $9
         WHERE session_id = $1`,
        [s.sessionId, s.state, s.agentId, s.queuedAt, s.acceptedAt, s.endedAt, s.score, s.remark, s.endedBy ?? null],
      );
    },
    queue: async () =>
      (await allRows<rows.SessionRow>(db, "SELECT * FROM sessions WHERE state = 'queued' ORDER BY queued_at ASC NULLS FIRST, row_order ASC")).map(
        rows.toSession,
      ),
    servingAgents: async () =>
      (
        await allRows<{ agent_id: string }>(
          db,
          `SELECT DISTINCT agent_id COLLATE "C" AS agent_id FROM sessions WHERE state = 'active' AND agent_id IS NOT NULL ORDER BY 1`,
        )
      ).map((r) => r.agent_id),
    activeSessions: async (agentId) =>
      (
        await allRows<rows.SessionRow>(
          db,
          "SELECT * FROM sessions WHERE state = 'active' AND agent_id = $1 ORDER BY accepted_at ASC NULLS FIRST, row_order ASC",
          [agentId],
        )
      ).map(rows.toSession),
    activeSessionWith: async (agentId, clientId) =>
      mapRow(
        await firstRow<rows.SessionRow>(
          db,
          "SELECT * FROM sessions WHERE agent_id = $1 AND client_id = $2 AND state = 'active' ORDER BY accepted_at ASC NULLS FIRST, row_order ASC LIMIT 1",
          [agentId, clientId],
        ),
        rows.toSession,
      ),
    recentWaits: async (limit) => (await allRows<rows.WaitRow>(db, rows.RECENT_WAITS_SQL('$1'), [limit])).map(rows.toWait),
    claimQueued: async (clientId, agentId, now, mchIds) =>
      // The row lock with SKIP LOCKED: a second agent accepting at once finds nothing to claim.
      mapRow(
        await firstRow<rows.SessionRow>(
          db,
          `UPDATE sessions SET state = 'active', agent_id = $1, accepted_at = $2
           WHERE session_id = (
               SELECT session_id FROM sessions WHERE client_id = $3 AND state = 'queued' AND mch_id = ANY($4::text[])
               ORDER BY queued_at ASC NULLS FIRST, row_order ASC LIMIT 1 FOR UPDATE SKIP LOCKED)
             AND state = 'queued'
           RETURNING *`,
          [agentId, now, clientId, [...mchIds]],
        ),
        rows.toSession,
      ),
  };
}

/** Messages and read state on `db`. */
function pgMessageMethods(db: Queryable): MessageMethods {
  return {
    insertMessage: (m) => insertMessage(db, m),
    message: async (fp) => mapRow(await firstRow<rows.MessageRow>(db, `SELECT ${MESSAGES} FROM messages WHERE fp = $1`, [fp]), rows.toMessage),
    conversation: (clientId, mchId, platformId, page) =>
      pageMessages(db, 'client_id = $1 AND mch_id = $2 AND platform_id = $3', [clientId, mchId, platformId], page),
    groupMessages: (groupId, page) => pageMessages(db, 'group_id = $1', [groupId], page),
    markRead: async (fp) => {
      await db.query('UPDATE messages SET is_read = 1 WHERE fp = $1', [fp]);
    },
    addGroupRead: async (fp, clientId, at) =>
      (await changedRows(db, 'INSERT INTO group_reads (fp, client_id, read_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [fp, clientId, at])) === 1,
    groupReads: async (fps) =>
      rows.readersByFp(
        fps,
        fps.length === 0
          ? []
          : await allRows<rows.GroupReadRow>(
              db,
              'SELECT fp, client_id, read_at FROM group_reads WHERE fp = ANY($1::text[]) ORDER BY read_at ASC, client_id COLLATE "C" ASC',
              [[...new Set(fps)]],
            ),
      ),
    maxCreateTime: async () => (await firstRow<{ t: number }>(db, 'SELECT COALESCE(MAX(create_time), 0) AS t FROM messages'))?.t ?? 0,
  };
}

/**
 * Creates the chat repository over a queryable (the pool, or a transaction's connection).
 * @internal
 */
export function pgChatRepo(db: Queryable): Async<ChatRepo> {
  return { ...pgVisitorMethods(db), ...pgSessionMethods(db), ...pgMessageMethods(db), ...pgRoutingMethods(db) };
}
