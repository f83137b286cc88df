/**
 * The resend rule of the outbox: what is pending goes out again after every open, in composition
 * order and at a pace the server can take; nothing is left "sending" for good.
 *
 * - After an open every pending message is sent again (a message sent on a socket that then
 *   dropped without its echo included), at most {@link RESEND_WINDOW} waiting for their echo at a
 *   time; each echo lets the next one go. A text written meanwhile waits behind them.
 * - Messages waiting for their echo are sent again when no echo came for {@link ACK_TIMEOUT_MS}
 *   on an open socket (the server keeps one message per `fp` and acknowledges a resend again).
 * - A resent message refused `too-frequent` (a long backlog meets the server's rate limit) is not
 *   failed: it is sent again after a pause, one at a time from then on, so the order holds.
 * @module
 */
import type { ChatMessage } from '../messages/types.js';
import type { TimerHandle, TimerProvider } from '../timers.js';

/** Messages sent again after an open that may wait for their echo at once. */
export const RESEND_WINDOW = 8;
/** How long sent messages may wait for an echo on an open socket before they are sent again, ms. */
export const ACK_TIMEOUT_MS = 10_000;
/** The pause after a `too-frequent` refusal of a resent message, ms. */
export const RATE_PAUSE_MS = 1_000;

/** What the pacer needs. @internal */
export interface ResendPacerDeps {
  /** The pending messages in composition order (the outbox). */
  pending(): readonly ChatMessage[];
  /** True while the socket is open. */
  isOpen(): boolean;
  /** Writes a message on the socket; false when no socket took it. */
  write(message: ChatMessage): boolean;
  /** A message goes out again (e.g. a text the network had failed turns `pending`). */
  onResend(message: ChatMessage): void;
  /** The timers (fake ones in tests). */
  timers: TimerProvider;
}

/**
 * Decides when each pending message is written. The outbox keeps what is pending; the pacer only
 * knows what waits to be written on the current socket and what waits for its echo.
 * @internal
 */
export class ResendPacer {
  /** Pending messages not written on the current socket yet. */
  private readonly waiting = new Set<string>();
  /** Written on the current socket, waiting for the echo. */
  private readonly inFlight = new Set<string>();
  /** Messages written by the resend (not live): a `too-frequent` refusal of one is retried. */
  private readonly resent = new Set<string>();
  private window = RESEND_WINDOW;
  private pause: TimerHandle | null = null;
  private watchdog: TimerHandle | null = null;

  /** @param deps - the outbox, the socket and the timers */
  constructor(private readonly deps: ResendPacerDeps) {}

  /** The socket (re)opened: everything pending goes out again, paced. */
  opened(): void {
    this.dispose();
    this.inFlight.clear();
    this.waiting.clear();
    this.window = RESEND_WINDOW;
    for (const m of this.deps.pending()) if (m.fp) this.waiting.add(m.fp);
    this.pump();
  }

  /** A new message: written now when the socket is open and nothing waits before it. */
  send(message: ChatMessage & { fp: string }): void {
    // (during a pause something waits: the refused message)
    if (this.waiting.size === 0 && this.deps.isOpen() && this.deps.write(message)) this.written(message.fp);
    else {
      this.waiting.add(message.fp);
      this.pump();
    }
  }

  /** The message left the outbox (echoed, refused or abandoned): the next one may go. */
  settled(fp: string): void {
    this.waiting.delete(fp);
    this.inFlight.delete(fp);
    this.resent.delete(fp);
    this.watch(true);
    this.pump();
  }

  /**
   * The server refused a message `too-frequent`. A resent one is kept and sent again after a
   * pause, then one at a time.
   * @returns true when the message stays pending (it is not failed)
   */
  retryLater(fp: string): boolean {
    if (!this.resent.has(fp)) return false; // (settled() forgets what left the outbox)
    this.inFlight.delete(fp);
    this.waiting.add(fp);
    this.window = 1;
    this.pause ??= this.deps.timers.setTimeout(() => {
      this.pause = null;
      this.pump();
    }, RATE_PAUSE_MS);
    return true;
  }

  /** Cancels the timers (the client is destroyed; an open starts afresh). */
  dispose(): void {
    if (this.pause !== null) this.deps.timers.clearTimeout(this.pause);
    this.pause = null;
    this.watch(false);
  }

  /** Writes waiting messages, in composition order, while the window has room. */
  private pump(): void {
    if (this.pause !== null || !this.deps.isOpen()) return;
    for (const m of this.deps.pending()) {
      const fp = m.fp;
      if (this.inFlight.size >= this.window) break;
      if (!fp || !this.waiting.has(fp)) continue;
      this.deps.onResend(m);
      if (!this.deps.write(m)) return; // the socket went away: the next open sends it
      this.waiting.delete(fp);
      this.resent.add(fp);
      this.written(fp);
    }
  }

  private written(fp: string): void {
    this.inFlight.add(fp);
    if (this.watchdog === null) this.watch(true);
  }

  /**
   * (Re)starts the echo watch while messages wait for their echo: when none came for
   * {@link ACK_TIMEOUT_MS} on an open socket, they are written again.
   */
  private watch(on: boolean): void {
    if (this.watchdog !== null) this.deps.timers.clearTimeout(this.watchdog);
    this.watchdog = null;
    if (!on || this.inFlight.size === 0) return;
    this.watchdog = this.deps.timers.setTimeout(() => {
      this.watchdog = null;
      if (!this.deps.isOpen()) return; // the next open sends them again
      for (const fp of this.inFlight) this.waiting.add(fp);
      this.inFlight.clear();
      this.pump();
    }, ACK_TIMEOUT_MS);
  }
}
