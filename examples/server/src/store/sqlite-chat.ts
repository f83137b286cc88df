/**
 * {@link ChatRepo} on better-sqlite3: visitors, service sessions, messages and read state.
 * Every statement is prepared once and parameterised.
 * @module
 */

import type Database from 'better-sqlite3';
import { columnList, flagValue, mapRow } from './rows.js';
import * as rows from './rows-chat.js';
import { insertInto, namedParams } from './sqlite-params.js';
import { sqliteRoutingMethods, type RoutingMethods } from './sqlite-routing.js';
import type { ChatRepo, MessageRecord, PageQuery } from './types.js';

const MESSAGES = columnList(rows.MESSAGE_COLUMNS);

/** The message and read-state methods of {@link ChatRepo}. */
type MessageMethods = Pick<
  ChatRepo,
  'insertMessage' | 'message' | 'conversation' | 'groupMessages' | 'markRead' | 'addGroupRead' | 'groupReads' | 'maxCreateTime'
>;

/** The visitor and session methods of {@link ChatRepo}. */
type SessionMethods = Omit<ChatRepo, keyof MessageMethods | keyof RoutingMethods>;

/** Visitors and service sessions on `db`: one open session per conversation, the queue, claims. */
function sqliteSessionMethods(db: Database.Database): SessionMethods {
  const q = {
    visitor: db.prepare<[string], rows.VisitorRow>('SELECT * FROM visitors WHERE client_id = ?'),
    visitors: db.prepare<[string], rows.VisitorRow>('SELECT * FROM visitors WHERE client_id IN (SELECT value FROM json_each(?))'),
    saveVisitor: db.prepare<rows.VisitorRow>(
      `${insertInto('visitors', rows.VISITOR_COLUMNS)}
       ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, avatar = excluded.avatar,
         language = excluded.language, last_seen = excluded.last_seen`,
    ),
    setBlacklisted: db.prepare<[number, string]>('UPDATE visitors SET blacklisted = ? WHERE client_id = ?'),
    setBanned: db.prepare<[number, string]>('UPDATE visitors SET banned = ? WHERE client_id = ?'),
    createSession: db.prepare<rows.SessionRow>(
      `INSERT OR IGNORE INTO sessions (${columnList(rows.SESSION_COLUMNS)}) VALUES (${namedParams(rows.SESSION_COLUMNS)})`,
    ),
    updateSession: db.prepare<rows.SessionRow>(
      `UPDATE sessions SET state = @state, agent_id = @agent_id, queued_at = @queued_at,
         accepted_at = @accepted_at, ended_at = @ended_at, score = @score, remark = @remark, ended_by = @ended_by
       WHERE session_id = @session_id`,
    ),
    session: db.prepare<[string], rows.SessionRow>('SELECT * FROM sessions WHERE session_id = ?'),
    recentWaits: db.prepare<[number], rows.WaitRow>(rows.RECENT_WAITS_SQL('?')),
    claimQueued: db.prepare<[string, number, string, string], rows.SessionRow>(
      `UPDATE sessions SET state = 'active', agent_id = ?, accepted_at = ?
       WHERE session_id = (
           SELECT session_id FROM sessions WHERE client_id = ? AND state = 'queued' AND mch_id IN (SELECT value FROM json_each(?))
           ORDER BY queued_at ASC, rowid ASC LIMIT 1)
         AND state = 'queued'
       RETURNING *`,
    ),
    latestSession: db.prepare<[string, string, string], rows.SessionRow>(
      `SELECT * FROM sessions WHERE client_id = ? AND mch_id = ? AND platform_id = ?
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    ),
    queue: db.prepare<[], rows.SessionRow>("SELECT * FROM sessions WHERE state = 'queued' ORDER BY queued_at ASC, rowid ASC"),
    servingAgents: db.prepare<[], { agent_id: string }>(
      "SELECT DISTINCT agent_id FROM sessions WHERE state = 'active' AND agent_id IS NOT NULL ORDER BY agent_id",
    ),
    activeSessions: db.prepare<[string], rows.SessionRow>(
      "SELECT * FROM sessions WHERE state = 'active' AND agent_id = ? ORDER BY accepted_at ASC, rowid ASC",
    ),
    activeSessionWith: db.prepare<[string, string], rows.SessionRow>(
      "SELECT * FROM sessions WHERE agent_id = ? AND client_id = ? AND state = 'active' ORDER BY accepted_at ASC, rowid ASC LIMIT 1",
    ),
  };
  return {
    visitor: (clientId) => mapRow(q.visitor.get(clientId), rows.toVisitor),
    visitors: (clientIds) => (clientIds.length === 0 ? [] : q.visitors.all(JSON.stringify(clientIds)).map(rows.toVisitor)),
    saveVisitor: (v) => {
      q.saveVisitor.run(rows.visitorRow(v));
    },
    setVisitorFlags: (clientId, flags) => {
      if (flags.blacklisted !== undefined) q.setBlacklisted.run(flagValue(flags.blacklisted), clientId);
      if (flags.banned !== undefined) q.setBanned.run(flagValue(flags.banned), clientId);
    },
    createSession: (s) => q.createSession.run(rows.sessionRow(s)).changes === 1,
    session: (id) => mapRow(q.session.get(id), rows.toSession),
    latestSession: (clientId, mchId, platformId) => mapRow(q.latestSession.get(clientId, mchId, platformId), rows.toSession),
    updateSession: (s) => {
      q.updateSession.run(rows.sessionRow(s));
    },
    queue: () => q.queue.all().map(rows.toSession),
    activeSessions: (agentId) => q.activeSessions.all(agentId).map(rows.toSession),
    activeSessionWith: (agentId, clientId) => mapRow(q.activeSessionWith.get(agentId, clientId), rows.toSession),
    servingAgents: () => q.servingAgents.all().map((r) => r.agent_id),
    claimQueued: (clientId, agentId, now, mchIds) => mapRow(q.claimQueued.get(agentId, now, clientId, JSON.stringify(mchIds)), rows.toSession),
    recentWaits: (limit) => q.recentWaits.all(limit).map(rows.toWait),
  };
}

/** The three statements that page through the messages matching `where` (its parameters first). */
function pageStatements(db: Database.Database, where: string) {
  const select = `SELECT ${MESSAGES} FROM messages WHERE ${where} AND type != 104`;
  const window = `${select} AND create_time < ? AND create_time > ?`;
  return {
    seq: db.prepare<unknown[], rows.MessageRow>(`${select} AND seq > ? ORDER BY seq ASC LIMIT ?`),
    forward: db.prepare<unknown[], rows.MessageRow>(`${window} ORDER BY create_time ASC, id ASC LIMIT ?`),
    backward: db.prepare<unknown[], rows.MessageRow>(`${window} ORDER BY create_time DESC, id DESC LIMIT ?`),
  };
}

/** A page of the messages `statements` select with `params`, oldest first (see {@link rows.pageWindow}). */
function pageMessages(statements: ReturnType<typeof pageStatements>, params: unknown[], page: PageQuery): MessageRecord[] {
  const w = rows.pageWindow(page);
  if (w.order === 'seq') return statements.seq.all(...params, w.afterSeq, w.size).map(rows.toMessage);
  const found = statements[w.order].all(...params, w.before, w.after, w.size).map(rows.toMessage);
  return w.order === 'backward' ? found.reverse() : found;
}

/** Messages (stored once per fp, stamped with their seq) and read state on `db`. */
function sqliteMessageMethods(db: Database.Database): MessageMethods {
  const q = {
    insertMessage: db.prepare<rows.MessageRow>(
      `${insertInto('messages', rows.MESSAGE_COLUMNS)} ON CONFLICT (fp) DO NOTHING`,
    ),
    known: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM messages WHERE fp = ?'),
    nextSeq: db.prepare<[string], { seq: number }>(
      'INSERT INTO conversation_seq (conv, seq) VALUES (?, 1) ON CONFLICT (conv) DO UPDATE SET seq = seq + 1 RETURNING seq',
    ),
    message: db.prepare<[string], rows.MessageRow>(`SELECT ${MESSAGES} FROM messages WHERE fp = ?`),
    conversation: pageStatements(db, 'client_id = ? AND mch_id = ? AND platform_id = ?'),
    group: pageStatements(db, 'group_id = ?'),
    markRead: db.prepare<[string]>('UPDATE messages SET is_read = 1 WHERE fp = ?'),
    addGroupRead: db.prepare<[string, string, number]>(
      'INSERT INTO group_reads (fp, client_id, read_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    groupReads: db.prepare<[string], rows.GroupReadRow>(
      'SELECT fp, client_id, read_at FROM group_reads WHERE fp IN (SELECT value FROM json_each(?)) ORDER BY read_at ASC, client_id ASC',
    ),
    maxCreateTime: db.prepare<[], { t: number | null }>('SELECT MAX(create_time) AS t FROM messages'),
  };
  return {
    insertMessage: db.transaction((m: MessageRecord): boolean => {
      if (q.known.get(m.fp)) return false;
      const seq = q.nextSeq.get(rows.conversationKey(m))?.seq;
      const inserted = q.insertMessage.run(rows.messageRow(m, seq ?? null)).changes === 1;
      if (inserted && seq !== undefined) m.seq = seq;
      return inserted;
    }),
    message: (fp) => mapRow(q.message.get(fp), rows.toMessage),
    conversation: (clientId, mchId, platformId, page) => pageMessages(q.conversation, [clientId, mchId, platformId], page),
    groupMessages: (groupId, page) => pageMessages(q.group, [groupId], page),
    markRead: (fp) => {
      q.markRead.run(fp);
    },
    addGroupRead: (fp, clientId, at) => q.addGroupRead.run(fp, clientId, at).changes === 1,
    groupReads: (fps) => rows.readersByFp(fps, fps.length === 0 ? [] : q.groupReads.all(JSON.stringify(fps))),
    maxCreateTime: () => q.maxCreateTime.get()?.t ?? 0,
  };
}

/**
 * Creates the chat repository over an open, migrated database.
 * @internal
 */
export function sqliteChatRepo(db: Database.Database): ChatRepo {
  return { ...sqliteSessionMethods(db), ...sqliteMessageMethods(db), ...sqliteRoutingMethods(db) };
}
