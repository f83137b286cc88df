/**
 * The one subscription primitive of the SDK, modelled on TanStack Query's `query-core`
 * `Subscribable`: `subscribe(listener)` returns its remover, and the protected hooks
 * `onSubscribe`/`onUnsubscribe` let a store start work with its first listener and stop it with
 * its last. Every store of the SDK (and the React package's cells) notifies through it, so all
 * share one rule for a listener that throws.
 * @module
 */

/** Any listener function. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyListener = (...args: any[]) => void;

/**
 * Calls every listener with `args`, even when one throws. Errors go to `onError` when given; without
 * it the first error is rethrown once every listener has run, so a broken subscriber neither hides
 * the change from the others nor goes unnoticed.
 * @param listeners - the listeners (copied before the first call: a listener may unsubscribe)
 * @param onError - receives each error; absent: the first one is rethrown at the end
 * @param args - the arguments of every call
 * @internal
 */
export function notifyAll<A extends unknown[]>(
  listeners: Iterable<(...args: A) => void>,
  onError: ((error: unknown) => void) | undefined,
  ...args: A
): void {
  let failed = false;
  let first: unknown;
  for (const listener of [...listeners]) {
    try {
      listener(...args);
    } catch (error) {
      if (onError) {
        try {
          onError(error);
        } catch {
          // A reporter that throws has nowhere left to report to.
        }
      } else if (!failed) {
        failed = true;
        first = error;
      }
    }
  }
  if (failed) throw first;
}

/**
 * A set of listeners (TanStack Query's `Subscribable`).
 *
 * - `subscribe` is bound, so `useSyncExternalStore(store.subscribe, ...)` works as is; subscribing
 *   the same function twice keeps one registration, and each remover works once.
 * - `onSubscribe` runs after every subscribe and `onUnsubscribe` after every unsubscribe; compare
 *   {@link Subscribable.listenerCount} to 1 and 0 to start work with the first listener and stop it
 *   with the last.
 * - A throwing listener never stops the others: see the `notifyAll` rule (errors go to the
 *   `onListenerError` given to the constructor, else the first is rethrown after all ran).
 * @typeParam TListener - the listener's signature (default: no arguments)
 */
export class Subscribable<TListener extends AnyListener = () => void> {
  /** The registered listeners, in subscription order. */
  protected readonly listeners = new Set<TListener>();
  /** Receives a listener's exception; without it the first one is rethrown after all ran. */
  protected readonly onListenerError: ((error: unknown) => void) | undefined;

  /** @param onListenerError - receives the exception of a throwing listener */
  constructor(onListenerError?: (error: unknown) => void) {
    this.onListenerError = onListenerError;
    this.subscribe = this.subscribe.bind(this);
  }

  /**
   * Registers a listener.
   * @param listener - called on every notification
   * @returns the unsubscribe function
   * @throws TypeError when `listener` is not a function
   */
  subscribe(listener: TListener): () => void {
    if (typeof listener !== 'function') throw new TypeError('subscribe: the listener must be a function');
    if (!this.listeners.has(listener)) {
      this.listeners.add(listener);
      this.onSubscribe();
    }
    return () => {
      if (this.listeners.delete(listener)) this.onUnsubscribe();
    };
  }

  /** True while at least one listener is registered. */
  hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  /** How many listeners are registered. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Calls every listener (see the `notifyAll` rule). */
  protected notify(...args: Parameters<TListener>): void {
    if (this.listeners.size === 0) return; // nothing to copy or call (stores notify on every change)
    notifyAll(this.listeners, this.onListenerError, ...args);
  }

  /** Forgets every listener (on destroy); `onUnsubscribe` runs once when there were some. */
  protected clearListeners(): void {
    if (this.listeners.size === 0) return;
    this.listeners.clear();
    this.onUnsubscribe();
  }

  /** Runs after every subscribe; the new listener is already registered. */
  protected onSubscribe(): void {
    // Nothing by default.
  }

  /** Runs after every unsubscribe; the listener is already removed. */
  protected onUnsubscribe(): void {
    // Nothing by default.
  }
}

/** Hooks of a {@link Listeners} set. */
export interface ListenersOptions {
  /** Runs when the first listener subscribes. */
  onFirst?: () => void;
  /** Runs when the last listener unsubscribes (or on {@link Listeners.clear}). */
  onLast?: () => void;
  /** Receives a listener's exception; without it the first one is rethrown after all ran. */
  onListenerError?: (error: unknown) => void;
}

/**
 * A {@link Subscribable} to compose rather than extend (for classes that already extend something,
 * and for function-built stores): `notify` and `clear` are public, the first/last hooks are options.
 * @typeParam TListener - the listener's signature (default: no arguments)
 */
export class Listeners<TListener extends AnyListener = () => void> extends Subscribable<TListener> {
  private readonly hooks: ListenersOptions;

  /** @param options - first/last hooks and the error reporter */
  constructor(options: ListenersOptions = {}) {
    super(options.onListenerError);
    this.hooks = options;
  }

  /** Calls every listener with `args`. */
  override notify(...args: Parameters<TListener>): void {
    super.notify(...args);
  }

  /** Forgets every listener. */
  clear(): void {
    this.clearListeners();
  }

  protected override onSubscribe(): void {
    if (this.listeners.size === 1) this.hooks.onFirst?.();
  }

  protected override onUnsubscribe(): void {
    if (this.listeners.size === 0) this.hooks.onLast?.();
  }
}
