/**
 * A per-key sliding-window rate limiter (the socket's "sending too often" rule).
 * @module
 */

/** Allows at most `max` hits per key within any `windowMs`. */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Records a hit for `key` at `now` when allowed; false (and nothing recorded) when over the limit. */
  hit(key: string, now: number): boolean {
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.max) {
      this.hits.set(key, list);
      return false;
    }
    list.push(now);
    this.hits.set(key, list);
    return true;
  }

  /** Forgets keys with no hit in the window (bounded memory). */
  sweep(now: number): void {
    const since = now - this.windowMs;
    for (const [key, list] of this.hits) {
      if (!list.some((t) => t > since)) this.hits.delete(key);
    }
  }
}
