/**
 * Readers of structured `dataContent` (protocol §5, docs/protocol.md §6) and message
 * classification. Every reader validates what it reads and returns `null` (or an empty list) for
 * anything malformed: wire data never makes them throw.
 * @module
 */
export { isChatType, messageTimeMs } from './chat-type.js';
import { toMillis } from './time.js';
import type {
  AgentQueueSnapshot,
  AgentSession,
  ChatMessage,
  FileContent,
  QueueEntry,
  RefusalReason,
  SessionEvent,
  SuggestedQuestion,
} from './types.js';

/** A plain JSON object (not an array, not null). */
type JsonObject = Record<string, unknown>;

/** JSON.parse that never throws. */
function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a value is a plain object. */
function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-negative finite number (numeric strings accepted), else undefined. */
function nonNegative(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The last path segment of a URL, decoded when possible. */
function nameFromUrl(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * Reads the JSON content of a file (102) or video (103) message, `{ name, size, url, mime }`.
 * `url` is required (a non-empty string); a missing `name` is taken from the URL, a missing `size`
 * is 0 and a missing `mime` is `''`.
 * @returns the content, or `null` when it is not such JSON (never throws)
 */
export function parseFileContent(dataContent: string | undefined): FileContent | null {
  const v = parseJson(dataContent);
  if (!isObject(v)) return null;
  const { url, name, size, mime } = v;
  if (typeof url !== 'string' || url.trim() === '') return null;
  if (name !== undefined && typeof name !== 'string') return null;
  if (mime !== undefined && typeof mime !== 'string') return null;
  const bytes = size === undefined ? 0 : nonNegative(size);
  if (bytes === undefined) return null;
  return { name: name === undefined || name === '' ? nameFromUrl(url) : name, size: bytes, url, mime: mime ?? '' };
}

/**
 * Reads the suggested questions of a type 201 message, JSON `[{ id, question }]`. Entries without
 * a string or number `id` and a non-empty string `question` are skipped.
 * @returns the questions, `[]` when the content is not such a list (never throws)
 */
export function parseSuggestions(dataContent: string | undefined): SuggestedQuestion[] {
  const v = parseJson(dataContent);
  if (!Array.isArray(v)) return [];
  const out: SuggestedQuestion[] = [];
  for (const item of v) {
    if (!isObject(item)) continue;
    const { id, question } = item;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof question !== 'string' || question === '') continue;
    out.push({ id, question });
  }
  return out;
}

/**
 * Reads a type 300 session event, JSON `{ event, sessionId?, position?, busy?, agent? }`.
 * Optional fields of the wrong type are dropped; other fields are kept as they are.
 * @returns the event, or `null` when there is no string `event` (never throws)
 */
export function parseSessionEvent(dataContent: string | undefined): SessionEvent | null {
  const v = parseJson(dataContent);
  if (!isObject(v) || typeof v.event !== 'string' || v.event === '') return null;
  const out: SessionEvent = { ...v, event: v.event };
  if (v.sessionId !== undefined && typeof v.sessionId !== 'string') {
    if (typeof v.sessionId === 'number') out.sessionId = String(v.sessionId);
    else delete out.sessionId;
  }
  const position = nonNegative(v.position);
  if (position === undefined) delete out.position;
  else out.position = position;
  if (typeof v.busy !== 'boolean') delete out.busy;
  const agent = v.agent;
  if (isObject(agent) && (typeof agent.id === 'string' || typeof agent.id === 'number') && typeof agent.name === 'string') {
    out.agent = { id: String(agent.id), name: agent.name };
    if (typeof agent.avatar === 'string') out.agent.avatar = agent.avatar;
  } else {
    delete out.agent;
  }
  return out;
}

/** The parsed content of a refusal (type 500). */
export interface Refusal {
  /** Why the server refused (`too-frequent`, `blank`, `blacklisted`, `banned`, ...). */
  reason: RefusalReason;
  /** The refused message's fingerprint, when the refusal names one. */
  fp?: string;
}

/**
 * Reads a type 500 refusal, JSON `{ reason, fp }`. Reasons beyond the known ones are kept (callers
 * treat them as a generic send failure).
 * @returns `{ reason, fp? }`, or `null` when there is no string `reason` (never throws)
 */
export function parseRefusal(dataContent: string | undefined): Refusal | null {
  const v = parseJson(dataContent);
  if (!isObject(v) || typeof v.reason !== 'string' || v.reason === '') return null;
  return typeof v.fp === 'string' && v.fp !== '' ? { reason: v.reason, fp: v.fp } : { reason: v.reason };
}

/** Reads one queue entry, or undefined. */
function queueEntry(v: unknown, i: number): QueueEntry | undefined {
  if (!isObject(v) || typeof v.clientId !== 'string' || v.clientId === '') return undefined;
  return {
    clientId: v.clientId,
    name: typeof v.name === 'string' ? v.name : v.clientId,
    since: toMillis(v.since as number | string | undefined) ?? 0,
    position: nonNegative(v.position) ?? i + 1,
    ...merchantOf(v),
  };
}

/** The `mchId` and `platformId` of a queue entry or agent session, as strings, when present. */
function merchantOf(v: Record<string, unknown>): { mchId?: string; platformId?: string } {
  const id = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : typeof x === 'number' && Number.isFinite(x) ? String(x) : undefined);
  const mchId = id(v.mchId);
  const platformId = id(v.platformId);
  return { ...(mchId === undefined ? {} : { mchId }), ...(platformId === undefined ? {} : { platformId }) };
}

/** Reads one agent session, or undefined. */
function agentSession(v: unknown): AgentSession | undefined {
  if (!isObject(v) || typeof v.clientId !== 'string' || v.clientId === '') return undefined;
  if (typeof v.sessionId !== 'string' && typeof v.sessionId !== 'number') return undefined;
  return {
    sessionId: String(v.sessionId),
    clientId: v.clientId,
    name: typeof v.name === 'string' ? v.name : v.clientId,
    since: toMillis(v.since as number | string | undefined) ?? 0,
    ...merchantOf(v),
  };
}

/**
 * Reads a type 310 queue and sessions snapshot (agent desk), JSON
 * `{ queue: QueueEntry[], sessions: AgentSession[], online }`. Malformed entries are skipped.
 * @returns the snapshot, or `null` when the content is not such an object (never throws)
 */
export function parseAgentQueue(dataContent: string | undefined): AgentQueueSnapshot | null {
  const v = parseJson(dataContent);
  if (!isObject(v)) return null;
  const queue = Array.isArray(v.queue) ? v.queue : [];
  const sessions = Array.isArray(v.sessions) ? v.sessions : [];
  return {
    queue: queue.map(queueEntry).filter((e): e is QueueEntry => e !== undefined),
    sessions: sessions.map(agentSession).filter((s): s is AgentSession => s !== undefined),
    online: nonNegative(v.online) ?? 0,
  };
}
