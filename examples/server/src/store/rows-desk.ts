/**
 * The rows of canned replies, listed past conversations and transfers on a desk, written once for both stores (see
 * `rows.ts` for the conventions).
 * @module
 */

import type { ColumnsOf } from './rows.js';
import { toSession, type SessionRow } from './rows-chat.js';
import { containsPattern, type Arrival, type CannedReply, type DeskTransferRecord, type PastConversation, type PastQuery } from './desk-types.js';

/** A row of `canned_replies`. */
export interface CannedReplyRow {
  id: string;
  mch_id: string;
  title: string;
  text: string;
  shortcut: string;
  created_at: number;
}

/** The columns a canned reply is written with. */
export const CANNED_COLUMNS = ['id', 'mch_id', 'title', 'text', 'shortcut', 'created_at'] as const satisfies ColumnsOf<CannedReplyRow>;

/** A canned reply from its row. */
export const toCanned = (r: CannedReplyRow): CannedReply => ({
  id: r.id,
  mchId: r.mch_id,
  title: r.title,
  text: r.text,
  shortcut: r.shortcut,
  createdAt: r.created_at,
});

/** The row of a canned reply. */
export const cannedRow = (c: CannedReply): CannedReplyRow => ({
  id: c.id,
  mch_id: c.mchId,
  title: c.title,
  text: c.text,
  shortcut: c.shortcut,
  created_at: c.createdAt,
});

/** A session row joined with its visitor's name. */
export interface PastRow extends SessionRow {
  visitor_name: string | null;
}

/** A listed past conversation from its row. */
export const toPast = (r: PastRow): PastConversation => ({ ...toSession(r), visitorName: r.visitor_name ?? '' });

/** The listing's filters as SQL parameters: null where a filter is absent, LIKE patterns escaped. */
export function pastFilters(query: PastQuery): {
  mchId: string | null;
  mchIds: string[] | null;
  visitor: string | null;
  visitorLike: string | null;
  textLike: string | null;
} {
  const present = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);
  const visitor = present(query.visitor);
  const text = present(query.text);
  return {
    mchId: present(query.mchId),
    mchIds: query.mchIds === undefined ? null : [...query.mchIds],
    visitor,
    visitorLike: visitor === null ? null : containsPattern(visitor),
    textLike: text === null ? null : containsPattern(text),
  };
}

/** A row of `visitor_arrivals`. */
export interface ArrivalRow {
  client_id: string;
  mch_id: string;
  platform_id: string;
  params: string;
  arrived_at: number;
}

/** The columns an arrival is written with. */
export const ARRIVAL_COLUMNS = ['client_id', 'mch_id', 'platform_id', 'params', 'arrived_at'] as const satisfies ColumnsOf<ArrivalRow>;

/** The row of an arrival (the parameters as JSON text). */
export const arrivalRow = (a: Arrival): ArrivalRow => ({
  client_id: a.clientId,
  mch_id: a.mchId,
  platform_id: a.platformId,
  params: JSON.stringify(a.params),
  arrived_at: a.arrivedAt,
});

/** An arrival from its row (parameters that do not parse as an object of strings read as none). */
export function toArrival(r: ArrivalRow): Arrival {
  const params: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(r.params);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') params[key] = value;
    }
  } catch {
    // a damaged row shows no parameters
  }
  return { clientId: r.client_id, mchId: r.mch_id, platformId: r.platform_id, params, arrivedAt: r.arrived_at };
}

/** A row of the desk's transferred listing: the session, and whom it went to when. */
export interface TransferredRow extends SessionRow {
  transfer_to: string;
  transfer_at: number;
}

/** A transfer record of the desk from its row. */
export const toTransferred = (row: TransferredRow): DeskTransferRecord => ({ session: toSession(row), toAgentId: row.transfer_to, transferredAt: Number(row.transfer_at) });
