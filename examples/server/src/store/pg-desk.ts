/**
 * {@link DeskRepo} on PostgreSQL: canned replies, past conversations, visitors' arrivals and the ended and transferred
 * conversations on an agent's desk, with the same answers
 * as `sqlite-desk.ts` (`ILIKE` matches ASCII case-insensitively as SQLite's `LIKE` does).
 * @module
 */

import type { CannedUpdate, DeskRepo } from './desk-types.js';
import { insertInto } from './pg-params.js';
import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import { rowValues } from './rows.js';
import { toMessage, toSession, type MessageRow, type SessionRow } from './rows-chat.js';
import * as rows from './rows-desk.js';
import type { Async } from './types.js';

const PAST_SQL = `
  SELECT s.*, v.name AS visitor_name
  FROM sessions s LEFT JOIN visitors v ON v.client_id = s.client_id
  WHERE s.state = 'ended'
    AND ($1::text IS NULL OR s.mch_id = $1)
    AND ($7::text[] IS NULL OR s.mch_id = ANY($7::text[]))
    AND ($2::text IS NULL OR s.client_id = $2 OR v.name ILIKE $3 ESCAPE '\\')
    AND ($4::text IS NULL OR EXISTS (
      SELECT 1 FROM messages m WHERE m.session_id = s.session_id AND m.data_content ILIKE $4 ESCAPE '\\'))
  ORDER BY s.ended_at DESC, s.session_id COLLATE "C" DESC
  LIMIT $5 OFFSET $6`;

/** PostgreSQL's unique_violation (another reply took the shortcut between the check and the update). */
const UNIQUE_VIOLATION = '23505';

/** Replaces a reply's fields unless another reply of the merchant has the shortcut. */
async function updateCanned(db: Queryable, reply: rows.CannedReplyRow): Promise<CannedUpdate> {
  try {
    return await db.atomic(async (q) => {
      const owner = await firstRow<{ id: string }>(q, 'SELECT id FROM canned_replies WHERE mch_id = $1 AND shortcut = $2', [reply.mch_id, reply.shortcut]);
      if (owner !== undefined && owner.id !== reply.id) return 'taken';
      const changed = await changedRows(q, 'UPDATE canned_replies SET title = $3, text = $4, shortcut = $5 WHERE mch_id = $1 AND id = $2', [
        reply.mch_id,
        reply.id,
        reply.title,
        reply.text,
        reply.shortcut,
      ]);
      return changed === 1 ? 'updated' : 'missing';
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return 'taken';
    throw error;
  }
}

/**
 * Creates the desk repository over a queryable.
 * @internal
 */
export function pgDeskRepo(db: Queryable): Async<DeskRepo> {
  return {
    addCanned: async (reply) =>
      (await changedRows(
        db,
        `${insertInto('canned_replies', rows.CANNED_COLUMNS)} ON CONFLICT (mch_id, shortcut) DO NOTHING`,
        rowValues(rows.cannedRow(reply), rows.CANNED_COLUMNS),
      )) === 1,
    cannedReplies: async (mchId) =>
      (await allRows<rows.CannedReplyRow>(db, 'SELECT * FROM canned_replies WHERE mch_id = $1 ORDER BY shortcut', [mchId])).map(rows.toCanned),
    updateCanned: (reply) => updateCanned(db, rows.cannedRow(reply)),
    removeCanned: async (mchId, id) => (await changedRows(db, 'DELETE FROM canned_replies WHERE mch_id = $1 AND id = $2', [mchId, id])) === 1,
    pastConversations: async (query) => {
      const f = rows.pastFilters(query);
      const params = [f.mchId, f.visitor, f.visitorLike, f.textLike, Math.max(0, Math.trunc(query.size)), Math.max(0, Math.trunc(query.offset)), f.mchIds];
      return (await allRows<rows.PastRow>(db, PAST_SQL, params)).map(rows.toPast);
    },
    sessionMessages: async (sessionId, limit) =>
      (
        await allRows<MessageRow>(db, 'SELECT * FROM messages WHERE session_id = $1 ORDER BY create_time, seq, fp COLLATE "C" LIMIT $2', [sessionId, Math.max(0, Math.trunc(limit))])
      ).map(toMessage),
    saveArrival: async (arrival) => {
      await db.query(
        `${insertInto('visitor_arrivals', rows.ARRIVAL_COLUMNS)}
         ON CONFLICT (client_id, mch_id, platform_id) DO UPDATE SET params = EXCLUDED.params, arrived_at = EXCLUDED.arrived_at`,
        rowValues(rows.arrivalRow(arrival), rows.ARRIVAL_COLUMNS),
      );
    },
    arrival: async (clientId, mchId, platformId) => {
      const row = await firstRow<rows.ArrivalRow>(db, 'SELECT * FROM visitor_arrivals WHERE client_id = $1 AND mch_id = $2 AND platform_id = $3', [clientId, mchId, platformId]);
      return row === undefined ? undefined : rows.toArrival(row);
    },
    deskEnded: async (agentId, limit) =>
      (
        await allRows<SessionRow>(
          db,
          `SELECT * FROM sessions WHERE agent_id = $1 AND state = 'ended' AND closed_at IS NULL
           ORDER BY ended_at DESC, session_id COLLATE "C" DESC LIMIT $2`,
          [agentId, Math.max(0, Math.trunc(limit))],
        )
      ).map(toSession),
    closeEnded: async (sessionId, agentId, now) =>
      (await changedRows(db, "UPDATE sessions SET closed_at = COALESCE(closed_at, $1) WHERE session_id = $2 AND agent_id = $3 AND state = 'ended'", [now, sessionId, agentId])) === 1,
    deskTransferred: async (agentId, limit) =>
      (
        await allRows<rows.TransferredRow>(
          db,
          `SELECT s.*, t.to_agent AS transfer_to, t.transferred_at AS transfer_at
       FROM session_transfers t JOIN sessions s ON s.session_id = t.session_id
       WHERE t.from_agent = $1 AND t.closed_at IS NULL AND (s.agent_id IS NULL OR s.agent_id <> t.from_agent)
       ORDER BY t.transferred_at DESC, t.session_id COLLATE "C" DESC LIMIT $2`,
          [agentId, Math.max(0, Math.trunc(limit))],
        )
      ).map(rows.toTransferred),
    closeTransferred: async (sessionId, agentId, now) =>
      (await changedRows(db, 'UPDATE session_transfers SET closed_at = COALESCE(closed_at, $1) WHERE session_id = $2 AND from_agent = $3', [now, sessionId, agentId])) === 1,
  };
}
