/**
 * {@link DeskRepo} on better-sqlite3: canned replies, past conversations, visitors' arrivals and the ended
 * and transferred conversations on an agent's desk.
 * @module
 */

import type Database from 'better-sqlite3';
import type { CannedUpdate, DeskRepo } from './desk-types.js';
import { toMessage, type MessageRow } from './rows-chat.js';
import { toSession, type SessionRow } from './rows-chat.js';
import * as rows from './rows-desk.js';
import { insertInto } from './sqlite-params.js';

/** The named parameters of the past-conversation listing. */
interface PastParams {
  mchId: string | null;
  mchIds: string | null;
  visitor: string | null;
  visitorLike: string | null;
  textLike: string | null;
  size: number;
  offset: number;
}

/**
 * Creates the desk repository.
 * @internal
 */
export function sqliteDeskRepo(db: Database.Database): DeskRepo {
  const q = {
    addCanned: db.prepare<rows.CannedReplyRow>(`${insertInto('canned_replies', rows.CANNED_COLUMNS)} ON CONFLICT (mch_id, shortcut) DO NOTHING`),
    canned: db.prepare<[string], rows.CannedReplyRow>('SELECT * FROM canned_replies WHERE mch_id = ? ORDER BY shortcut'),
    updateCanned: db.prepare<rows.CannedReplyRow>('UPDATE canned_replies SET title = @title, text = @text, shortcut = @shortcut WHERE mch_id = @mch_id AND id = @id'),
    shortcutOwner: db.prepare<[string, string], { id: string }>('SELECT id FROM canned_replies WHERE mch_id = ? AND shortcut = ?'),
    removeCanned: db.prepare<[string, string]>('DELETE FROM canned_replies WHERE mch_id = ? AND id = ?'),
    past: db.prepare<PastParams, rows.PastRow>(
      `SELECT s.*, v.name AS visitor_name
       FROM sessions s LEFT JOIN visitors v ON v.client_id = s.client_id
       WHERE s.state = 'ended'
         AND (@mchId IS NULL OR s.mch_id = @mchId)
         AND (@mchIds IS NULL OR s.mch_id IN (SELECT value FROM json_each(@mchIds)))
         AND (@visitor IS NULL OR s.client_id = @visitor OR v.name LIKE @visitorLike ESCAPE '\\')
         AND (@textLike IS NULL OR EXISTS (
           SELECT 1 FROM messages m WHERE m.session_id = s.session_id AND m.data_content LIKE @textLike ESCAPE '\\'))
       ORDER BY s.ended_at DESC, s.session_id DESC
       LIMIT @size OFFSET @offset`,
    ),
    sessionMessages: db.prepare<[string, number], MessageRow>('SELECT * FROM messages WHERE session_id = ? ORDER BY create_time, seq, fp LIMIT ?'),
    saveArrival: db.prepare<rows.ArrivalRow>(
      `${insertInto('visitor_arrivals', rows.ARRIVAL_COLUMNS)}
       ON CONFLICT (client_id, mch_id, platform_id) DO UPDATE SET params = excluded.params, arrived_at = excluded.arrived_at`,
    ),
    arrival: db.prepare<[string, string, string], rows.ArrivalRow>('SELECT * FROM visitor_arrivals WHERE client_id = ? AND mch_id = ? AND platform_id = ?'),
    deskEnded: db.prepare<[string, number], SessionRow>(
      `SELECT * FROM sessions WHERE agent_id = ? AND state = 'ended' AND closed_at IS NULL
       ORDER BY ended_at DESC, session_id DESC LIMIT ?`,
    ),
    closeEnded: db.prepare<[number, string, string]>(
      "UPDATE sessions SET closed_at = COALESCE(closed_at, ?) WHERE session_id = ? AND agent_id = ? AND state = 'ended'",
    ),
    deskTransferred: db.prepare<[string, number], rows.TransferredRow>(
      `SELECT s.*, t.to_agent AS transfer_to, t.transferred_at AS transfer_at
       FROM session_transfers t JOIN sessions s ON s.session_id = t.session_id
       WHERE t.from_agent = ? AND t.closed_at IS NULL AND (s.agent_id IS NULL OR s.agent_id <> t.from_agent)
       ORDER BY t.transferred_at DESC, t.session_id DESC LIMIT ?`,
    ),
    closeTransferred: db.prepare<[number, string, string]>('UPDATE session_transfers SET closed_at = COALESCE(closed_at, ?) WHERE session_id = ? AND from_agent = ?'),
  };
  // one synchronous transaction: nothing runs between the shortcut check and the update
  const updateCanned = db.transaction((row: rows.CannedReplyRow): CannedUpdate => {
    const owner = q.shortcutOwner.get(row.mch_id, row.shortcut);
    if (owner !== undefined && owner.id !== row.id) return 'taken';
    return q.updateCanned.run(row).changes === 1 ? 'updated' : 'missing';
  });
  return {
    addCanned: (reply) => q.addCanned.run(rows.cannedRow(reply)).changes === 1,
    cannedReplies: (mchId) => q.canned.all(mchId).map(rows.toCanned),
    updateCanned: (reply) => updateCanned(rows.cannedRow(reply)),
    removeCanned: (mchId, id) => q.removeCanned.run(mchId, id).changes === 1,
    pastConversations: (query) => {
      const f = rows.pastFilters(query);
      const params = { ...f, mchIds: f.mchIds === null ? null : JSON.stringify(f.mchIds), size: Math.max(0, Math.trunc(query.size)), offset: Math.max(0, Math.trunc(query.offset)) };
      return q.past.all(params).map(rows.toPast);
    },
    sessionMessages: (sessionId, limit) => q.sessionMessages.all(sessionId, Math.max(0, Math.trunc(limit))).map(toMessage),
    saveArrival: (arrival) => void q.saveArrival.run(rows.arrivalRow(arrival)),
    arrival: (clientId, mchId, platformId) => {
      const row = q.arrival.get(clientId, mchId, platformId);
      return row === undefined ? undefined : rows.toArrival(row);
    },
    deskEnded: (agentId, limit) => q.deskEnded.all(agentId, Math.max(0, Math.trunc(limit))).map(toSession),
    closeEnded: (sessionId, agentId, now) => q.closeEnded.run(now, sessionId, agentId).changes === 1,
    deskTransferred: (agentId, limit) => q.deskTransferred.all(agentId, Math.max(0, Math.trunc(limit))).map(rows.toTransferred),
    closeTransferred: (sessionId, agentId, now) => q.closeTransferred.run(now, sessionId, agentId).changes === 1,
  };
}
