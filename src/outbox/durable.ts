/**
 * The durable side of the outbox: writes pending messages to an {@link OutboxStorage} in the
 * order they happen, numbers them in composition order, and reads them back after a reload.
 * @module
 */
import type { OutboxRecord, OutboxStorage, PendingFile } from './storage.js';

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
    this.enqueue(() => this.deps.storage.put(scope, record));
  }

  /** Removes a message that was acknowledged, refused or abandoned. */
  drop(fp: string): void {
    const scope = this.scopes.get(fp) ?? this.deps.scope();
    this.scopes.delete(fp);
    this.fileBytes.delete(fp);
    this.enqueue(() => this.deps.storage.remove(scope, fp));
  }

  /** The records of the current scope in composition order; their numbers are taken over. */
  async restore(): Promise<OutboxRecord[]> {
    const scope = this.deps.scope();
    let records: OutboxRecord[];
    try {
      records = await this.deps.storage.load(scope);
    } catch (e) {
      this.deps.onError(e instanceof Error ? e : new Error(String(e)));
      return [];
    }
    records = records.filter((r) => r && typeof r.fp === 'string' && typeof r.seq === 'number' && r.message).sort((a, b) => a.seq - b.seq);
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

  private enqueue(write: () => Promise<void>): void {
    this.queue = this.queue.then(write).catch((e: unknown) => this.deps.onError(e instanceof Error ? e : new Error(String(e))));
  }
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
