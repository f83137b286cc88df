/**
 * A per-key sliding-window rate limiter (the socket's "sending too often" rule, new key sessions
 * and connects per address).
 * @module
 */

/** A rate limit: at most so many hits per key within a time window. */
export interface RateLimiter {
  /** Records a hit for `key` at `now` when allowed; false (and nothing recorded) when over the limit. */
  hit(key: string, now: number): boolean | Promise<boolean>;
  /**
   * Records one hit for every key at `now` when each of them is under the limit; when any is
   * over, records nothing and answers false (a refused event costs no allowance).
   */
  hitAll(keys: readonly string[], now: number): boolean | Promise<boolean>;
  /** Forgets keys with no hit in the window. */
  sweep(now: number): void;
}

/** Allows at most `max` hits per key within any `windowMs`, in this process's memory. */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Records a hit for `key` at `now` when allowed; false (and nothing recorded) when over the limit. */
  hit(key: string, now: number): boolean {
    return this.hitAll([key], now);
  }

  /**
   * Records one hit for every key at `now` when each of them is under the limit; when any is
   * over, records nothing and answers false (a refused event costs no allowance).
   */
  hitAll(keys: readonly string[], now: number): boolean {
    if (now - this.lastSweep > this.windowMs) this.sweep(now);
    const since = now - this.windowMs;
    const lists = keys.map((key) => {
      const list = (this.hits.get(key) ?? []).filter((t) => t > since);
      this.hits.set(key, list);
      return list;
    });
    if (lists.some((list) => list.length >= this.max)) return false;
    for (const list of lists) list.push(now);
    return true;
  }

  /** Forgets keys with no hit in the window (bounded memory; also done by {@link hitAll} once per window). */
  sweep(now: number): void {
    this.lastSweep = now;
    const since = now - this.windowMs;
    for (const [key, list] of this.hits) {
      if (!list.some((t) => t > since)) this.hits.delete(key);
    }
  }

  /** How many keys are tracked (tests). */
  get size(): number {
    return this.hits.size;
  }
}
