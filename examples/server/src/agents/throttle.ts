/**
 * Failed agent logins, throttled per account and per address (protocol §3a.5): after a few free
 * failures every further attempt must wait a growing delay (0, 0, 0, 0.5 s, 1 s, 2 s, ... capped),
 * and after `lockoutAfter` failures the key is locked for `lockoutMs`. A success clears the
 * account's counter (not the address's: one valid account must not reset a password spray from
 * that address). Failures are forgotten `lockoutMs` after the last one.
 * The clock is injected (tests).
 * @module
 */

/** Throttle settings (see `config.ts`: `AGENT_LOGIN_*`). */
export interface ThrottleOptions {
  /** Failures that cost no delay. */
  freeFailures: number;
  /** The first delay (ms); each further failure doubles it. */
  baseDelayMs: number;
  /** The largest delay (ms). */
  maxDelayMs: number;
  /** Failures that lock the key. */
  lockoutAfter: number;
  /** How long a lock lasts (ms). */
  lockoutMs: number;
}

interface Entry {
  failures: number;
  lastFailure: number;
  /** No attempt before this time. */
  notBefore: number;
}

/** Why an attempt may not be tried now. */
export type ThrottleVerdict = { allowed: true } | { allowed: false; reason: 'locked' | 'wait'; retryAfterMs: number };

/**
 * What a login asks of the throttle. {@link LoginThrottle} keeps its entries in this process; in
 * a cluster `RedisLoginThrottle` (`cluster/redis-login-throttle.ts`) keeps them in Redis, so that
 * an attacker gets one allowance of guesses for the whole cluster, not one per node.
 */
export interface LoginGate {
  /** Whether a login of `account` from `address` may be tried now. */
  check(account: string, address: string): ThrottleVerdict | Promise<ThrottleVerdict>;
  /** Counts a failed login against the account and the address. */
  failed(account: string, address: string): void | Promise<void>;
  /** A successful login forgets the account's failures (not the address's). */
  succeeded(account: string): void | Promise<void>;
}

/** The wait after `failures` failed logins in a row (0 while they are free; the lockout at the end). */
export function delayAfterFailures(options: ThrottleOptions, failures: number): number {
  if (failures >= options.lockoutAfter) return options.lockoutMs;
  if (failures <= options.freeFailures) return 0;
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (failures - options.freeFailures - 1));
}

/** The keys a login counts against: its account (case-insensitive) and its address. */
export function throttleKeys(account: string, address: string): string[] {
  return [`account:${account.toLowerCase()}`, `address:${address}`];
}

/** The login throttle. */
export class LoginThrottle implements LoginGate {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: ThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether an attempt for `account` from `address` may be checked now. */
  check(account: string, address: string): ThrottleVerdict {
    const now = this.now();
    let worst: ThrottleVerdict = { allowed: true };
    for (const key of keysOf(account, address)) {
      const entry = this.live(key, now);
      if (!entry || entry.notBefore <= now) continue;
      const reason = entry.failures >= this.options.lockoutAfter ? 'locked' : 'wait';
      const retryAfterMs = entry.notBefore - now;
      if (worst.allowed || retryAfterMs > worst.retryAfterMs) worst = { allowed: false, reason, retryAfterMs };
    }
    return worst;
  }

  /** Records a failed attempt. */
  failed(account: string, address: string): void {
    const now = this.now();
    for (const key of keysOf(account, address)) {
      const entry = this.live(key, now) ?? { failures: 0, lastFailure: now, notBefore: now };
      entry.failures += 1;
      entry.lastFailure = now;
      entry.notBefore = now + this.delayAfter(entry.failures);
      this.entries.set(key, entry);
    }
    if (this.entries.size > 100_000) this.sweep();
  }

  /** Records a success: the account's failures are forgotten. */
  succeeded(account: string): void {
    this.entries.delete(`account:${account.toLowerCase()}`);
  }

  /** The wait after `failures` failures (ms). */
  delayAfter(failures: number): number {
    return delayAfterFailures(this.options, failures);
  }

  /** Drops forgotten entries. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (!this.fresh(entry, now)) this.entries.delete(key);
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && !this.fresh(entry, now)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private fresh(entry: Entry, now: number): boolean {
    return now - entry.lastFailure < this.options.lockoutMs || entry.notBefore > now;
  }
}

const keysOf = throttleKeys;
