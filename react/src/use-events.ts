/**
 * `useImEvent` (any client event), `useNotices` and `useNotice` (the toasts the SDK asks for).
 * @module
 */
import type { ImClientEventName, ImClientEvents, Notice } from '@kefu-im/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useImClient } from './context.js';

/** A listener of the client event `E`: called with the event's context object. */
export type ImEventListener<E extends ImClientEventName> = (...args: Parameters<ImClientEvents[E]>) => void;

/**
 * Listens to one event of the provider's client while the component is mounted. The listener may
 * change on every render (the latest one is called; the subscription is not renewed).
 *
 * ```tsx
 * useImEvent('session', (e) => { if (e.event === 'ended') setShowRating(true); });
 * ```
 * @param name - the event name (see the SDK's `ImClientEvents`)
 * @param listener - called with the event's context object
 */
export function useImEvent<E extends ImClientEventName>(name: E, listener: ImEventListener<E>): void {
  const client = useImClient();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const forward: ImEventListener<E> = (...args) => latest.current(...args);
    // eventemitter3 spells the same listener type through its own ArgumentMap, which TypeScript
    // cannot match with Parameters<> for a generic event name.
    const fn = forward as Parameters<typeof client.on<E>>[1];
    client.on(name, fn);
    return () => {
      client.off(name, fn);
    };
  }, [client, name]);
}

/**
 * Calls `listener` for every notice (toast) the client asks for: `{ key, text, level, duration }`,
 * `text` already in the current language. The SDK shows nothing itself.
 * @param listener - shows the notice
 */
export function useNotices(listener: (notice: Notice) => void): void {
  useImEvent('notice', listener);
}

/** What {@link useNotice} returns. */
export interface UseNoticeResult {
  /** The notice to show now, or null. */
  readonly notice: Notice | null;
  /** Hides it before its time. */
  dismiss(): void;
}

/**
 * The latest notice, for a single toast: shown for its `duration` (spec §9: 2 000 ms), then
 * `null`; a newer notice replaces it and starts its own time.
 *
 * ```tsx
 * const { notice } = useNotice();
 * return notice && <div role="status" className={notice.level}>{notice.text}</div>;
 * ```
 */
export function useNotice(): UseNoticeResult {
  const [notice, setNotice] = useState<Notice | null>(null);
  useNotices(setNotice);
  useEffect(() => {
    if (!notice) return undefined;
    const handle = setTimeout(() => setNotice(null), notice.duration);
    return () => clearTimeout(handle);
  }, [notice]);
  const dismiss = useCallback(() => setNotice(null), []);
  return { notice, dismiss };
}
