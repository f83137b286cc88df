/**
 * The per-identity upload quota (`UPLOAD_QUOTA_BYTES_PER_DAY`, 200 MiB by default): bytes each
 * identity (visitor or agent) may upload per UTC day, kept in the store. A single upload is
 * charged once it is saved; a chunked upload is charged its declared size at `init` (refunded at
 * `abort`). Over the quota: code 3002 and nothing is kept.
 * @module
 */

import type { Store } from '../store/types.js';
import { ApiError, Code } from '../http/envelope.js';

/** The UTC day of `now` as `YYYY-MM-DD`. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The quota error. */
export function quotaExceeded(limit: number): ApiError {
  return new ApiError(Code.UploadQuota, `Upload refused: the daily upload quota (${limit} bytes) is used up; try again tomorrow`);
}

/** Reads and charges the quota. */
export class UploadQuota {
  constructor(
    private readonly store: Store,
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes `identity` may still upload today. */
  async remaining(identity: string): Promise<number> {
    return Math.max(0, this.limit - await this.store.identity.uploadBytes(identity, utcDay(this.now())));
  }

  /**
   * Charges `bytes` to `identity`.
   * @throws ApiError 3002 (nothing charged) when it would exceed the quota.
   */
  async charge(identity: string, bytes: number): Promise<void> {
    if (bytes > (await this.remaining(identity))) throw quotaExceeded(this.limit);
    await this.store.identity.addUploadBytes(identity, utcDay(this.now()), bytes);
  }

  /** Gives `bytes` back (an aborted chunked upload). */
  async refund(identity: string, bytes: number): Promise<void> {
    await this.store.identity.addUploadBytes(identity, utcDay(this.now()), -bytes);
  }

  /** @throws ApiError 3002 when nothing is left. */
  async requireSome(identity: string): Promise<void> {
    if ((await this.remaining(identity)) <= 0) throw quotaExceeded(this.limit);
  }
}
