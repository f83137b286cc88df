/**
 * The observing half of read on scroll, loaded with the first `observeReadOnScroll` call.
 * @module
 * @internal
 */
import type { ChatMessage } from '../messages/types.js';
import {
  shouldMarkReadOnScroll,
  type IntersectionObserverConstructorLike,
  type IntersectionObserverLike,
  type ReadOnScrollOptions,
} from './read-on-scroll.js';

/**
 * Observes `element` until `message` scrolls into view, then calls `onRead` once and stops.
 * @returns a disposer that stops observing (safe to call more than once)
 * @internal
 */
export function observeInView(
  element: Element,
  message: ChatMessage,
  options: ReadOnScrollOptions,
  Observer: IntersectionObserverConstructorLike,
  threshold: number,
): () => void {
  let stopped = false;
  let observer: IntersectionObserverLike | null = null;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    observer?.unobserve(element);
    observer?.disconnect();
    observer = null;
  };
  const init: { threshold: number; root?: Element | Document | null; rootMargin?: string } = { threshold };
  if (options.root !== undefined) init.root = options.root;
  if (options.rootMargin !== undefined) init.rootMargin = options.rootMargin;
  observer = new Observer((entries) => {
    if (stopped) return;
    if (!entries.some((e) => e.isIntersecting && e.target === element)) return;
    stop();
    if (!shouldMarkReadOnScroll(message, options.selfId)) return;
    try {
      options.onRead(message);
    } catch (error) {
      options.onError?.(error);
    }
  }, init);
  observer.observe(element);
  return stop;
}
