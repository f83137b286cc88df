/**
 * Page lifecycle for the socket: the page coming back (visible, focused, shown, resumed) tries to
 * reconnect at once; a page back after longer than a heartbeat interval checks that its open
 * socket is still alive; the back/forward cache gets a cleanly closed socket
 * (web.dev "Page Lifecycle API" and "Back/forward cache").
 * @module
 */
import type { DocumentLike } from '../options.js';
import { Disposables, type ListenerTarget, type TimerProvider } from '../timers.js';

/** The narrow part of the connection the lifecycle drives. */
export interface LifecycleConnection {
  /** The user is back: while waiting to reconnect, try at once with a fresh backoff. */
  wake(): void;
  /** Send a heartbeat now; reconnect when no frame answers within `timeoutMs`. */
  probe(timeoutMs: number): void;
  /** Into the back/forward cache: close the socket cleanly, schedule nothing. */
  suspend(): void;
  /** Back from the back/forward cache: reconnect at once. */
  resume(): void;
}

/** Options of {@link PageLifecycle}. */
export interface PageLifecycleOptions {
  /** The window (`focus`, `pageshow`, `pagehide`); null: none. */
  window?: ListenerTarget | null;
  /** The document (`visibilitychange`, `freeze`, `resume`); null: none (always visible). */
  document?: DocumentLike | null;
  /** Timer functions (for the time spent hidden or frozen). */
  timers: TimerProvider;
  /** The connection to drive. */
  connection: LifecycleConnection;
  /** A page away longer than this (ms) checks its socket (spec §9 heartbeat: 20 000). */
  heartbeatInterval: number;
  /** How long the check waits for an answer, ms. */
  livenessTimeout: number;
}

/**
 * Whether a document is visible: `visibilityState` when present, else `hidden`; true without one.
 * @param doc - the document, or null
 * @internal
 */
export function documentVisible(doc: DocumentLike | null | undefined): boolean {
  if (!doc) return true;
  if (typeof doc.visibilityState === 'string') return doc.visibilityState !== 'hidden';
  return doc.hidden !== true;
}

/** Reads `persisted` of a `pageshow`/`pagehide` event. */
function persisted(event: unknown): boolean {
  return typeof event === 'object' && event !== null && Reflect.get(event, 'persisted') === true;
}

/**
 * Listens to the page's lifecycle and calls the connection:
 *
 * | event | action |
 * |---|---|
 * | `visibilitychange` to visible, window `focus`, `pageshow` (not persisted), document `resume` | `wake()`: an immediate attempt while waiting to reconnect |
 * | the same, after being hidden or frozen longer than `heartbeatInterval` | also `probe(livenessTimeout)` |
 * | `pagehide` with `persisted` | `suspend()`: clean close, so the page can enter the back/forward cache |
 * | `pageshow` with `persisted` | `resume()`: reconnect (and the client fetches what was missed) |
 * | document `freeze` | nothing destructive: the time is noted for `resume` |
 *
 * Every listener is registered with a disposer; {@link PageLifecycle.destroy} removes them all.
 */
export class PageLifecycle {
  private readonly options: PageLifecycleOptions;
  private readonly disposables: Disposables;
  private awaySince: number | null = null;

  /** @param options - the targets, the connection and the timings */
  constructor(options: PageLifecycleOptions) {
    this.options = options;
    this.disposables = new Disposables(options.timers);
    const { document: doc, window: win } = options;
    const d = this.disposables;
    if (doc) {
      if (!documentVisible(doc)) this.awaySince = options.timers.now();
      d.listen(doc, 'visibilitychange', () => (documentVisible(doc) ? this.back() : this.away()));
      d.listen(doc, 'freeze', () => this.away());
      d.listen(doc, 'resume', () => this.back());
    }
    if (win) {
      d.listen(win, 'focus', () => this.back());
      d.listen(win, 'pagehide', (event: unknown) => {
        if (persisted(event)) {
          this.away();
          options.connection.suspend();
        }
      });
      d.listen(win, 'pageshow', (event: unknown) => {
        if (persisted(event)) options.connection.resume();
        this.back();
      });
    }
  }

  /** Whether the page is visible now. */
  get visible(): boolean {
    return documentVisible(this.options.document);
  }

  /** How many listeners and timers are registered (0 after {@link PageLifecycle.destroy}). */
  get size(): number {
    return this.disposables.size;
  }

  /** Removes every listener. */
  destroy(): void {
    this.disposables.dispose();
  }

  private away(): void {
    this.awaySince ??= this.options.timers.now();
  }

  private back(): void {
    const { connection, timers, heartbeatInterval, livenessTimeout } = this.options;
    const since = this.awaySince;
    // A focus while still hidden is not "back" for the time away.
    if (!this.visible) {
      connection.wake();
      return;
    }
    this.awaySince = null;
    connection.wake();
    if (since !== null && timers.now() - since > heartbeatInterval) connection.probe(livenessTimeout);
  }
}
