/**
 * Scroll-to-bottom for a message list (spec §9): scroll when the view is less than 400 px from the
 * bottom or when forced, and retry every 100 ms while content is still growing (images loading),
 * unless the reader scrolled up meanwhile.
 * @module
 */
import { DEFAULT_LIMITS } from '../options.js';
import { defaultTimers, type Disposer, type TimerProvider } from '../timers.js';

/** The scroll container: any element with scroll metrics. */
export interface ScrollContainer {
  /** Current scroll offset from the top. */
  scrollTop: number;
  /** Height of the whole content. */
  readonly scrollHeight: number;
  /** Visible height. */
  readonly clientHeight: number;
  /** Scroll events (an element has them): the retries stop when the reader scrolls up. */
  addEventListener?(type: 'scroll', listener: () => void, options?: { passive?: boolean }): void;
  /** Removes a scroll listener. */
  removeEventListener?(type: 'scroll', listener: () => void): void;
}

/** Options of {@link scrollToBottom}. */
export interface ScrollToBottomOptions {
  /** Scroll even when the reader is far from the bottom (e.g. after sending). */
  force?: boolean;
  /** Distance from the bottom under which the view follows new content, px (400). */
  threshold?: number;
  /** Retry interval while the content grows, ms (100). */
  retryInterval?: number;
  /** How many retries at most (10). */
  maxRetries?: number;
  /** Timers (defaults to the global ones, looked up at call time). */
  timers?: TimerProvider;
}

/** What {@link scrollToBottom} did. */
export interface ScrollToBottomResult {
  /** True when it scrolled (near the bottom, or forced). */
  scrolled: boolean;
  /** Stops the retries. */
  cancel: Disposer;
}

/**
 * Distance between the bottom of the view and the bottom of the content, px.
 * @param el - the scroll container
 */
export function distanceFromBottom(el: ScrollContainer): number {
  return Math.max(0, el.scrollHeight - el.clientHeight - el.scrollTop);
}

/**
 * Whether the view moved up from `before` and is away from the bottom: the reader scrolled up
 * (a browser lowers `scrollTop` by itself only when the content shrank, and then the view is at
 * the new bottom).
 * @param el - the scroll container
 * @param before - the `scrollTop` seen last
 */
function movedUpFrom(el: ScrollContainer, before: number): boolean {
  return el.scrollTop < before - 1 && distanceFromBottom(el) > 1;
}

/**
 * Scrolls `el` to the bottom when it is within `threshold` px of it or `force` is set, then checks
 * again every `retryInterval` ms (at most `maxRetries` times) until it stays at the bottom. The
 * retries stop as soon as the reader scrolls up: they follow content that grows, never the reader.
 * @param el - the scroll container
 * @param options - see {@link ScrollToBottomOptions}
 * @returns whether it scrolled, and a disposer that stops the retries
 */
export function scrollToBottom(el: ScrollContainer, options: ScrollToBottomOptions = {}): ScrollToBottomResult {
  const threshold = options.threshold ?? DEFAULT_LIMITS.scrollBottomThreshold;
  const interval = options.retryInterval ?? DEFAULT_LIMITS.scrollRetryInterval;
  const maxRetries = options.maxRetries ?? 10;
  const timers = options.timers ?? defaultTimers;
  if (!options.force && distanceFromBottom(el) >= threshold) return { scrolled: false, cancel: () => undefined };
  el.scrollTop = el.scrollHeight;
  // The view as last seen (by a scroll event or a retry): a move up from there is the reader's.
  let seen = el.scrollTop;
  let retries = 0;
  let handle: unknown = null;
  const onScroll = (): void => {
    if (movedUpFrom(el, seen)) cancel();
    else seen = el.scrollTop;
  };
  const cancel = (): void => {
    if (handle !== null) timers.clearInterval(handle);
    handle = null;
    el.removeEventListener?.('scroll', onScroll);
  };
  el.addEventListener?.('scroll', onScroll, { passive: true });
  handle = timers.setInterval(() => {
    retries += 1;
    if (movedUpFrom(el, seen)) {
      cancel();
      return;
    }
    if (distanceFromBottom(el) > 1) el.scrollTop = el.scrollHeight;
    else if (retries >= 2) cancel();
    seen = el.scrollTop;
    if (retries >= maxRetries) cancel();
  }, interval);
  return { scrolled: true, cancel };
}
