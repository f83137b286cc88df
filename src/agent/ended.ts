/**
 * The ended conversations a type 310 snapshot restores (docs/protocol.md §6, `ended`): those of
 * this agent that ended and that it has not closed yet, kept by the server so that a desk shows
 * them again after a reload or on another device, with who ended them and the visitor's rating;
 * and likewise those it transferred to another agent (`transferred`), with whom they went to.
 * @module
 */

/** An entry of a snapshot's `ended` list. */
export interface RestoredConversation {
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
  /** When it ended, ms. */
  readonly endedAt: number;
  /** Who ended it. */
  readonly endedBy?: 'visitor' | 'agent';
  /** The visitor's rating, once given. */
  readonly rating?: { readonly score: number; readonly remark?: string };
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function time(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** One entry, or undefined when it is malformed. */
function restored(v: unknown): RestoredConversation | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const e = v as Record<string, unknown>;
  const sessionId = text(e['sessionId']);
  const clientId = text(e['clientId']);
  const endedAt = time(e['endedAt']);
  if (sessionId === undefined || clientId === undefined || endedAt === undefined) return undefined;
  const score = e['score'];
  const rating: RestoredConversation['rating'] =
    typeof score === 'number' && Number.isInteger(score) && score >= 1 && score <= 5 ? { score, ...(text(e['remark']) ? { remark: text(e['remark']) as string } : {}) } : undefined;
  const endedBy = e['endedBy'] === 'visitor' || e['endedBy'] === 'agent' ? e['endedBy'] : undefined;
  const mchId = text(e['mchId']);
  const platformId = text(e['platformId']);
  return {
    sessionId,
    clientId,
    name: text(e['name']) ?? clientId,
    since: time(e['since']) ?? endedAt,
    ...(mchId === undefined ? {} : { mchId }),
    ...(platformId === undefined ? {} : { platformId }),
    endedAt,
    ...(endedBy === undefined ? {} : { endedBy }),
    ...(rating === undefined ? {} : { rating }),
  };
}

/**
 * The `ended` list of a type 310 snapshot's content; undefined when the snapshot has none (a
 * server that does not keep ended conversations). Malformed entries are left out; never throws.
 */
export function parseRestored(dataContent: unknown): RestoredConversation[] | undefined {
  if (typeof dataContent !== 'string') return undefined;
  let list: unknown;
  try {
    list = (JSON.parse(dataContent) as { ended?: unknown } | null)?.ended;
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  return list.map(restored).filter((c): c is RestoredConversation => c !== undefined);
}

/** An entry of a snapshot's `transferred` list: a conversation this agent handed to another agent. */
export interface RestoredTransfer {
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
  /** When it was transferred, ms. */
  readonly transferredAt: number;
  /** The agent it went to. */
  readonly to: { readonly id: string; readonly name: string };
}

/** One transfer entry, or undefined when it is malformed. */
function transferred(v: unknown): RestoredTransfer | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const e = v as Record<string, unknown>;
  const sessionId = text(e['sessionId']);
  const clientId = text(e['clientId']);
  const transferredAt = time(e['transferredAt']);
  const to = e['to'] !== null && typeof e['to'] === 'object' ? (e['to'] as Record<string, unknown>) : undefined;
  const toId = text(to?.['id']);
  if (sessionId === undefined || clientId === undefined || transferredAt === undefined || toId === undefined) return undefined;
  const mchId = text(e['mchId']);
  const platformId = text(e['platformId']);
  return {
    sessionId,
    clientId,
    name: text(e['name']) ?? clientId,
    since: time(e['since']) ?? transferredAt,
    ...(mchId === undefined ? {} : { mchId }),
    ...(platformId === undefined ? {} : { platformId }),
    transferredAt,
    to: { id: toId, name: text(to?.['name']) ?? toId },
  };
}

/**
 * The `transferred` list of a type 310 snapshot's content; undefined when the snapshot has none
 * (a server that does not keep transfers). Malformed entries are left out; never throws.
 */
export function parseTransferred(dataContent: unknown): RestoredTransfer[] | undefined {
  if (typeof dataContent !== 'string') return undefined;
  let list: unknown;
  try {
    list = (JSON.parse(dataContent) as { transferred?: unknown } | null)?.transferred;
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  return list.map(transferred).filter((c): c is RestoredTransfer => c !== undefined);
}
