/**
 * How the message list reads a message: its fp, where it sorts, and how a second copy of it is
 * merged into the one held (protocol §4). Pure functions.
 * @module
 * @internal
 */
import { toMillis } from './time.js';
import type { GroupReadEntry, StoredMessage } from './types.js';

/** The fp of a message, when it has a usable one. @internal */
export function fpOf(message: StoredMessage): string | undefined {
  const fp: unknown = message.fp;
  if (typeof fp === 'string' && fp !== '') return fp;
  if (typeof fp === 'number' && Number.isFinite(fp)) return String(fp);
  return undefined;
}

/**
 * Where a message sorts: its time, or `undefined` for a pending row. Timed: the server's
 * `createTime`, else the sender's `times`. Pending (after every timed row, in send order): a local
 * outgoing message (it has a `sendState`) that has no server `createTime` yet, and any message
 * with no readable time at all. (A number, not a `{ rank, time }` object: this runs per message.)
 * @internal
 */
export function sortTime(msg: StoredMessage): number | undefined {
  const created = toMillis(msg.createTime);
  if (created !== undefined) return created;
  return msg.sendState === undefined ? toMillis(msg.times) : undefined;
}

/** Union of two read lists by clientId; returns `prev` itself when nothing is new. */
function mergeReadList(prev: GroupReadEntry[] | undefined, next: unknown): GroupReadEntry[] | undefined {
  if (!Array.isArray(next)) return prev;
  if (!prev) return next as GroupReadEntry[];
  const seen = new Set(prev.map((e) => e?.clientId));
  const added = (next as GroupReadEntry[]).filter((e) => e && !seen.has(e.clientId) && seen.add(e.clientId));
  return added.length === 0 ? prev : [...prev, ...added];
}

/**
 * Merges `next` into `prev` (protocol §4): later fields win, but a server `createTime` already
 * held is kept, `isRead: 1` never goes back to 0, group read lists only grow, and the fp never
 * changes. When `next` gives a server `createTime` to a pending or failed local message and says
 * nothing about `sendState`, the message becomes `sent` (the server's acknowledgement). A
 * `failReason` is dropped once the message is not failed. `undefined` values are ignored, unless
 * `deleteUndefined` (used by `patch`), where they remove the field.
 * @returns `prev` itself when nothing changed
 * @internal
 */
export function merge(prev: StoredMessage, next: Partial<StoredMessage>, deleteUndefined: boolean): StoredMessage {
  const out: StoredMessage = { ...prev };
  let changed = false;
  const hadCreateTime = toMillis(prev.createTime) !== undefined;
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (key === 'fp' || (key === 'createTime' && hadCreateTime)) continue;
    if (key === 'isRead' && prev.isRead === 1 && value !== 1) continue;
    if (value === undefined) {
      if (deleteUndefined && key in out && key !== 'type') {
        delete out[key];
        changed = true;
      }
      continue;
    }
    const merged = key === 'imGroupMsgReadList' ? mergeReadList(prev.imGroupMsgReadList, value) : value;
    if (!Object.is(out[key], merged)) {
      out[key] = merged;
      changed = true;
    }
  }
  const acked = !hadCreateTime && toMillis(out.createTime) !== undefined;
  if (acked && next.sendState === undefined && (out.sendState === 'pending' || out.sendState === 'failed')) {
    out.sendState = 'sent';
    changed = true;
  }
  if (out.failReason !== undefined && out.sendState !== 'failed') {
    delete out.failReason;
    changed = true;
  }
  return changed ? out : prev;
}
