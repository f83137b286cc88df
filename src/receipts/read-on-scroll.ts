/**
 * Read on scroll (spec §4): a received message becomes read when it scrolls into view.
 * Framework-agnostic, on `IntersectionObserver`; does nothing where there is none (Node, SSR).
 * @module
 */
import { lazy } from '../lazy.js';
import type { ChatMessage } from '../messages/types.js';
import { flag, isChatMessage } from './receipt.js';

/** The part of an `IntersectionObserverEntry` the helper reads. */
export interface IntersectionEntryLike {
  /** True while the target intersects the root. */
  readonly isIntersecting: boolean;
  /** The observed element. */
  readonly target: Element;
}

/** The part of an `IntersectionObserver` the helper uses. */
export interface IntersectionObserverLike {
  /** Starts observing an element. */
  observe(target: Element): void;
  /** Stops observing an element. */
  unobserve(target: Element): void;
  /** Stops observing everything. */
  disconnect(): void;
}

/** An `IntersectionObserver` constructor (the browser's fits). */
export type IntersectionObserverConstructorLike = new (
  callback: (entries: IntersectionEntryLike[], observer: IntersectionObserverLike) => void,
  options?: { root?: Element | Document | null; rootMargin?: string; threshold?: number | number[] },
) => IntersectionObserverLike;

/** Options of {@link observeReadOnScroll}. */
export interface ReadOnScrollOptions {
  /** The current user id. */
  selfId: string | undefined;
  /** Called once when the message scrolls into view and should be marked read. */
  onRead: (message: ChatMessage) => void;
  /** The observer class; defaults to `globalThis.IntersectionObserver`, looked up at call time. */
  IntersectionObserver?: IntersectionObserverConstructorLike;
  /** Visible fraction that counts as "in view" (default 0.1). */
  threshold?: number;
  /** The scroll container (default: the viewport). */
  root?: Element | Document | null;
  /** Margin around the root, CSS syntax. */
  rootMargin?: string;
  /** Called when `onRead` throws (the observer is stopped all the same). */
  onError?: (error: unknown) => void;
}

/** The default visible fraction for {@link observeReadOnScroll}. @internal */
export const DEFAULT_READ_THRESHOLD = 0.1;

/**
 * Whether a message scrolled into view should be marked read (spec §4 "Read on scroll"): never a
 * message sent by the current user nor one from the robot; otherwise, for a group message, only
 * while the current user is not yet in its `imGroupMsgReadList`; for any other message, only
 * while it is unread (`isRead !== 1`).
 * @param message - the message
 * @param selfId - the current user id (without it, group messages are never marked)
 */
export function shouldMarkReadOnScroll(message: ChatMessage, selfId: string | undefined): boolean {
  if (!isChatMessage(message)) return false;
  if (selfId !== undefined && message.from === selfId) return false;
  if (flag(message.robot)) return false;
  if (!flag(message.isGroup)) return message.isRead !== 1;
  if (selfId === undefined) return false;
  const list = Array.isArray(message.imGroupMsgReadList) ? message.imGroupMsgReadList : [];
  return !list.some((entry) => typeof entry === 'object' && entry !== null && entry.clientId === selfId);
}

/**
 * Watches an element that displays a message; when it scrolls into view and
 * {@link shouldMarkReadOnScroll} holds, calls `onRead` once and stops observing.
 * Without an `IntersectionObserver` it does nothing. The options are checked at once; the
 * observing code loads with the first call (the first element then starts being watched a moment
 * later, the next ones at once); a failed load goes to `onError`.
 * @param element - the element that displays the message
 * @param message - the message
 * @param options - user id, callback and observer settings
 * @returns a disposer that stops observing (safe to call more than once)
 */
export function observeReadOnScroll(element: Element, message: ChatMessage, options: ReadOnScrollOptions): () => void {
  if (!options || typeof options.onRead !== 'function') {
    throw new TypeError('observeReadOnScroll: options.onRead must be a function.');
  }
  const threshold = options.threshold ?? DEFAULT_READ_THRESHOLD;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`observeReadOnScroll: threshold must be between 0 and 1, got ${String(threshold)}.`);
  }
  const Observer =
    options.IntersectionObserver ??
    (globalThis as { IntersectionObserver?: IntersectionObserverConstructorLike }).IntersectionObserver;
  if (typeof Observer !== 'function' || !element || !shouldMarkReadOnScroll(message, options.selfId)) {
    return () => undefined;
  }
  // The observing half loads on first use (a page may never show a received message).
  if (observeInView) return observeInView(element, message, options, Observer, threshold);
  let stopped = false;
  let stopLoaded: (() => void) | null = null;
  loadObserver().then(
    (observe) => {
      if (!stopped) stopLoaded = observe(element, message, options, Observer, threshold);
    },
    (error: unknown) => options.onError?.(error),
  );
  return () => {
    stopped = true;
    stopLoaded?.();
  };
}

type ObserveInView = typeof import('./read-on-scroll-observer.js').observeInView;
let observeInView: ObserveInView | null = null;

/** Loads the observing half of {@link observeReadOnScroll} once (again after a failed load). @internal */
export const loadObserver: () => Promise<ObserveInView> = lazy(() =>
  import('./read-on-scroll-observer.js').then((m) => (observeInView = m.observeInView)),
);
