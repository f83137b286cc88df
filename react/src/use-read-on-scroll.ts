/**
 * `useReadOnScroll`: marks a received message read when its element scrolls into view.
 * @module
 */
import type { ChatMessage, IntersectionObserverConstructorLike } from '@kefu-im/sdk';
import { observeReadOnScroll } from '@kefu-im/sdk/format';
import { useEffect, type RefObject } from 'react';
import { useImClient } from './context.js';
import { useConnection } from './use-connection.js';

/** Options of {@link useReadOnScroll}. */
export interface UseReadOnScrollOptions {
  /** The scroll container (default: the viewport). */
  root?: Element | Document | null;
  /** Margin around the root, CSS syntax. */
  rootMargin?: string;
  /** Visible fraction that counts as in view (default 0.1). */
  threshold?: number;
  /** The observer class (default `globalThis.IntersectionObserver`; without one nothing happens). */
  IntersectionObserver?: IntersectionObserverConstructorLike;
}

function userIdOf(c: { userId: string | undefined }): string | undefined {
  return c.userId;
}

/**
 * Watches the element in `ref` (spec §4 "Read on scroll"): when it scrolls into view and the
 * message needs it (not ours, not the robot's, unread; for a group message, not yet in its read
 * list), `client.markRead(message)` sends the receipt once and observing stops. Runs only in the
 * browser (in an effect) and again when the message, the user id or an option changes.
 *
 * ```tsx
 * const ref = useRef<HTMLDivElement>(null);
 * useReadOnScroll(ref, message);
 * return <div ref={ref}>{message.dataContent}</div>;
 * ```
 * @param ref - the element that displays the message
 * @param message - the message (nothing happens while it is undefined)
 * @param options - observer settings
 */
export function useReadOnScroll(ref: RefObject<Element | null>, message: ChatMessage | undefined, options: UseReadOnScrollOptions = {}): void {
  const client = useImClient();
  const selfId = useConnection(userIdOf);
  const { root, rootMargin, threshold, IntersectionObserver } = options;
  useEffect(() => {
    const element = ref.current;
    if (!element || !message) return undefined;
    return observeReadOnScroll(element, message, {
      selfId,
      onRead: (m) => client.markRead(m),
      ...(root !== undefined ? { root } : {}),
      ...(rootMargin !== undefined ? { rootMargin } : {}),
      ...(threshold !== undefined ? { threshold } : {}),
      ...(IntersectionObserver !== undefined ? { IntersectionObserver } : {}),
    });
  }, [client, ref, message, selfId, root, rootMargin, threshold, IntersectionObserver]);
}
