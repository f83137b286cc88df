/**
 * Timers looked up at call time (so vitest fake timers work after construction) and a
 * disposer registry so that `destroy()` leaves no timer or listener behind.
 * @module
 */

/** An opaque timer handle. */
export type TimerHandle = unknown;

/**
 * The timer functions the SDK uses. Inject your own through the `timers` option; by default they
 * are looked up on `globalThis` at every call, never captured at import time.
 */
export interface TimerProvider {
  /** Like `setTimeout`. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Like `clearTimeout`. */
  clearTimeout(handle: TimerHandle): void;
  /** Like `setInterval`. */
  setInterval(fn: () => void, ms: number): TimerHandle;
  /** Like `clearInterval`. */
  clearInterval(handle: TimerHandle): void;
  /** Milliseconds since the epoch, like `Date.now`. */
  now(): number;
}

/** The default timer provider: `globalThis` timers looked up at call time. */
export const defaultTimers: TimerProvider = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
  now: () => Date.now(),
};

/** A call deferred by a zero-delay timer, one at a time, that can be made at once instead. @internal */
export interface FlushableDefer {
  /** Calls `fn` after a zero-delay timer (replacing a deferred call not made yet, which is then made first). */
  readonly defer: (fn: () => void) => void;
  /** Makes the deferred call now, if one waits, and clears its timer. */
  readonly flush: () => void;
}

/**
 * A {@link FlushableDefer} on `timers`: the end of the message list's burst of frames, which the
 * client makes at once when it is destroyed, so that no timer of it outlives `destroy()`.
 * @internal
 */
export function flushableDefer(timers: TimerProvider): FlushableDefer {
  let handle: TimerHandle;
  let waiting: (() => void) | undefined;
  // (the timer runs flush too: clearing a timer that ran is harmless)
  const flush = (): void => {
    const fn = waiting;
    if (!fn) return;
    waiting = undefined;
    timers.clearTimeout(handle);
    fn();
  };
  const defer = (fn: () => void): void => {
    flush();
    waiting = fn;
    handle = timers.setTimeout(flush, 0);
  };
  return { defer, flush };
}

/** A function that undoes something (clears a timer, removes a listener). */
export type Disposer = () => void;

/** The minimal event-target shape the SDK listens on (window, document, a WebSocket). */
export interface ListenerTarget {
  /** Like `EventTarget.addEventListener`. */
  addEventListener(type: string, listener: (event: any) => void, options?: unknown): void; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Like `EventTarget.removeEventListener`. */
  removeEventListener(type: string, listener: (event: any) => void, options?: unknown): void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Holds disposers and runs them all at once. Timers and listeners registered through it are
 * removed by {@link Disposables.dispose}; each registration also returns its own disposer.
 * @internal
 */
export class Disposables {
  private readonly items = new Set<Disposer>();

  constructor(private readonly timers: TimerProvider = defaultTimers) {}

  /** Registers a disposer; returns a function that runs and unregisters it. */
  add(disposer: Disposer): Disposer {
    let done = false;
    const run = (): void => {
      if (done) return;
      done = true;
      this.items.delete(run);
      disposer();
    };
    this.items.add(run);
    return run;
  }

  /** A timeout that is forgotten once it fires. */
  timeout(fn: () => void, ms: number): Disposer {
    let dispose: Disposer = () => undefined;
    const handle = this.timers.setTimeout(() => {
      dispose();
      fn();
    }, ms);
    dispose = this.add(() => this.timers.clearTimeout(handle));
    return dispose;
  }

  /** An interval until disposed. */
  interval(fn: () => void, ms: number): Disposer {
    const handle = this.timers.setInterval(fn, ms);
    return this.add(() => this.timers.clearInterval(handle));
  }

  /** Adds an event listener and returns its remover. */
  listen(target: ListenerTarget, type: string, listener: (event: any) => void, options?: unknown): Disposer { // eslint-disable-line @typescript-eslint/no-explicit-any
    target.addEventListener(type, listener, options);
    return this.add(() => target.removeEventListener(type, listener, options));
  }

  /** How many disposers are registered (timers and listeners still alive). */
  get size(): number {
    return this.items.size;
  }

  /** Runs every registered disposer. */
  dispose(): void {
    for (const d of [...this.items]) d();
  }
}
