/**
 * A sliding-window rate limiter kept in Redis, so that every node of a cluster counts against
 * one allowance: the same rule as {@link SlidingWindowLimiter} (at most `max` hits per key in any
 * `windowMs`; a refused hit records nothing), run atomically as one Lua script per call.
 *
 * While Redis does not answer, the node counts in its own memory instead (the limits then hold
 * per node): chat goes on through a Redis outage, and is never let through unlimited.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SlidingWindowLimiter, type RateLimiter } from '../socket/rate-limiter.js';

const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= max then return 0 end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
end
return 1
`;

/** A {@link RateLimiter} shared by the nodes through Redis. */
export class RedisWindowLimiter implements RateLimiter {
  /** Counts while Redis does not answer. */
  private readonly local: SlidingWindowLimiter;

  /**
   * @param redis - a connected client
   * @param name - the limit's name, with the cluster's prefix (keys are `<name>:<key>`)
   * @param max - hits allowed per window
   * @param windowMs - the window
   * @param onError - told when Redis fails and the node counts alone
   */
  constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.local = new SlidingWindowLimiter(max, windowMs);
  }

  /** {@inheritDoc RateLimiter.hit} */
  hit(key: string, now: number): Promise<boolean> {
    return this.hitAll([key], now);
  }

  /** {@inheritDoc RateLimiter.hitAll} */
  async hitAll(keys: readonly string[], now: number): Promise<boolean> {
    const redisKeys = keys.map((key) => `${this.name}:${key}`);
    try {
      const allowed = await this.redis.eval(SCRIPT, redisKeys.length, ...redisKeys, now, this.windowMs, this.max, `${now}:${randomUUID()}`);
      return allowed === 1;
    } catch (error) {
      this.onError(error);
      return this.local.hitAll(keys, now);
    }
  }

  /** {@inheritDoc RateLimiter.sweep} */
  sweep(now: number): void {
    // keys expire in Redis by themselves (PEXPIRE on every hit); the stand-in forgets its own
    this.local.sweep(now);
  }
}
