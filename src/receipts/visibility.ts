/**
 * Page visibility tracking for read receipts (spec §4 "Page visibility and read receipts").
 * @module
 */
import { DEFAULT_RECEIPT_OPTIONS } from '../options.js';
import { Subscribable } from '../state/subscribable.js';
import { Disposables } from '../timers.js';
import type { Disposer, ListenerTarget, TimerProvider } from '../timers.js';

/** Visible or hidden (spec §4). */
export type VisibilityState = 'visible' | 'hidden';

/** What caused a visibility change. */
export type VisibilitySource = 'visibilitychange' | 'focus' | 'blur' | 'activity' | 'validation' | 'init';

/** One entry of the visibility log (spec §3 "Receipt manager state"). */
export interface VisibilityLogEntry {
  /** When the change was applied, ms since the epoch (from the timer provider). */
  timestamp: number;
  /** The state before the change. */
  oldState: VisibilityState;
  /** The state after the change. */
  newState: VisibilityState;
  /** What caused the change. */
  source: VisibilitySource;
}

/** What {@link VisibilityTracker.getStatus} returns. */
export interface VisibilityStatus {
  /** The current state. */
  visible: boolean;
  /** The last 10 log entries, oldest first (spec: "Status shows the last 10"). */
  log: VisibilityLogEntry[];
  /** Every change since construction, including entries trimmed from the log. */
  totalChanges: number;
}

/** The context given to a {@link VisibilityTracker.subscribe} listener. */
export interface VisibilityChange {
  /** The new state. */
  visible: boolean;
  /** The state before. */
  previous: boolean;
  /** What caused the change. */
  source: VisibilitySource;
}

/** The document shape the tracker reads and listens on (a real `Document` fits). */
export interface VisibilityDocumentLike extends ListenerTarget {
  /** `'visible'`, `'hidden'`, ... */
  readonly visibilityState?: string;
  /** True when hidden (read when `visibilityState` is absent). */
  readonly hidden?: boolean;
}

/** Options of {@link VisibilityTracker}. */
export interface VisibilityTrackerOptions {
  /** The document; without one (Node, SSR) the page is always visible. */
  document?: VisibilityDocumentLike | null;
  /** The window, for `focus` and `blur`; optional (ignored without a document). */
  window?: ListenerTarget | null;
  /** Timer functions (looked up at call time by the provider). */
  timers: TimerProvider;
  /** Debounce of visibility changes, ms (spec default 100). */
  debounceDelay?: number;
  /** Interval of the check against the real document state, ms (spec default 5000). */
  stateValidationInterval?: number;
  /** Called when a subscriber throws; subscribers never break the tracker. */
  onListenerError?: (error: unknown) => void;
}

/** A {@link VisibilityTracker.subscribe} listener. */
export type VisibilityListener = (ctx: VisibilityChange) => void;

/** User-activity events that mark the page visible (spec §4). @internal */
export const ACTIVITY_EVENTS = ['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart'] as const;

/** The log is cut to {@link LOG_KEEP} entries once it holds more than this many. @internal */
export const LOG_LIMIT = 100;
/** How many entries are kept when the log is cut. @internal */
export const LOG_KEEP = 50;
/** How many entries {@link VisibilityTracker.getStatus} shows. @internal */
export const STATUS_LOG_SIZE = 10;

function checkDelay(name: string, value: number, allowZero: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(
      `VisibilityTracker: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} finite number of ms, got ${String(value)}.`,
    );
  }
  return value;
}

function stateOf(visible: boolean): VisibilityState {
  return visible ? 'visible' : 'hidden';
}

/**
 * Tracks whether the page is visible (spec §4). Changes come from `visibilitychange`, window
 * `focus` (visible) and `blur` (hidden), user activity (visible) and a periodic check against the
 * real document state; event-driven changes are debounced (the last event within
 * `debounceDelay` wins).
 *
 * The periodic check corrects a missed `visibilitychange`: it marks the page hidden when the
 * document is hidden, and visible when the document is visible, unless the page was hidden by a
 * window `blur` that no `focus`, activity or `visibilitychange` has undone yet.
 *
 * Nothing is touched until {@link VisibilityTracker.start}; {@link VisibilityTracker.stop} and
 * {@link VisibilityTracker.destroy} remove every listener and timer.
 */
export class VisibilityTracker extends Subscribable<VisibilityListener> {
  private readonly doc: VisibilityDocumentLike | null;
  private readonly win: ListenerTarget | null;
  private readonly timers: TimerProvider;
  private readonly debounceDelay: number;
  private readonly validationInterval: number;
  private readonly disposables: Disposables;
  private log: VisibilityLogEntry[] = [];
  private changes = 0;
  private visible: boolean;
  private blurred = false;
  private pending: { visible: boolean; source: VisibilitySource } | null = null;
  private cancelPending: Disposer | null = null;
  private running = false;
  private destroyed = false;

  /**
   * @param options - document, window, timers and the spec's §9 delays
   * @throws RangeError when a delay is not a valid number of ms
   */
  constructor(options: VisibilityTrackerOptions) {
    if (!options || typeof options.timers?.setTimeout !== 'function') {
      throw new TypeError('VisibilityTracker: options.timers (a TimerProvider) is required.');
    }
    // Subscribers never break the tracker: their errors are reported (or dropped without a reporter).
    super(options.onListenerError ?? (() => undefined));
    this.doc = options.document ?? null;
    this.win = options.window ?? null;
    this.timers = options.timers;
    this.debounceDelay = checkDelay('debounceDelay', options.debounceDelay ?? DEFAULT_RECEIPT_OPTIONS.debounceDelay, true);
    this.validationInterval = checkDelay(
      'stateValidationInterval',
      options.stateValidationInterval ?? DEFAULT_RECEIPT_OPTIONS.stateValidationInterval,
      false,
    );
    this.disposables = new Disposables(this.timers);
    this.visible = this.documentVisible();
  }

  /** True while started. */
  get started(): boolean {
    return this.running;
  }

  /**
   * Starts listening and the periodic check. Re-reads the document first: a change since
   * construction is applied with source `init`. Calling it twice does nothing.
   * @throws Error after {@link VisibilityTracker.destroy}
   */
  start(): void {
    if (this.destroyed) throw new Error('VisibilityTracker: start() after destroy().');
    if (this.running) return;
    this.running = true;
    const doc = this.doc;
    if (!doc) return; // no document: always visible, nothing to watch
    const d = this.disposables;
    d.listen(doc, 'visibilitychange', () => this.schedule(this.documentVisible(), 'visibilitychange'));
    const passive = { passive: true, capture: true };
    for (const type of ACTIVITY_EVENTS) d.listen(doc, type, () => this.schedule(true, 'activity'), passive);
    d.interval(() => this.validate(), this.validationInterval);
    if (this.win) {
      d.listen(this.win, 'focus', () => this.schedule(true, 'focus'));
      d.listen(this.win, 'blur', () => this.schedule(false, 'blur'));
    }
    const now = this.documentVisible();
    if (now !== this.visible) this.apply(now, 'init');
  }

  /** Removes every listener and timer (a pending debounced change is dropped). `start()` may follow. */
  stop(): void {
    this.running = false;
    this.pending = null;
    this.cancelPending = null;
    this.disposables.dispose();
  }

  /** {@link VisibilityTracker.stop}, and forgets every subscriber. The tracker cannot be restarted. */
  destroy(): void {
    this.stop();
    this.clearListeners();
    this.destroyed = true;
  }

  /**
   * Listens for changes.
   * @param listener - called with `{ visible, previous, source }` after each change
   * @returns the unsubscriber
   */
  override subscribe(listener: VisibilityListener): () => void {
    if (typeof listener !== 'function') throw new TypeError('VisibilityTracker.subscribe: listener must be a function.');
    if (this.destroyed) return () => undefined;
    return super.subscribe(listener);
  }

  /** The current state (for `useSyncExternalStore`). */
  getSnapshot(): boolean {
    return this.visible;
  }

  /** Current state, the last 10 log entries and the number of changes. */
  getStatus(): VisibilityStatus {
    return {
      visible: this.visible,
      log: this.log.slice(-STATUS_LOG_SIZE).map((e) => ({ ...e })),
      totalChanges: this.changes,
    };
  }

  /**
   * The whole kept log, oldest first: at most 100 entries (cut to the last 50 when it passes 100).
   * @returns copies of the entries
   */
  getLog(): VisibilityLogEntry[] {
    return this.log.map((e) => ({ ...e }));
  }

  /** Whether the real document is visible (always true without a document). */
  private documentVisible(): boolean {
    const doc = this.doc;
    if (!doc) return true;
    if (typeof doc.visibilityState === 'string') return doc.visibilityState !== 'hidden';
    return doc.hidden !== true;
  }

  /** Debounces an event-driven change: the last one within `debounceDelay` wins. */
  private schedule(visible: boolean, source: VisibilitySource): void {
    if (!this.running) return;
    if (source === 'blur') this.blurred = true;
    else if (visible) this.blurred = false;
    if (!this.pending && visible === this.visible) return;
    this.pending = { visible, source };
    this.cancelPending?.();
    this.cancelPending = this.disposables.timeout(() => {
      const p = this.pending;
      this.pending = null;
      this.cancelPending = null;
      if (p && p.visible !== this.visible) this.apply(p.visible, p.source);
    }, this.debounceDelay);
  }

  /** The periodic check (skipped while a debounced change is pending). */
  private validate(): void {
    if (this.pending) return;
    const real = this.documentVisible();
    const expected = real && !this.blurred;
    if (expected !== this.visible) this.apply(expected, 'validation');
  }

  private apply(visible: boolean, source: VisibilitySource): void {
    const previous = this.visible;
    this.visible = visible;
    this.changes += 1;
    this.log.push({ timestamp: this.timers.now(), oldState: stateOf(previous), newState: stateOf(visible), source });
    if (this.log.length > LOG_LIMIT) this.log = this.log.slice(-LOG_KEEP);
    this.notify({ visible, previous, source });
  }
}
