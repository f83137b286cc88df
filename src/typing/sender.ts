/**
 * The sending side of typing signals for one conversation (protocol §5a): `typing` at most once per
 * 2 s while input continues (the latest draft going with the next one), `paused` on blur, on send
 * and after 5 s without input, and never two frames within 1.2 s (the server drops a second frame within 1 s): a frame
 * due sooner waits, the latest state winning.
 * @module
 * @internal
 */
import type { Disposer, TimerProvider } from '../timers.js';

/** `typing` is said again at most this often while input continues (ms). */
export const TYPING_REFRESH_MS = 2_000;
/** `paused` is said after this long without input (ms). */
export const TYPING_IDLE_MS = 5_000;
/**
 * Two frames of one sender are at least this far apart (ms): the server drops a frame less than
 * 1 s after the last one it took, and 200 ms of slack keep network jitter from bringing two closer.
 */
export const TYPING_MIN_GAP_MS = 1_200;

/**
 * The room's timeouts, all cleared at once by {@link TimerBag.dispose} (like `Disposables`, kept
 * here so that the room's chunk needs nothing from the start-up code).
 * @internal
 */
export class TimerBag {
  private readonly live = new Set<Disposer>();

  /** @param timers - the client's timer provider (looked up at call time) */
  constructor(private readonly timers: TimerProvider) {}

  /** A timeout; returns its canceller (a no-op once it fired). */
  timeout(fn: () => void, ms: number): Disposer {
    const cancel = (): void => {
      this.live.delete(cancel);
      this.timers.clearTimeout(handle);
    };
    const handle = this.timers.setTimeout(() => {
      this.live.delete(cancel);
      fn();
    }, ms);
    this.live.add(cancel);
    return cancel;
  }

  /** Runs `fn` at disposal. */
  add(fn: () => void): void {
    this.live.add(fn);
  }

  /** Clears every timeout and runs every added function. */
  dispose(): void {
    for (const cancel of [...this.live]) cancel();
    this.live.clear();
  }
}

/** A typing frame's content. @internal */
export interface TypingContent {
  /** Typing or paused. */
  state: 'typing' | 'paused';
  /** The draft (sneak peek). */
  preview?: string;
}

/** What a {@link TypingSender} needs. @internal */
export interface TypingSenderDeps {
  /** The room's timers (disposed with it). */
  bag: TimerBag;
  /** The clock (ms). */
  now(): number;
  /** Sends one frame. */
  send(content: TypingContent): void;
  /** The preview to send with a draft (undefined: none, sneak peek is off). */
  previewOf(draft: string | undefined): string | undefined;
}

/** The typing state machine of one conversation. @internal */
export class TypingSender {
  /** The state the other party last heard. */
  private said: 'typing' | 'paused' = 'paused';
  private lastSentAt = Number.NEGATIVE_INFINITY;
  /** The state to say at the next flush, if any. */
  private pending: 'typing' | 'paused' | null = null;
  private draft: string | undefined;
  private flushTimer: Disposer | null = null;
  private idleTimer: Disposer | null = null;

  /** @param deps - timers, clock and the frame sender */
  constructor(private readonly deps: TypingSenderDeps) {}

  /** The user typed (`draft` is the composer's text, `''` a cleared composer: a pause). */
  input(draft: string | undefined): void {
    if (draft === '') return this.pause();
    this.draft = draft;
    this.idleTimer?.();
    this.idleTimer = this.deps.bag.timeout(() => {
      this.idleTimer = null;
      this.pause();
    }, TYPING_IDLE_MS);
    this.want('typing');
  }

  /** Blur, send or idle: `paused`, if `typing` was said or is about to be. */
  pause(): void {
    this.idleTimer?.();
    this.idleTimer = null;
    this.want(this.said === 'typing' ? 'paused' : null);
  }

  /** Forgets everything without a frame (the socket closed: a new connection starts afresh). */
  reset(): void {
    this.idleTimer?.();
    this.flushTimer?.();
    this.idleTimer = this.flushTimer = this.pending = null;
    this.said = 'paused';
  }

  private want(state: 'typing' | 'paused' | null): void {
    this.pending = state;
    this.flushTimer?.();
    this.flushTimer = null;
    if (state === null) return;
    // typing again waits for the refresh; a change of state only for the server's gap
    const gap = state === 'typing' && this.said === 'typing' ? TYPING_REFRESH_MS : TYPING_MIN_GAP_MS;
    const wait = this.lastSentAt + gap - this.deps.now();
    if (wait <= 0) this.flush();
    else this.flushTimer = this.deps.bag.timeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.flushTimer = null;
    const state = this.pending;
    if (state === null) return;
    this.pending = null;
    this.said = state;
    this.lastSentAt = this.deps.now();
    const preview = state === 'typing' ? this.deps.previewOf(this.draft) : undefined;
    this.deps.send(preview === undefined ? { state } : { state, preview });
  }
}
