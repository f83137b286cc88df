/**
 * The ended conversations a type 310 snapshot restores (docs/protocol.md §6, `ended`): those of
 * this agent that ended and that it has not closed yet, kept by the server so that a desk shows
 * them again after a reload or on another device, with who ended them and the visitor's rating;
 * and likewise those it transferred to another agent (`transferred`), with whom they went to.
 * @module
 */

/** What every entry of a snapshot's `ended` and `transferred` lists holds. */
export interface RestoredEntry {
  /** The conversation's id. */
  readonly sessionId: string;
  /** The visitor's client id. */
  readonly clientId: string;
  /** The visitor's display name. */
  readonly name: string;
  /** Since when the agent served it, ms. */
  readonly since: number;
  /** Its merchant. */
  readonly mchId?: string;
  /** The merchant's platform. */
  readonly platformId?: string;
}

/** An entry of a snapshot's `ended` list. */
export interface RestoredConversation extends RestoredEntry {
  /** When it ended, ms. */
  readonly endedAt: number;
  /** Who ended it. */
  readonly endedBy?: 'visitor' | 'agent';
  /** The visitor's rating, once given. */
  readonly rating?: { readonly score: number; readonly remark?: string };
}

/** An entry of a snapshot's `transferred` list: a conversation this agent handed to another agent. */
export interface RestoredTransfer extends RestoredEntry {
  /** When it was transferred, ms. */
  readonly transferredAt: number;
  /** The agent it went to. */
  readonly to: { readonly id: string; readonly name: string };
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function time(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/**
 * The shared fields of an entry, or undefined without a session or client id.
 * @param e - the entry's object
 * @param at - when it ended or was transferred (the start when the entry gives none)
 */
function entryOf(e: Record<string, unknown>, at: number): RestoredEntry | undefined {
  const sessionId = text(e['sessionId']);
  const clientId = text(e['clientId']);
  if (sessionId === undefined || clientId === undefined) return undefined;
  const mchId = text(e['mchId']);
  const platformId = text(e['platformId']);
  return {
    sessionId,
    clientId,
    name: text(e['name']) ?? clientId,
    since: time(e['since']) ?? at,
    ...(mchId === undefined ? {} : { mchId }),
    ...(platformId === undefined ? {} : { platformId }),
  };
}

function objectOf(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
}

/** One `ended` entry, or undefined when it is malformed. */
function restored(v: unknown): RestoredConversation | undefined {
  const e = objectOf(v);
  const endedAt = time(e?.['endedAt']);
  const entry = e && endedAt !== undefined ? entryOf(e, endedAt) : undefined;
  if (!e || !entry || endedAt === undefined) return undefined;
  const score = e['score'];
  const rating: RestoredConversation['rating'] =
    typeof score === 'number' && Number.isInteger(score) && score >= 1 && score <= 5 ? { score, ...(text(e['remark']) ? { remark: text(e['remark']) as string } : {}) } : undefined;
  const endedBy = e['endedBy'] === 'visitor' || e['endedBy'] === 'agent' ? e['endedBy'] : undefined;
  return { ...entry, endedAt, ...(endedBy === undefined ? {} : { endedBy }), ...(rating === undefined ? {} : { rating }) };
}

/** One `transferred` entry, or undefined when it is malformed. */
function transferred(v: unknown): RestoredTransfer | undefined {
  const e = objectOf(v);
  const transferredAt = time(e?.['transferredAt']);
  const to = objectOf(e?.['to']);
  const toId = text(to?.['id']);
  const entry = e && transferredAt !== undefined ? entryOf(e, transferredAt) : undefined;
  if (!entry || transferredAt === undefined || toId === undefined) return undefined;
  return { ...entry, transferredAt, to: { id: toId, name: text(to?.['name']) ?? toId } };
}

/** A list of a type 310 snapshot's content, its malformed entries left out; undefined without the list. */
function listOf<T>(dataContent: unknown, key: 'ended' | 'transferred', parse: (v: unknown) => T | undefined): T[] | undefined {
  if (typeof dataContent !== 'string') return undefined;
  let list: unknown;
  try {
    list = (JSON.parse(dataContent) as Record<string, unknown> | null)?.[key];
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  return list.map(parse).filter((c): c is T => c !== undefined);
}

/**
 * The `ended` list of a type 310 snapshot's content; undefined when the snapshot has none (a
 * server that does not keep ended conversations). Malformed entries are left out; never throws.
 */
export function parseRestored(dataContent: unknown): RestoredConversation[] | undefined {
  return listOf(dataContent, 'ended', restored);
}

/**
 * The `transferred` list of a type 310 snapshot's content; undefined when the snapshot has none
 * (a server that does not keep transfers). Malformed entries are left out; never throws.
 */
export function parseTransferred(dataContent: unknown): RestoredTransfer[] | undefined {
  return listOf(dataContent, 'transferred', transferred);
}
