/**
 * The desk's one layout switch: at desk widths the visitor context stands beside the chat; on
 * narrower screens it sits above it, collapsed until opened. The CSS uses the same width.
 * @module
 */
import { useSyncExternalStore } from 'react';

/** Where the desk is wide enough for the context panel beside the chat (desk.css agrees). */
export const WIDE_DESK_QUERY = '(min-width: 1100px)';

function mediaQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(WIDE_DESK_QUERY) : null;
}

function subscribe(onChange: () => void): () => void {
  const query = mediaQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** Whether the desk is at desk width (follows window resizes). */
export function useWideDesk(): boolean {
  return useSyncExternalStore(subscribe, () => mediaQuery()?.matches ?? true, () => true);
}
