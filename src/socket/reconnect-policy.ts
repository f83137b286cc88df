/**
 * The default reconnect policy (LiveKit's `DefaultReconnectPolicy` is the model): the spec's first
 * phase, then a slow phase with full-jitter backoff that never ends by itself.
 * @module
 */
import type { ReconnectContext, ReconnectDelayFn, ReconnectPolicy, ReconnectPolicyObject } from '../options.js';

/** Settings of {@link DefaultReconnectPolicy}. */
export interface DefaultReconnectPolicyOptions {
  /** Delay of every first-phase attempt, ms (spec §9: 5 000). */
  firstPhaseDelay?: number;
  /** How many attempts the first phase has (spec §9: 10). */
  firstPhaseAttempts?: number;
  /** Upper bound of a slow-phase delay while the page is visible, ms (10 000). */
  visibleCap?: number;
  /** Upper bound of a slow-phase delay while the page is hidden, ms (60 000). */
  hiddenCap?: number;
  /** Lower bound of a slow-phase delay, ms (500; never above the cap). */
  minDelay?: number;
  /** A random number in [0, 1) (default `Math.random`); inject it to test the jitter. */
  random?: () => number;
}

/** Throws a clear error unless `value` is a finite number >= 0. */
function checkMs(name: string, value: number): number {
  if (!(value >= 0 && value < Infinity)) throw new RangeError(`DefaultReconnectPolicy: ${name} must be a finite number >= 0, got ${String(value)}.`);
  return value;
}

/**
 * Reconnects for good.
 *
 * - **First phase** (attempts 1 to `firstPhaseAttempts`): `firstPhaseDelay` each (spec §9: 5 s × 10).
 * - **Slow phase** (every later attempt): full jitter (AWS "Exponential Backoff and Jitter"): a
 *   random delay between `minDelay` and `min(cap, firstPhaseDelay × 2^n)`, `n` counting the slow
 *   attempts from 1, where `cap` is `visibleCap` (10 s) while the page is visible, since a failed
 *   attempt costs nothing and users expect the chat back within seconds of the network, and
 *   `hiddenCap` (60 s) while it is hidden.
 * - It never returns `null`: the connection shows `failed` after the first phase (the
 *   `maxReconnectAttempts` limit) and keeps trying.
 */
export class DefaultReconnectPolicy implements ReconnectPolicyObject {
  private readonly firstPhaseDelay: number;
  private readonly firstPhaseAttempts: number;
  private readonly visibleCap: number;
  private readonly hiddenCap: number;
  private readonly minDelay: number;
  private readonly random: () => number;

  /**
   * @param options - phase lengths, caps and the random source
   * @throws RangeError for a negative or non-finite setting
   */
  constructor(options: DefaultReconnectPolicyOptions = {}) {
    this.firstPhaseDelay = checkMs('firstPhaseDelay', options.firstPhaseDelay ?? 5_000);
    this.firstPhaseAttempts = checkMs('firstPhaseAttempts', options.firstPhaseAttempts ?? 10);
    this.visibleCap = checkMs('visibleCap', options.visibleCap ?? 10_000);
    this.hiddenCap = checkMs('hiddenCap', options.hiddenCap ?? 60_000);
    this.minDelay = checkMs('minDelay', options.minDelay ?? 500);
    this.random = options.random ?? Math.random;
  }

  /**
   * The delay before attempt `ctx.attempt`, ms; never `null`.
   * @param ctx - the attempt number and the page's visibility
   */
  nextRetryDelayInMs(ctx: ReconnectContext): number {
    if (ctx.attempt <= this.firstPhaseAttempts) return this.firstPhaseDelay;
    const slow = ctx.attempt - this.firstPhaseAttempts;
    const cap = ctx.visible ? this.visibleCap : this.hiddenCap;
    const ceiling = Math.min(cap, Math.max(this.firstPhaseDelay, 1) * 2 ** Math.min(slow, 30));
    const floor = Math.min(this.minDelay, ceiling);
    const r = this.random();
    const unit = r >= 0 && r < 1 ? r : 0.5;
    return Math.round(floor + unit * (ceiling - floor));
  }
}

/**
 * The function behind either form of a {@link ReconnectPolicy}.
 * @param policy - a function, or an object with `nextRetryDelayInMs`
 * @throws TypeError when it is neither
 * @internal
 */
export function toDelayFn(policy: ReconnectPolicy): ReconnectDelayFn {
  if (typeof policy === 'function') return policy;
  if (policy && typeof policy.nextRetryDelayInMs === 'function') return (ctx) => policy.nextRetryDelayInMs(ctx);
  throw new TypeError('reconnectPolicy must be a function or an object with nextRetryDelayInMs(context).');
}
