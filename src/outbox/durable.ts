/**
 * The durable side of the outbox: writes pending messages to an {@link OutboxStorage} in the
 * order they happen, numbers them in composition order, and reads them back after a reload.
 * @module
 */
import type { StorageLike } from '../options.js';
import type { OutboxRecord, OutboxStorage, PendingFile } from './storage.js';

/** Storage key prefix of the journal of pending texts (the visitor's scope follows it). */
export const OUTBOX_JOURNAL_PREFIX = 'kefu-im:outbox:';

/** What {@link DurableOutbox} needs. @internal */
export interface DurableOutboxDeps {
  storage: OutboxStorage;
  /** The scope of the current visitor (client id, merchant, platform). */
  scope(): string;
  /** Wall-clock ms: composition numbers start from it, so they grow across reloads. */
  now(): number;
  /** Total bytes of files kept for an upload after a reload. */
  fileCap: number;
  /** A storage call failed (the message stays pending in memory). */
  onError(error: Error): void;
  /**
   * Synchronous storage (the client's, `localStorage` in a browser) noting each pending text the
   * moment it is composed, until its write to `storage` has landed: an IndexedDB write is
   * asynchronous, and a tab closed right after "send" aborts it.
   */
  journal?: StorageLike;
}

/**
 * Keeps the pending messages of one visitor in storage. Writes are queued, so a put and the
 * remove that follows it reach the storage in that order.
 * @internal
 */
export class DurableOutbox {
  private readonly seqs = new Map<string, number>();
  private readonly scopes = new Map<string, string>();
  private readonly fileBytes = new Map<string, number>();
  private lastSeq = 0;
  private queue: Promise<void> = Promise.resolve();

  /** @param deps - the storage, the scope and the clock */
  constructor(
    /** The storage, the scope and the clock (the identity switch forgets a scope through them). @internal */
    readonly deps: DurableOutboxDeps,
  ) {}

  /** The composition number of a message, drawn at its first call (increasing, never reused). */
  seqOf(fp: string): number {
    let seq = this.seqs.get(fp);
    if (seq === undefined) {
      seq = Math.max(this.deps.now(), this.lastSeq + 1);
      this.lastSeq = seq;
      this.seqs.set(fp, seq);
    }
    return seq;
  }

  /**
   * Whether a file of `size` bytes fits under the cap with the files already kept.
   * @param fp - the message the file belongs to (its own earlier size does not count)
   */
  fits(fp: string, size: number): boolean {
    let total = size;
    for (const [other, bytes] of this.fileBytes) if (other !== fp) total += bytes;
    return total <= this.deps.fileCap;
  }

  /** Writes a pending message (and its file, if any) under the current scope. */
  keep(message: OutboxRecord['message'] & { fp: string }, file?: PendingFile): void {
    const scope = this.deps.scope();
    const record: OutboxRecord = { fp: message.fp, seq: this.seqOf(message.fp), message, ...(file ? { file } : {}) };
    this.scopes.set(message.fp, scope);
    if (file?.blob) this.fileBytes.set(message.fp, file.blob.size);
    else this.fileBytes.delete(message.fp);
    this.put(scope, record);
  }

  /** Removes a message that was acknowledged, refused or abandoned. */
  drop(fp: string): void {
    const scope = this.scopes.get(fp) ?? this.deps.scope();
    this.scopes.delete(fp);
    this.fileBytes.delete(fp);
    this.note(scope, fp);
    this.enqueue(() => this.deps.storage.remove(scope, fp));
  }

  /** Forgets every pending message of a scope, noted or stored (a reset: the member logged out). */
  async forget(scope: string): Promise<void> {
    try {
      this.deps.journal?.removeItem(OUTBOX_JOURNAL_PREFIX + scope);
    } catch {
      // an unavailable storage holds nothing to forget
    }
    const { storage } = this.deps;
    const records = await storage.load(scope);
    await Promise.all(records.map((record) => storage.remove(scope, record.fp)));
  }

  /** The records of the current scope in composition order; their numbers are taken over. */
  async restore(): Promise<OutboxRecord[]> {
    const scope = this.deps.scope();
    let records: OutboxRecord[];
    try {
      records = await this.deps.storage.load(scope);
    } catch (e) {
      this.deps.onError(e instanceof Error ? e : new Error(String(e)));
      records = [];
    }
    // A text noted but not stored (its tab closed before the write landed) is stored now.
    const stored = new Set(records.map((r) => r?.fp));
    for (const noted of Object.values(this.notes(scope))) {
      if (!isRecord(noted) || stored.has(noted.fp)) continue;
      records.push(noted);
      this.put(scope, noted);
    }
    records = records.filter(isRecord).sort((a, b) => a.seq - b.seq);
    for (const r of records) {
      this.seqs.set(r.fp, r.seq);
      this.scopes.set(r.fp, scope);
      if (r.file?.blob) this.fileBytes.set(r.fp, r.file.blob.size);
      this.lastSeq = Math.max(this.lastSeq, r.seq);
    }
    return records;
  }

  /** Resolves once every write queued so far reached the storage. */
  flush(): Promise<void> {
    return this.queue;
  }

  /** Notes a text in the journal at once and stores it; the note goes once the write landed. */
  private put(scope: string, record: OutboxRecord): void {
    if (!record.file) this.note(scope, record.fp, record);
    this.enqueue(() => this.deps.storage.put(scope, record).then(() => this.note(scope, record.fp)));
  }

  /** The texts noted in the journal for a scope, by fingerprint. */
  private notes(scope: string): Record<string, OutboxRecord> {
    try {
      const notes: unknown = JSON.parse(this.deps.journal?.getItem(OUTBOX_JOURNAL_PREFIX + scope) ?? '{}');
      return notes && typeof notes === 'object' && !Array.isArray(notes) ? (notes as Record<string, OutboxRecord>) : {};
    } catch {
      return {};
    }
  }

  /** Notes a text in the journal (with `record`) or removes its note (without). */
  private note(scope: string, fp: string, record?: OutboxRecord): void {
    const { journal } = this.deps;
    if (!journal) return;
    const notes = this.notes(scope);
    if (record) notes[fp] = record;
    else if (fp in notes) delete notes[fp];
    else return;
    const key = OUTBOX_JOURNAL_PREFIX + scope;
    try {
      if (Object.keys(notes).length === 0) journal.removeItem(key);
      else journal.setItem(key, JSON.stringify(notes));
    } catch {
      // a full or unavailable storage: the IndexedDB write still keeps the text once it lands
    }
  }

  private enqueue(write: () => Promise<void>): void {
    this.queue = this.queue.then(write).catch((e: unknown) => this.deps.onError(e instanceof Error ? e : new Error(String(e))));
  }
}

/** Whether a value read back from storage has the shape of an {@link OutboxRecord}. */
function isRecord(r: unknown): r is OutboxRecord {
  const record = r as Partial<OutboxRecord> | null;
  return typeof record === 'object' && record !== null && typeof record.fp === 'string' && typeof record.seq === 'number' && typeof record.message === 'object' && record.message !== null;
}

/**
 * The scope of a visitor's pending messages: the client id with the merchant, platform and group
 * of the connect data; an agent's are its account's (`agent:<account>`).
 * @internal
 */
export function outboxScope(clientId: string, connectData: Readonly<Record<string, unknown>>): string {
  // An agent's texts belong to its account, not to the page's random client id: a reload (a new
  // client id, the same account) restores and sends them.
  const part = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  if (connectData.role === 'agent') return `agent:${part(connectData.account)}`;
  return [clientId, part(connectData.mchId), part(connectData.platformId), part(connectData.groupId)].join('|');
}
