/**
 * The resend rule of the outbox: what is pending goes out again after every open, in composition
 * order and at a pace the server can take; nothing is left "sending" for good.
 *
 * - After an open every pending message is sent again (a message sent on a socket that then
 *   dropped without its echo included), at most {@link RESEND_WINDOW} waiting for their echo at a
 *   time; each echo lets the next one go. A text written meanwhile waits behind them.
 * - A message whose echo does not come within {@link ACK_TIMEOUT_MS} on an open socket is sent
 *   again (the server keeps one message per `fp` and acknowledges a resend again).
 * - A resent message refused `too-frequent` (a long backlog meets the server's rate limit) is not
 *   failed: it is sent again after a pause, one at a time from then on, so the order holds.
 * @module
 */
import type { ChatMessage } from '../messages/types.js';
import { Disposables, type Disposer, type TimerProvider } from '../timers.js';

/** Messages sent again after an open that may wait for their echo at once. */
export const RESEND_WINDOW = 8;
/** How long a sent message may wait for its echo on an open socket before it is sent again, ms. */
export const ACK_TIMEOUT_MS = 10_000;
/** The pauses after `too-frequent` refusals of resent messages, ms (the last one repeats). */
export const RATE_PAUSES_MS: readonly number[] = [1_000, 2_000];

/** What the pacer needs. @internal */
export interface ResendPacerDeps {
  /** The pending messages in composition order (the outbox). */
  pending(): readonly ChatMessage[];
  /** True while the socket is open. */
  isOpen(): boolean;
  /** Writes a message on the socket; false when no socket took it. */
  write(message: ChatMessage): boolean;
  /** A message goes out again (e.g. a text the network had failed turns `pending`). */
  onResend?(message: ChatMessage): void;
  /** The timers (fake ones in tests). */
  timers: TimerProvider;
}

/**
 * Decides when each pending message is written. The outbox keeps what is pending; the pacer only
 * knows what was written on the current socket and is waiting for its echo.
 * @internal
 */
export class ResendPacer {
  /** Pending messages not written on the current socket yet. */
  private readonly waiting = new Set<string>();
  /** Written on the current socket, waiting for the echo: fp -> when written. */
  private readonly inFlight = new Map<string, number>();
  /** Messages written by the resend (not live): a `too-frequent` refusal of one is retried. */
  private readonly resent = new Set<string>();
  private readonly disposables: Disposables;
  private window = RESEND_WINDOW;
  private refusals = 0;
  private pause: Disposer | null = null;
  private watchdog: Disposer | null = null;

  /** @param deps - the outbox, the socket and the timers */
  constructor(private readonly deps: ResendPacerDeps) {
    this.disposables = new Disposables(deps.timers);
  }

  /** The socket (re)opened: everything pending goes out again, paced. */
  opened(): void {
    this.inFlight.clear();
    this.waiting.clear();
    this.cancelPause();
    this.window = RESEND_WINDOW;
    this.refusals = 0;
    for (const m of this.deps.pending()) if (m.fp) this.waiting.add(m.fp);
    this.pump();
  }

  /** A new message: written now when the socket is open and nothing waits before it. */
  send(message: ChatMessage & { fp: string }): void {
    if (this.waiting.size === 0 && this.pause === null && this.deps.isOpen() && this.deps.write(message)) {
      this.written(message.fp);
      return;
    }
    this.waiting.add(message.fp);
    this.pump();
  }

  /** The message left the outbox (echoed, refused or abandoned): the next one may go. */
  settled(fp: string): void {
    this.waiting.delete(fp);
    this.inFlight.delete(fp);
    this.resent.delete(fp);
    if (this.pause === null) this.refusals = 0;
    this.pump();
  }

  /**
   * The server refused a message `too-frequent`. A resent one is kept and sent again after a
   * pause, then one at a time.
   * @returns true when the message stays pending (it is not failed)
   */
  retryLater(fp: string): boolean {
    if (!this.resent.has(fp) || !this.deps.pending().some((m) => m.fp === fp)) return false;
    this.inFlight.delete(fp);
    this.waiting.add(fp);
    this.window = 1;
    if (this.pause === null) {
      const wait = RATE_PAUSES_MS[Math.min(this.refusals, RATE_PAUSES_MS.length - 1)] ?? 1_000;
      this.refusals += 1;
      this.pause = this.disposables.timeout(() => {
        this.pause = null;
        this.pump();
      }, wait);
    }
    return true;
  }

  /** Cancels every timer (the client is destroyed). */
  dispose(): void {
    this.disposables.dispose();
    this.pause = null;
    this.watchdog = null;
  }

  /** Writes waiting messages, in composition order, while the window has room. */
  private pump(): void {
    if (this.pause !== null || !this.deps.isOpen() || this.waiting.size === 0) return;
    for (const m of this.deps.pending()) {
      if (this.inFlight.size >= this.window) break;
      const fp = m.fp;
      if (!fp || !this.waiting.has(fp)) continue;
      this.deps.onResend?.(m);
      if (!this.deps.write(m)) return; // the socket went away: the next open sends it
      this.waiting.delete(fp);
      this.resent.add(fp);
      this.written(fp);
    }
  }

  private written(fp: string): void {
    this.inFlight.set(fp, this.deps.timers.now());
    this.watchdog ??= this.disposables.timeout(() => this.checkEchoes(), ACK_TIMEOUT_MS);
  }

  /** Messages without their echo for too long on an open socket are sent again. */
  private checkEchoes(): void {
    this.watchdog = null;
    if (this.inFlight.size === 0) return;
    const now = this.deps.timers.now();
    if (this.deps.isOpen()) {
      for (const [fp, at] of this.inFlight) {
        if (now - at < ACK_TIMEOUT_MS) continue;
        this.inFlight.delete(fp);
        this.waiting.add(fp);
      }
      this.pump();
    }
    // closed: the next open sends everything again (and watches it)
    if (this.deps.isOpen() && this.inFlight.size > 0) this.watchdog = this.disposables.timeout(() => this.checkEchoes(), ACK_TIMEOUT_MS);
  }

  private cancelPause(): void {
    this.pause?.();
    this.pause = null;
  }
}
