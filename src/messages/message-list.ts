/**
 * The fp-keyed message list of one conversation (protocol §4: "a receiver keeps at most one
 * message per fp").
 * @module
 */
import { Subscribable } from '../state/subscribable.js';
import { fpOf, merge, sortTime } from './message-merge.js';
import { toMillis } from './time.js';
import type { StoredMessage } from './types.js';

/** One row of the sorted array. `rank` 0 = timed, 1 = pending (kept after the rest). */
interface Entry {
  /** The fp, or the generated key of a message without fp. */
  key: string;
  /** Whether `key` was generated. */
  local: boolean;
  msg: StoredMessage;
  rank: 0 | 1;
  /** Sort time in ms (0 for pending rows). */
  time: number;
  /** Insertion counter: ties between equal times, and the send order of pending rows. */
  seq: number;
}

/** Order: timed rows by time, then pending rows; equal times by insertion order. */
function compare(a: Entry, b: Entry): number {
  return a.rank - b.rank || a.time - b.time || a.seq - b.seq;
}

/** Above this many new messages in one `upsertMany` (and a quarter of the list), sort once instead. */
const BULK_THRESHOLD = 64;

/** The start of the key a message without an fp is held under. */
const LOCAL_KEY_PREFIX = '~local:';
/** Its first character's code: a key that does not start with it is no generated key. */
const LOCAL_KEY_CHAR = 0x7e;

/**
 * The messages of one conversation, at most one per fp, in display order.
 *
 * - **Merge by fp.** `upsert` of a known fp merges (see the rules on {@link MessageList.upsert});
 *   a duplicate is never shown twice. Messages without fp get a generated key (see
 *   {@link MessageList.keyOf}) and are never merged.
 * - **Order.** By time (`createTime`, else `times`, in ms), equal times in insertion order;
 *   pending local messages (no server `createTime` yet) after the rest, in send order. An
 *   acknowledgement moves a message to its time.
 * - **React.** `subscribe` and `getSnapshot` fit `useSyncExternalStore`. The snapshot is a frozen
 *   array whose identity changes only when the content changed, and a message keeps its object
 *   identity until it changes, so a memoised row re-renders only for its own message. Treat stored
 *   messages as immutable; change them through `upsert` and `patch`.
 *
 * Performance: a message is placed by binary search (appending, the usual case, is a push);
 * nothing is re-sorted per message, and a large `upsertMany` sorts once. `getSnapshot` copies the
 * n references once per notification, lazily; a burst of incoming frames notifies at most twice
 * ({@link MessageList.coalesce}). `get`/`has`/`oldestTime` are O(1), `indexOf` O(log n),
 * `newestTime` O(n) once per change.
 */
export class MessageList extends Subscribable {
  private entries: Entry[] = [];
  /** `entries[i].msg`, kept in step so that a snapshot is one fast `slice`. */
  private msgs: StoredMessage[] = [];
  private readonly byFp = new Map<string, Entry>();
  private readonly byLocalKey = new Map<string, Entry>();
  private readonly localKeyOf = new WeakMap<StoredMessage, string>();
  private seq = 0;
  private localSeq = 0;
  private snapshot: readonly StoredMessage[] | null = null;
  private newest: number | undefined | null = null;
  private batching = false;
  private bulk = false;
  private dirty = false;
  /** A burst of {@link MessageList.coalesce} calls is open until {@link MessageList.scheduleEnd} ends it. */
  private burst = false;
  private readonly scheduleEnd: (end: () => void) => void;

  /**
   * @param options - `endBurst` schedules the end of a burst of coalesced changes: by default once
   *   the current microtasks ran (the rest of one network chunk); the client ends it with a
   *   zero-delay timer, so that frames read in separate tasks (a browser's WebSocket hands each
   *   frame to a task of its own) share the burst too.
   */
  constructor(options: { endBurst?: (end: () => void) => void } = {}) {
    super();
    this.scheduleEnd = options.endBurst ?? queueMicrotask;
  }

  /** How many messages the list holds. */
  get size(): number {
    return this.entries.length;
  }

  /**
   * Adds a message, or merges it into the one with the same fp: later fields win, but a server
   * `createTime` already held is kept, `isRead: 1` never goes back to 0, group read lists are
   * united, and a server `createTime` arriving for a pending local message marks it `sent`.
   * @returns the stored message: the very same object as before when nothing changed
   * @throws TypeError when `message` is not an object
   */
  upsert(message: StoredMessage): StoredMessage {
    if (typeof message !== 'object' || message === null) throw new TypeError('MessageList.upsert: the message must be an object');
    const fp = fpOf(message);
    const existing = fp === undefined ? undefined : this.byFp.get(fp);
    return existing ? this.update(existing, merge(existing.msg, message, false)) : this.insert(fp, { ...message });
  }

  /**
   * Upserts several messages (a history page, the missed messages after a reconnect) with one
   * notification. Nothing is applied when an item is not an object.
   * @returns the stored messages, in the order given
   * @throws TypeError when `messages` is not an array of objects
   */
  upsertMany(messages: readonly StoredMessage[]): StoredMessage[] {
    if (!Array.isArray(messages)) throw new TypeError('MessageList.upsertMany: expected an array of messages');
    const bad = messages.findIndex((m) => typeof m !== 'object' || m === null);
    if (bad >= 0) throw new TypeError(`MessageList.upsertMany: the message at index ${bad} is not an object`);
    const outer = !this.batching;
    this.batching = true;
    if (outer && messages.length > BULK_THRESHOLD && messages.length > this.entries.length / 4) this.bulk = true;
    try {
      return messages.map((m) => this.upsert(m));
    } finally {
      if (outer) {
        this.batching = false;
        if (this.bulk) {
          this.bulk = false;
          this.entries.sort(compare);
          this.msgs = this.entries.map((e) => e.msg);
        }
        if (this.dirty) this.emit();
      }
    }
  }

  /**
   * Runs a change nobody waits on synchronously, such as an incoming frame. The first such change
   * notifies at once, like any other; the ones that follow it before the burst ends (by default
   * once the current microtasks have run: the rest of a burst read from one network chunk; see the
   * constructor's `endBurst`) notify together, once, when it ends: one new snapshot for the burst
   * instead of one per frame. Any other change still notifies at once (and its readers then see
   * the deferred changes too). Reads (`getSnapshot`, `get`) always see every change.
   * @returns what `change` returns
   */
  coalesce<T>(change: () => T): T {
    return this.inBurst(change, undefined);
  }

  /**
   * `coalesce(() => upsert(message))` without a closure per call: how incoming frames are stored.
   * @returns the stored message (see {@link MessageList.upsert})
   */
  upsertCoalesced(message: StoredMessage): StoredMessage {
    return this.inBurst(this.upsert, message);
  }

  /** Runs `change(arg)` in the current burst (see {@link MessageList.coalesce}), opening one if none is. */
  private inBurst<A, T>(change: (this: MessageList, arg: A) => T, arg: A): T {
    if (!this.burst) {
      this.burst = true;
      this.scheduleEnd(this.endBurst);
      return change.call(this, arg); // the first change of a burst notifies at once
    }
    if (this.batching) return change.call(this, arg);
    this.batching = true;
    try {
      return change.call(this, arg);
    } finally {
      this.batching = false; // dirty stays set: the end of the burst (or any change before it) notifies
    }
  }

  /** The end of a burst: one notification for the changes it deferred. */
  private readonly endBurst = (): void => {
    this.burst = false;
    if (this.dirty && !this.batching) this.emit();
  };

  /** The message with this fp (or generated key), if held. */
  get(fp: string): StoredMessage | undefined {
    return this.find(fp)?.msg;
  }

  /** Whether a message with this fp (or generated key) is held. */
  has(fp: string): boolean {
    return this.find(fp) !== undefined;
  }

  /**
   * The key of a held message: its fp, or the key generated for a message without fp (stable for
   * as long as the message is held; use it as a React key).
   */
  keyOf(message: StoredMessage): string | undefined {
    const fp = fpOf(message);
    if (fp !== undefined) return this.byFp.has(fp) ? fp : undefined;
    return this.localKeyOf.get(message);
  }

  /** The display position of a message (its index in the snapshot), or -1. */
  indexOf(fp: string): number {
    const entry = this.find(fp);
    return entry ? this.position(entry) : -1;
  }

  /**
   * Changes fields of a held message with the merge rules of {@link MessageList.upsert}; here a
   * key given as `undefined` removes that field (e.g. `{ failReason: undefined }`).
   * @returns the updated message, or `undefined` when no message has this fp
   */
  patch(fp: string, partial: Partial<StoredMessage>): StoredMessage | undefined {
    const entry = this.find(fp);
    if (!entry) return undefined;
    if (typeof partial !== 'object' || partial === null) throw new TypeError('MessageList.patch: the patch must be an object');
    return this.update(entry, merge(entry.msg, partial, true));
  }

  /** Removes a message. @returns whether it was held */
  remove(fp: string): boolean {
    const entry = this.find(fp);
    if (!entry) return false;
    const at = this.position(entry);
    this.entries.splice(at, 1);
    this.msgs.splice(at, 1);
    (entry.local ? this.byLocalKey : this.byFp).delete(entry.key);
    this.changed();
    return true;
  }

  /** Removes every message. */
  clear(): void {
    if (this.entries.length === 0) return;
    this.entries = [];
    this.msgs = [];
    this.byFp.clear();
    this.byLocalKey.clear();
    this.changed();
  }

  /**
   * The newest server `createTime` held, in ms: fetch what is newer than this after a reconnect
   * (protocol §4). Messages known only by the sender's `times` do not count.
   */
  newestTime(): number | undefined {
    if (this.newest === null) {
      let max: number | undefined;
      for (const e of this.entries) {
        const t = toMillis(e.msg.createTime);
        if (t !== undefined && (max === undefined || t > max)) max = t;
      }
      this.newest = max;
    }
    return this.newest;
  }

  /**
   * The highest per-conversation `seq` held (messages of a server that stamps it), or undefined:
   * gap-fill asks for what is after it, whatever the servers' clocks say.
   * @param exceptFrom - leave out the messages of this sender (the own ones)
   */
  newestSeq(exceptFrom?: string): number | undefined {
    let max: number | undefined;
    for (const e of this.entries) {
      const s = e.msg.seq;
      if (typeof s === 'number' && Number.isFinite(s) && (max === undefined || s > max) && (exceptFrom === undefined || e.msg.from !== exceptFrom)) max = s;
    }
    return max;
  }

  /** The time of the oldest timed message, in ms: page older history from here (`before`). */
  oldestTime(): number | undefined {
    const first = this.entries[0];
    return first && first.rank === 0 ? first.time : undefined;
  }

  /** The messages in display order; a new array only after a change. Bound, like `subscribe`. */
  readonly getSnapshot = (): readonly StoredMessage[] => {
    this.snapshot ??= Object.freeze(this.msgs.slice());
    return this.snapshot;
  };

  /**
   * Looks an entry up by fp, then by generated key (only a key that starts like one, `~local:`:
   * an incoming fp costs one lookup, not two).
   */
  private find(key: string): Entry | undefined {
    if (typeof key !== 'string') return undefined;
    const entry = this.byFp.get(key);
    return entry !== undefined || key.charCodeAt(0) !== LOCAL_KEY_CHAR ? entry : this.byLocalKey.get(key);
  }

  /** Adds a new entry at its place. */
  private insert(fp: string | undefined, msg: StoredMessage): StoredMessage {
    let key = fp;
    if (key === undefined) {
      key = `${LOCAL_KEY_PREFIX}${++this.localSeq}`;
      this.localKeyOf.set(msg, key);
    }
    const time = sortTime(msg);
    // Built field by field (no spread): every entry has one shape, which keeps `compare` fast.
    const entry: Entry = { key, local: fp === undefined, msg, rank: time === undefined ? 1 : 0, time: time ?? 0, seq: ++this.seq };
    (entry.local ? this.byLocalKey : this.byFp).set(key, entry);
    const at = this.bulk ? -1 : this.insertionPoint(entry);
    if (at === -1 || at === this.entries.length) {
      // At the end (the usual case for an incoming message), or sorted at the end of a bulk batch.
      this.entries.push(entry);
      this.msgs.push(msg);
    } else {
      this.entries.splice(at, 0, entry);
      this.msgs.splice(at, 0, msg);
    }
    this.changed();
    return msg;
  }

  /** Stores a merged message, moving it when its sort key changed. */
  private update(entry: Entry, msg: StoredMessage): StoredMessage {
    if (msg === entry.msg) return msg;
    if (entry.local) this.localKeyOf.set(msg, entry.key);
    const time = sortTime(msg);
    const rank = time === undefined ? 1 : 0;
    const moves = rank !== entry.rank || (time ?? 0) !== entry.time;
    if (this.bulk) {
      entry.rank = rank;
      entry.time = time ?? 0;
    } else if (moves) {
      const from = this.position(entry);
      this.entries.splice(from, 1);
      this.msgs.splice(from, 1);
      entry.rank = rank;
      entry.time = time ?? 0;
      const to = this.insertionPoint(entry);
      this.entries.splice(to, 0, entry);
      this.msgs.splice(to, 0, msg);
    } else {
      this.msgs[this.position(entry)] = msg;
    }
    entry.msg = msg;
    this.changed();
    return msg;
  }

  /** First index whose entry sorts after `entry` (binary search; O(1) when it goes last). */
  private insertionPoint(entry: Entry): number {
    const list = this.entries;
    const last = list[list.length - 1];
    if (!last || compare(last, entry) < 0) return list.length;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(list[mid] as Entry, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of a held entry (binary search on its unique sort key). */
  private position(entry: Entry): number {
    if (this.bulk) return this.entries.indexOf(entry);
    const i = this.insertionPoint(entry);
    return this.entries[i] === entry ? i : this.entries.indexOf(entry);
  }

  /** Invalidates caches and notifies (or defers to the end of the batch). */
  private changed(): void {
    this.snapshot = null;
    this.newest = null;
    if (this.batching) this.dirty = true;
    else this.emit();
  }

  /** Runs the listeners. */
  private emit(): void {
    this.dirty = false;
    this.notify();
  }
}
