/**
 * The reconnect schedule of a {@link Connection}: the attempt counter, the time the connection was
 * lost, the policy call and the one timer of the next attempt.
 * @module
 * @internal
 */
import type { ReconnectContext, ReconnectDelayFn, ReconnectPolicy } from '../options.js';
import type { Disposables, Disposer, TimerProvider } from '../timers.js';
import { toDelayFn } from './reconnect-policy.js';

/** What the policy needs beyond the counter and the time: the close and the page's state. */
export type AttemptContext = Omit<ReconnectContext, 'attempt' | 'elapsedMs'>;

/**
 * Counts attempts since the connection was lost, asks the reconnect policy for each delay and
 * holds at most one pending timer (registered in the connection's {@link Disposables}).
 * @internal
 */
export class ReconnectSchedule {
  /** Attempts in a row since the connection was lost or the backoff was restarted. */
  attempt = 0;
  /** When the pending attempt starts (local ms since the epoch), or null. */
  nextAttemptAt: number | null = null;
  private downSince: number | null = null;
  private cancel: Disposer | null = null;
  private readonly delayFor: ReconnectDelayFn;

  /**
   * @param timers - for the time and the timer
   * @param disposables - the connection's registry (destroy clears the timer)
   * @param policy - the reconnect policy
   */
  constructor(
    private readonly timers: TimerProvider,
    private readonly disposables: Disposables,
    policy: ReconnectPolicy,
  ) {
    this.delayFor = toDelayFn(policy);
  }

  /** True while an attempt is scheduled. */
  get pending(): boolean {
    return this.cancel !== null;
  }

  /** The connection is up (or closed on purpose): counter and time back to zero, no timer. */
  reset(): void {
    this.attempt = 0;
    this.downSince = null;
    this.clear();
  }

  /** A fresh backoff (the next failure is attempt 1); the time since the loss keeps counting. */
  restart(): void {
    this.attempt = 0;
  }

  /** Notes that the connection is down from now, unless it already was. */
  markDown(): void {
    this.downSince ??= this.timers.now();
  }

  /**
   * Counts one more attempt and asks the policy for its delay.
   * @param ctx - the close and the page's state
   * @returns the delay in ms, or null when the policy gives up or answers something unusable
   * @throws whatever the policy throws
   */
  nextDelay(ctx: AttemptContext): number | null {
    const now = this.timers.now();
    this.downSince ??= now;
    this.attempt++;
    const delay = this.delayFor({ attempt: this.attempt, elapsedMs: now - this.downSince, ...ctx });
    return typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? delay : null;
  }

  /**
   * Runs `attempt` after `delay` ms (replacing a pending one).
   * @param delay - ms
   * @param attempt - starts the attempt
   */
  schedule(delay: number, attempt: () => void): void {
    this.clear();
    const cancel = this.disposables.timeout(() => {
      if (this.cancel !== cancel) return;
      this.cancel = null;
      this.nextAttemptAt = null;
      attempt();
    }, delay);
    this.cancel = cancel;
    this.nextAttemptAt = this.timers.now() + delay;
  }

  /** Cancels the pending attempt, if any. */
  clear(): void {
    const cancel = this.cancel;
    this.cancel = null;
    this.nextAttemptAt = null;
    cancel?.();
  }
}
