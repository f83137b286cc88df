/**
 * The agent login throttle of a cluster, in Redis: the same rules as {@link LoginThrottle}
 * (free failures, then waits doubling up to a maximum, then a lockout; per account and per
 * address), counted once for all nodes, so that spreading guesses over the nodes of a cluster
 * buys an attacker nothing. A failure is counted by one Lua script (atomic: two nodes failing at
 * once count two); each entry expires by itself when it no longer matters. While Redis does not
 * answer, the node throttles in its own memory (per node) rather than let guesses through.
 * @module
 */

import type { Redis } from 'ioredis';
import { delayAfterFailures, LoginThrottle, throttleKeys, type LoginGate, type ThrottleOptions, type ThrottleVerdict } from '../agents/throttle.js';

// KEYS: the entries; ARGV: now, free, base, max, lockAfter, lockMs. Mirrors delayAfterFailures.
const FAILED = `
local now = tonumber(ARGV[1])
local free, base, max, lockAfter, lockMs = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
for _, key in ipairs(KEYS) do
  local failures = redis.call('HINCRBY', key, 'failures', 1)
  local delay = 0
  if failures >= lockAfter then delay = lockMs
  elseif failures > free then delay = math.min(max, base * 2 ^ (failures - free - 1)) end
  redis.call('HSET', key, 'notBefore', now + delay)
  redis.call('PEXPIRE', key, math.max(lockMs, delay))
end
return 1
`;

/** A {@link LoginGate} whose entries live in Redis. */
export class RedisLoginThrottle implements LoginGate {
  /** Throttles while Redis does not answer. */
  private readonly local: LoginThrottle;

  /**
   * @param redis - a connected client
   * @param prefix - the cluster's key prefix (entries are `<prefix>:<account:x | address:y>`)
   * @param options - the throttle's rules (`AGENT_LOGIN_*`, `AGENT_LOCKOUT_*`)
   * @param now - the wall clock (tests)
   * @param onError - told when Redis fails and the node throttles alone
   */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly options: ThrottleOptions,
    private readonly now: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.local = new LoginThrottle(options, now);
  }

  /** {@inheritDoc LoginGate.check} */
  async check(account: string, address: string): Promise<ThrottleVerdict> {
    const local = this.local.check(account, address);
    try {
      const shared = await this.sharedCheck(account, address);
      // what this node counted during an outage still holds
      return !local.allowed && (shared.allowed || local.retryAfterMs > shared.retryAfterMs) ? local : shared;
    } catch (error) {
      this.onError(error);
      return local;
    }
  }

  /** {@inheritDoc LoginGate.failed} */
  async failed(account: string, address: string): Promise<void> {
    this.local.failed(account, address);
    try {
      await this.sharedFailed(account, address);
    } catch (error) {
      this.onError(error);
    }
  }

  /** {@inheritDoc LoginGate.succeeded} */
  async succeeded(account: string): Promise<void> {
    this.local.succeeded(account);
    try {
      await this.redis.del(this.key(throttleKeys(account, '')[0] ?? ''));
    } catch (error) {
      this.onError(error);
    }
  }

  private async sharedCheck(account: string, address: string): Promise<ThrottleVerdict> {
    const now = this.now();
    let worst: ThrottleVerdict = { allowed: true };
    for (const key of throttleKeys(account, address)) {
      const [failures, notBefore] = await this.redis.hmget(this.key(key), 'failures', 'notBefore');
      const until = Number(notBefore ?? 0);
      if (until <= now) continue;
      const reason = Number(failures ?? 0) >= this.options.lockoutAfter ? 'locked' : 'wait';
      const retryAfterMs = until - now;
      if (worst.allowed || retryAfterMs > worst.retryAfterMs) worst = { allowed: false, reason, retryAfterMs };
    }
    return worst;
  }

  private async sharedFailed(account: string, address: string): Promise<void> {
    const keys = throttleKeys(account, address).map((key) => this.key(key));
    const o = this.options;
    await this.redis.eval(FAILED, keys.length, ...keys, this.now(), o.freeFailures, o.baseDelayMs, o.maxDelayMs, o.lockoutAfter, o.lockoutMs);
  }

  /** The wait after `failures` failures (the shared rule). */
  delayAfter(failures: number): number {
    return delayAfterFailures(this.options, failures);
  }

  private key(entry: string): string {
    return `${this.prefix}:${entry}`;
  }
}
