/**
 * The rows of visitors, service sessions, messages and group reads, written once for both stores
 * (row types, mappers both ways, column lists; see `rows.ts` for the conventions), and the pure
 * rules both stores must answer alike: which counter a message's `seq` comes from, how a page
 * query becomes a window, how read rows become read lists.
 * @module
 */

import { flagValue, isSet, type ColumnsOf, type Flag } from './rows.js';
import type { MessageRecord, PageQuery, ServiceSession, SessionState, Visitor } from './types.js';

/** A row of `visitors`. */
export interface VisitorRow {
  client_id: string;
  name: string;
  avatar: string;
  language: string;
  blacklisted: Flag;
  banned: Flag;
  created_at: number;
  last_seen: number;
}

/** The columns a visitor is written with. */
export const VISITOR_COLUMNS = [
  'client_id', 'name', 'avatar', 'language', 'blacklisted', 'banned', 'created_at', 'last_seen',
] as const satisfies ColumnsOf<VisitorRow>;

/** A visitor from its row. */
export const toVisitor = (row: VisitorRow): Visitor => ({
  clientId: row.client_id,
  name: row.name,
  avatar: row.avatar,
  language: row.language,
  blacklisted: isSet(row.blacklisted),
  banned: isSet(row.banned),
  createdAt: row.created_at,
  lastSeen: row.last_seen,
});

/** The row of a visitor. */
export const visitorRow = (v: Visitor): VisitorRow => ({
  client_id: v.clientId,
  name: v.name,
  avatar: v.avatar,
  language: v.language,
  blacklisted: flagValue(v.blacklisted),
  banned: flagValue(v.banned),
  created_at: v.createdAt,
  last_seen: v.lastSeen,
});

/** A row of `sessions`. */
export interface SessionRow {
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
  /** `visitor` or `agent` once ended by a 302 (null before, and for sessions of older schemas). */
  ended_by: string | null;
}

/** The columns a session is written with. */
export const SESSION_COLUMNS = [
  'session_id', 'client_id', 'mch_id', 'platform_id', 'state', 'agent_id', 'created_at', 'queued_at', 'accepted_at',
  'ended_at', 'score', 'remark', 'ended_by',
] as const satisfies ColumnsOf<SessionRow>;

const STATES: readonly SessionState[] = ['robot', 'queued', 'active', 'ended'];

/** A service session from its row (an unknown state reads as `ended`). */
export const toSession = (row: SessionRow): ServiceSession => ({
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
  endedBy: row.ended_by === 'visitor' || row.ended_by === 'agent' ? row.ended_by : null,
});

/** The row of a service session. */
export const sessionRow = (s: ServiceSession): SessionRow => ({
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
  ended_by: s.endedBy ?? null,
});

/** A row of `messages` (its `id`, the insertion order, is never read). */
export interface MessageRow {
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
  text_key: string | null;
  seq: number | null;
}

/** The columns a message is written with but `seq` (which the store stamps). */
export const MESSAGE_INSERT_COLUMNS = [
  'fp', 'type', 'from_id', 'to_id', 'fn', 'tn', 'fa', 'ta', 'mch_id', 'platform_id', 'client_id', 'group_id', 'session_id',
  'data_content', 'is_read', 'robot', 'is_group', 'create_time', 'cm', 'text_key',
] as const satisfies ColumnsOf<MessageRow>;

/** The columns a message is read (and, with its `seq`, written) with. */
export const MESSAGE_COLUMNS = [...MESSAGE_INSERT_COLUMNS, 'seq'] as const satisfies ColumnsOf<MessageRow>;

/** A message from its row (`textKey` and `seq` are left out while they are null). */
export const toMessage = (row: MessageRow): MessageRecord => ({
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
  ...(row.text_key === null ? {} : { textKey: row.text_key }),
  ...(row.seq === null ? {} : { seq: row.seq }),
});

/** The row of a message, with the `seq` the store stamped on it (null before). */
export const messageRow = (m: MessageRecord, seq: number | null): MessageRow => ({
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
  text_key: m.textKey ?? null,
  seq,
});

/** The sequence counter a message counts in: its group, or its visitor's conversation with one platform. */
export function conversationKey(m: Pick<MessageRecord, 'isGroup' | 'groupId' | 'clientId' | 'mchId' | 'platformId'>): string {
  return m.isGroup === 1 ? `g:${m.groupId ?? ''}` : `c:${m.clientId ?? ''}|${m.mchId}|${m.platformId}`;
}

/**
 * A {@link PageQuery} as both stores run it: which way the page is chosen, and integer bounds
 * (BIGINT-safe) that select exactly what the query's own comparisons would.
 */
export interface PageWindow {
  /**
   * `seq`: by sequence after {@link afterSeq}, oldest first; `forward`: by time after
   * {@link after}, oldest first; `backward`: by time, the newest before {@link before} first
   * (the store answers that page reversed, oldest first). Ties in time go by insertion order.
   */
  order: 'seq' | 'forward' | 'backward';
  /** Only `create_time < before`. */
  before: number;
  /** Only `create_time > after`. */
  after: number;
  /** Only `seq > afterSeq` (with `order` `seq`). */
  afterSeq: number;
  /** How many rows at the most: 1..101. */
  size: number;
}

const WIDEST = Number.MAX_SAFE_INTEGER;

/**
 * An exclusive bound as an integer: rounded outwards (times and `seq` are integers, so the same
 * rows pass), clamped to the safe range (beyond it every row passes, or none). NaN, which no
 * number is above or below, becomes `empty`: the bound that no row passes.
 */
function exclusiveBound(value: number, round: (x: number) => number, empty: number): number {
  if (Number.isNaN(value)) return empty;
  return Math.min(Math.max(round(value), -WIDEST), WIDEST);
}

/**
 * The window of a page query (`afterSeq` wins over `before`/`after`; `after` alone pages
 * forwards; anything else backwards). An absent bound is the widest one.
 * @throws RangeError when `size` is not a number (a size out of 1..101 is clamped into it).
 */
export function pageWindow(page: PageQuery): PageWindow {
  if (typeof page.size !== 'number' || Number.isNaN(page.size)) {
    throw new RangeError(`page size must be a number, got ${String(page.size)}`);
  }
  const order = page.afterSeq !== undefined ? 'seq' : page.after !== undefined && page.before === undefined ? 'forward' : 'backward';
  return {
    order,
    before: exclusiveBound(page.before ?? WIDEST, Math.ceil, -WIDEST),
    after: exclusiveBound(page.after ?? -WIDEST, Math.floor, WIDEST),
    afterSeq: exclusiveBound(page.afterSeq ?? -WIDEST, Math.floor, WIDEST),
    size: Math.min(Math.max(Math.trunc(page.size), 1), 101),
  };
}

/** A row of `group_reads` as the read lists are queried (ordered by `read_at`, then `client_id` in byte order). */
export interface GroupReadRow {
  fp: string;
  client_id: string;
  read_at: number;
}

/**
 * The readers of each of `fps` (an empty list for an unread one; each fp once, in the order
 * first asked), from the rows of all of them in the order they are to be listed.
 */
export function readersByFp(
  fps: readonly string[],
  rows: readonly GroupReadRow[],
): Map<string, { clientId: string; readAt: number }[]> {
  const out = new Map<string, { clientId: string; readAt: number }[]>();
  for (const fp of fps) out.set(fp, []);
  for (const row of rows) out.get(row.fp)?.push({ clientId: row.client_id, readAt: row.read_at });
  return out;
}

/** A row of the recent-waits query: one accepted visitor's wait in the queue (ms). */
export interface WaitRow {
  wait: number | string;
}

/** The wait of a row (PostgreSQL may answer a BIGINT difference as text). */
export const toWait = (row: WaitRow): number => Number(row.wait);

/** The SQL of {@link ChatRepo.recentWaits} (one placeholder: the limit), for both stores. */
export const RECENT_WAITS_SQL = (limit: string): string =>
  `SELECT accepted_at - queued_at AS wait FROM sessions
   WHERE accepted_at IS NOT NULL AND queued_at IS NOT NULL ORDER BY accepted_at DESC LIMIT ${limit}`;
