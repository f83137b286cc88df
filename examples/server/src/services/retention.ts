/**
 * Retention: conversations and their files older than N days are deleted (`RETENTION_DAYS`, or
 * `retention set` of the admin command, which wins; 0 keeps everything). Every node checks once
 * per `RETENTION_INTERVAL_MS`; the periods are the same on every node (`floor(time / interval)`)
 * and a run first claims its period in the store (one row per period, an insert that only one
 * node can make), so the cluster runs it exactly once per period, on SQLite and PostgreSQL alike,
 * whatever Redis does. The deletion goes in batches, each one transaction, so that no table is
 * locked for long; files go from disk only when no kept message or complaint names them. What
 * belonged to a deleted row goes with it: a deleted session's transfer records, and a member row
 * (protocol §3b) whose visitor row is gone.
 * @module
 */

import { ApiError, Code } from '../http/envelope.js';
import { MAX_RETENTION_DAYS } from '../privacy-config.js';
import type { DeletedRows, RetentionRun } from '../store/privacy-types.js';
import type { Store } from '../store/types.js';

/** The store setting (`meta`) that holds the days set with the admin command: `''` means "as `RETENTION_DAYS`". */
export const RETENTION_DAYS_META = 'retention_days';

/** A day in ms. */
export const DAY_MS = 86_400_000;

/** Runs kept in the store (older ones are forgotten). */
const RUNS_KEPT = 1000;

/** The retention in force and where it comes from. */
export interface RetentionSetting {
  /** Days kept; 0 keeps everything. */
  days: number;
  /** `store` when set with the admin command, `env` when from `RETENTION_DAYS`. */
  source: 'store' | 'env';
}

/** What one check of a period did. */
export type RetentionOutcome =
  | {
      /** Nothing ran. */
      ran: false;
      /** `off`: retention is off (0 days); `claimed`: another node (or an earlier check) ran this period. */
      reason: 'off' | 'claimed';
      /** The period checked. */
      period: number;
    }
  | {
      /** This node ran the period. */
      ran: true;
      /** The period run. */
      period: number;
      /** Everything older than this (ms) was deleted. */
      cutoff: number;
      /** Rows deleted by table, and `files` removed from disk. */
      deleted: DeletedRows;
      /** How long it took (ms). */
      ms: number;
    };

/** What retention needs. */
export interface RetentionDeps {
  /** Storage. */
  store: Store;
  /** The uploaded files on disk. */
  files: { deleteFile(storedName: string): Promise<boolean> };
  /** This node's name (`NODE_ID`), written with the runs it claims. */
  nodeId: string;
  /** `RETENTION_DAYS` (0: off), used while the admin command set none. */
  envDays: number;
  /** `RETENTION_INTERVAL_MS`: the length of a period. */
  intervalMs: number;
  /** Rows per table and batch (default 500). */
  batchSize?: number;
  /** The wall clock. */
  now?: () => number;
}

/** Adds `b`'s counts into `a`. */
function addRows(a: DeletedRows, b: DeletedRows): void {
  for (const [table, n] of Object.entries(b)) a[table] = (a[table] ?? 0) + n;
}

/** The retention service (see the module comment). */
export class Retention {
  private readonly now: () => number;
  private readonly batchSize: number;
  private running: Promise<unknown> | null = null;
  /** Set by the stop function: a running purge ends after its current batch. */
  private stopping = false;

  /** @param deps - the store, the files, this node and the settings */
  constructor(private readonly deps: RetentionDeps) {
    this.now = deps.now ?? Date.now;
    this.batchSize = deps.batchSize ?? 500;
  }

  /** The retention in force: the admin command's, else `RETENTION_DAYS`. */
  async setting(): Promise<RetentionSetting> {
    const stored = (await this.deps.store.meta(RETENTION_DAYS_META)) ?? '';
    const days = Number(stored);
    if (stored !== '' && Number.isInteger(days) && days >= 0 && days <= MAX_RETENTION_DAYS) return { days, source: 'store' };
    return { days: this.deps.envDays, source: 'env' };
  }

  /**
   * Sets the retention in the store (every node reads it at its next check), or with `'default'`
   * goes back to `RETENTION_DAYS`.
   * @throws ApiError 1001 for days outside 0..36500.
   */
  async set(days: number | 'default'): Promise<RetentionSetting> {
    if (days !== 'default' && (!Number.isInteger(days) || days < 0 || days > MAX_RETENTION_DAYS)) {
      throw new ApiError(Code.BadRequest, `Bad request: retention is a whole number of days between 0 (keep everything) and ${MAX_RETENTION_DAYS}`);
    }
    await this.deps.store.setMeta(RETENTION_DAYS_META, days === 'default' ? '' : String(days));
    return this.setting();
  }

  /** The period a time falls in. */
  periodOf(time: number): number {
    return Math.floor(time / this.deps.intervalMs);
  }

  /**
   * Checks the period of `now`: when retention is on and no node has run the period yet, claims
   * it, deletes everything older than the retention, and records what it deleted.
   */
  async runOnce(now: number = this.now()): Promise<RetentionOutcome> {
    const period = this.periodOf(now);
    const { days } = await this.setting();
    if (days === 0) return { ran: false, reason: 'off', period };
    const cutoff = now - days * DAY_MS;
    const { store } = this.deps;
    if (!(await store.privacy.claimRetentionRun({ period, node: this.deps.nodeId, cutoff, startedAt: now }))) {
      return { ran: false, reason: 'claimed', period };
    }
    const started = performance.now();
    const deleted = await this.purge(cutoff);
    await store.privacy.finishRetentionRun(period, this.now(), deleted);
    await store.privacy.forgetRetentionRuns(period - RUNS_KEPT);
    return { ran: true, period, cutoff, deleted, ms: performance.now() - started };
  }

  /**
   * Deletes everything older than `cutoff` (ms) now, whatever the period (the admin command's
   * `retention run`): rows in batches, then the files they named and the files uploaded before
   * it, unless a kept message or complaint names them.
   * @returns rows deleted by table, and `files` removed from disk
   */
  async purge(cutoff: number): Promise<DeletedRows> {
    const { store, files } = this.deps;
    const deleted: DeletedRows = {};
    const candidates = new Set<string>();
    for (let more = true; more && !this.stopping; ) {
      const batch = await store.privacy.expireBefore(cutoff, this.batchSize);
      addRows(deleted, batch.rows);
      for (const name of batch.files) candidates.add(name);
      more = batch.more;
      // SQLite answers synchronously: let sockets and requests in between batches
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (let after = '', full = !this.stopping; full; ) {
      const page = await store.privacy.uploadedFilesBefore(cutoff, after, this.batchSize);
      for (const file of page) candidates.add(file.storedName);
      after = page.at(-1)?.storedName ?? after;
      full = page.length === this.batchSize;
    }
    let removed = 0;
    const inUse = new Set(await store.privacy.filesInUse([...candidates]));
    for (const name of candidates) {
      if (inUse.has(name)) continue;
      if (await files.deleteFile(name)) removed += 1;
      if (await store.privacy.deleteUploadedFile(name)) addRows(deleted, { uploaded_files: 1 });
    }
    if (removed > 0) deleted['files'] = removed;
    return deleted;
  }

  /** The latest runs of the cluster, newest first. */
  runs(limit = 10): Promise<RetentionRun[]> {
    return this.deps.store.privacy.retentionRuns(limit);
  }

  /**
   * Checks every {@link RetentionDeps.intervalMs} (the first check a second after the start), one
   * check at a time; the timers do not keep the process alive.
   * @param onError - where a failed check is reported
   * @returns the stop function: no further check starts, a running one ends after its current
   *   batch (what it deleted so far is recorded), and it resolves once it ended
   */
  start(onError: (error: unknown) => void): () => Promise<void> {
    const tick = (): void => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch(onError)
        .finally(() => {
          this.running = null;
        });
    };
    const first = setTimeout(tick, Math.min(1_000, this.deps.intervalMs));
    const every = setInterval(tick, this.deps.intervalMs);
    first.unref();
    every.unref();
    return async () => {
      this.stopping = true;
      clearTimeout(first);
      clearInterval(every);
      await this.running;
    };
  }
}
