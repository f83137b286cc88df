/**
 * {@link ChatRepo} on better-sqlite3: visitors, service sessions, messages and read state.
 * Every statement is prepared once and parameterised.
 * @module
 */

import type Database from 'better-sqlite3';
import type { ChatRepo, MessageRecord, PageQuery, ServiceSession, SessionState, Visitor } from './types.js';

interface VisitorRow {
  client_id: string;
  name: string;
  avatar: string;
  language: string;
  blacklisted: number;
  banned: number;
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
  seq?: number | null;
}

const STATES: readonly SessionState[] = ['robot', 'queued', 'active', 'ended'];

function toVisitor(row: VisitorRow): Visitor {
  return {
    clientId: row.client_id,
    name: row.name,
    avatar: row.avatar,
    language: row.language,
    blacklisted: row.blacklisted === 1,
    banned: row.banned === 1,
    createdAt: row.created_at,
    lastSeen: row.last_seen,
  };
}

function toSession(row: SessionRow): ServiceSession {
  const state = STATES.find((s) => s === row.state) ?? 'ended';
  return {
    sessionId: row.session_id,
    clientId: row.client_id,
    mchId: row.mch_id,
    platformId: row.platform_id,
    state,
    agentId: row.agent_id,
    createdAt: row.created_at,
    queuedAt: row.queued_at,
    acceptedAt: row.accepted_at,
    endedAt: row.ended_at,
    score: row.score,
    remark: row.remark,
  };
}

function sessionParams(s: ServiceSession): SessionRow {
  return {
    session_id: s.sessionId,
    client_id: s.clientId,
    mch_id: s.mchId,
    platform_id: s.platformId,
    state: s.state,
    agent_id: s.agentId,
    created_at: s.createdAt,
    queued_at: s.queuedAt,
    accepted_at: s.acceptedAt,
    ended_at: s.endedAt,
    score: s.score,
    remark: s.remark,
  };
}

function toMessage(row: MessageRow): MessageRecord {
  return {
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
    ...(row.seq === null || row.seq === undefined ? {} : { seq: row.seq }),
  };
}

/** The sequence counter a message counts in: its group, or its visitor's conversation with one platform. */
export function conversationKey(m: Pick<MessageRecord, 'isGroup' | 'groupId' | 'clientId' | 'mchId' | 'platformId'>): string {
  return m.isGroup === 1 ? `g:${m.groupId ?? ''}` : `c:${m.clientId ?? ''}|${m.mchId}|${m.platformId}`;
}

const MESSAGE_COLUMNS =
  'fp, type, from_id, to_id, fn, tn, fa, ta, mch_id, platform_id, client_id, group_id, session_id, data_content, is_read, robot, is_group, create_time, cm, seq';

/** Page bounds as SQL parameters: absent bounds become the widest ones. */
function bounds(page: PageQuery): { before: number; after: number; size: number } {
  return {
    before: page.before ?? Number.MAX_SAFE_INTEGER,
    after: page.after ?? -1,
    size: Math.min(Math.max(Math.trunc(page.size), 1), 101),
  };
}

/**
 * Creates the chat repository over an open, migrated database.
 * @internal
 */
export function sqliteChatRepo(db: Database.Database): ChatRepo {
  const q = {
    visitor: db.prepare<[string], VisitorRow>('SELECT * FROM visitors WHERE client_id = ?'),
    visitors: db.prepare<[string], VisitorRow>('SELECT * FROM visitors WHERE client_id IN (SELECT value FROM json_each(?))'),
    saveVisitor: db.prepare<VisitorRow>(
      `INSERT INTO visitors (client_id, name, avatar, language, blacklisted, banned, created_at, last_seen)
       VALUES (@client_id, @name, @avatar, @language, @blacklisted, @banned, @created_at, @last_seen)
       ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, avatar = excluded.avatar,
         language = excluded.language, last_seen = excluded.last_seen`,
    ),
    setBlacklisted: db.prepare<[number, string]>('UPDATE visitors SET blacklisted = ? WHERE client_id = ?'),
    setBanned: db.prepare<[number, string]>('UPDATE visitors SET banned = ? WHERE client_id = ?'),
    createSession: db.prepare<SessionRow>(
      `INSERT OR IGNORE INTO sessions (session_id, client_id, mch_id, platform_id, state, agent_id, created_at,
         queued_at, accepted_at, ended_at, score, remark)
       VALUES (@session_id, @client_id, @mch_id, @platform_id, @state, @agent_id, @created_at,
         @queued_at, @accepted_at, @ended_at, @score, @remark)`,
    ),
    updateSession: db.prepare<SessionRow>(
      `UPDATE sessions SET state = @state, agent_id = @agent_id, queued_at = @queued_at,
         accepted_at = @accepted_at, ended_at = @ended_at, score = @score, remark = @remark
       WHERE session_id = @session_id`,
    ),
    session: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE session_id = ?'),
    claimQueued: db.prepare<[string, number, string], SessionRow>(
      `UPDATE sessions SET state = 'active', agent_id = ?, accepted_at = ?
       WHERE session_id = (SELECT session_id FROM sessions WHERE client_id = ? AND state = 'queued' ORDER BY queued_at ASC, rowid ASC LIMIT 1)
         AND state = 'queued'
       RETURNING *`,
    ),
    latestSession: db.prepare<[string, string, string], SessionRow>(
      `SELECT * FROM sessions WHERE client_id = ? AND mch_id = ? AND platform_id = ?
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    ),
    queue: db.prepare<[], SessionRow>(
      "SELECT * FROM sessions WHERE state = 'queued' ORDER BY queued_at ASC, rowid ASC",
    ),
    servingAgents: db.prepare<[], { agent_id: string }>(
      "SELECT DISTINCT agent_id FROM sessions WHERE state = 'active' AND agent_id IS NOT NULL ORDER BY agent_id",
    ),
    activeSessions: db.prepare<[string], SessionRow>(
      "SELECT * FROM sessions WHERE state = 'active' AND agent_id = ? ORDER BY accepted_at ASC, rowid ASC",
    ),
    insertMessage: db.prepare<MessageRow>(
      `INSERT INTO messages (${MESSAGE_COLUMNS}) VALUES (@fp, @type, @from_id, @to_id, @fn, @tn, @fa, @ta,
         @mch_id, @platform_id, @client_id, @group_id, @session_id, @data_content, @is_read, @robot,
         @is_group, @create_time, @cm, @seq)
       ON CONFLICT (fp) DO NOTHING`,
    ),
    known: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM messages WHERE fp = ?'),
    nextSeq: db.prepare<[string], { seq: number }>(
      'INSERT INTO conversation_seq (conv, seq) VALUES (?, 1) ON CONFLICT (conv) DO UPDATE SET seq = seq + 1 RETURNING seq',
    ),
    conversationAfterSeq: db.prepare<[string, string, string, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages
       WHERE client_id = ? AND mch_id = ? AND platform_id = ? AND type != 104 AND seq > ?
       ORDER BY seq ASC LIMIT ?`,
    ),
    groupAfterSeq: db.prepare<[string, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE group_id = ? AND type != 104 AND seq > ? ORDER BY seq ASC LIMIT ?`,
    ),
    message: db.prepare<[string], MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE fp = ?`),
    conversationBefore: db.prepare<[string, string, string, number, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages
       WHERE client_id = ? AND mch_id = ? AND platform_id = ? AND type != 104
         AND create_time < ? AND create_time > ?
       ORDER BY create_time DESC LIMIT ?`,
    ),
    conversationAfter: db.prepare<[string, string, string, number, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages
       WHERE client_id = ? AND mch_id = ? AND platform_id = ? AND type != 104
         AND create_time < ? AND create_time > ?
       ORDER BY create_time ASC LIMIT ?`,
    ),
    groupBefore: db.prepare<[string, number, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages
       WHERE group_id = ? AND type != 104 AND create_time < ? AND create_time > ?
       ORDER BY create_time DESC LIMIT ?`,
    ),
    groupAfter: db.prepare<[string, number, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages
       WHERE group_id = ? AND type != 104 AND create_time < ? AND create_time > ?
       ORDER BY create_time ASC LIMIT ?`,
    ),
    markRead: db.prepare<[string]>('UPDATE messages SET is_read = 1 WHERE fp = ?'),
    addGroupRead: db.prepare<[string, string, number]>(
      'INSERT INTO group_reads (fp, client_id, read_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    groupReads: db.prepare<[string], { client_id: string; read_at: number }>(
      'SELECT client_id, read_at FROM group_reads WHERE fp = ? ORDER BY read_at ASC',
    ),
    maxCreateTime: db.prepare<[], { t: number | null }>('SELECT MAX(create_time) AS t FROM messages'),
  };

  return {
    visitor: (clientId) => {
      const row = q.visitor.get(clientId);
      return row ? toVisitor(row) : undefined;
    },
    visitors: (clientIds) => (clientIds.length === 0 ? [] : q.visitors.all(JSON.stringify(clientIds)).map(toVisitor)),
    saveVisitor: (v) => {
      q.saveVisitor.run({
        client_id: v.clientId,
        name: v.name,
        avatar: v.avatar,
        language: v.language,
        blacklisted: v.blacklisted ? 1 : 0,
        banned: v.banned ? 1 : 0,
        created_at: v.createdAt,
        last_seen: v.lastSeen,
      });
    },
    setVisitorFlags: (clientId, flags) => {
      if (flags.blacklisted !== undefined) q.setBlacklisted.run(flags.blacklisted ? 1 : 0, clientId);
      if (flags.banned !== undefined) q.setBanned.run(flags.banned ? 1 : 0, clientId);
    },
    createSession: (s) => q.createSession.run(sessionParams(s)).changes === 1,
    session: (id) => {
      const row = q.session.get(id);
      return row ? toSession(row) : undefined;
    },
    latestSession: (clientId, mchId, platformId) => {
      const row = q.latestSession.get(clientId, mchId, platformId);
      return row ? toSession(row) : undefined;
    },
    updateSession: (s) => {
      q.updateSession.run(sessionParams(s));
    },
    queue: () => q.queue.all().map(toSession),
    activeSessions: (agentId) => q.activeSessions.all(agentId).map(toSession),
    servingAgents: () => q.servingAgents.all().map((r) => r.agent_id),
    claimQueued: (clientId, agentId, now) => {
      const row = q.claimQueued.get(agentId, now, clientId);
      return row ? toSession(row) : undefined;
    },
    insertMessage: db.transaction((m: MessageRecord): boolean => {
      if (q.known.get(m.fp)) return false;
      const seq = q.nextSeq.get(conversationKey(m))?.seq;
      const inserted = q.insertMessage.run({
        fp: m.fp,
        type: m.type,
        from_id: m.from,
        to_id: m.to,
        fn: m.fn,
        tn: m.tn,
        fa: m.fa,
        ta: m.ta,
        mch_id: m.mchId,
        platform_id: m.platformId,
        client_id: m.clientId,
        group_id: m.groupId,
        session_id: m.sessionId,
        data_content: m.dataContent,
        is_read: m.isRead,
        robot: m.robot,
        is_group: m.isGroup,
        create_time: m.createTime,
        cm: m.cm,
        seq: seq ?? null,
      }).changes === 1;
      if (inserted && seq !== undefined) m.seq = seq;
      return inserted;
    }),
    message: (fp) => {
      const row = q.message.get(fp);
      return row ? toMessage(row) : undefined;
    },
    conversation: (clientId, mchId, platformId, page) => {
      const b = bounds(page);
      if (page.afterSeq !== undefined) return q.conversationAfterSeq.all(clientId, mchId, platformId, page.afterSeq, b.size).map(toMessage);
      if (page.after !== undefined && page.before === undefined) {
        return q.conversationAfter.all(clientId, mchId, platformId, b.before, b.after, b.size).map(toMessage);
      }
      return q.conversationBefore
        .all(clientId, mchId, platformId, b.before, b.after, b.size)
        .map(toMessage)
        .reverse();
    },
    groupMessages: (groupId, page) => {
      const b = bounds(page);
      if (page.afterSeq !== undefined) return q.groupAfterSeq.all(groupId, page.afterSeq, b.size).map(toMessage);
      if (page.after !== undefined && page.before === undefined) {
        return q.groupAfter.all(groupId, b.before, b.after, b.size).map(toMessage);
      }
      return q.groupBefore.all(groupId, b.before, b.after, b.size).map(toMessage).reverse();
    },
    markRead: (fp) => {
      q.markRead.run(fp);
    },
    addGroupRead: (fp, clientId, at) => q.addGroupRead.run(fp, clientId, at).changes === 1,
    groupReads: (fps) => {
      const out = new Map<string, { clientId: string; readAt: number }[]>();
      for (const fp of fps) {
        out.set(
          fp,
          q.groupReads.all(fp).map((r) => ({ clientId: r.client_id, readAt: r.read_at })),
        );
      }
      return out;
    },
    maxCreateTime: () => q.maxCreateTime.get()?.t ?? 0,
  };
}
