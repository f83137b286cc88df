/**
 * `useVisibility` (page visibility) and `useReceiptStatus` (the read-receipt manager's status).
 * @module
 */
import type { ReceiptStatus } from '@kefu-im/sdk';
import { useEffect, useMemo } from 'react';
import { receiptStore } from './client-stores.js';
import { useImClient } from './context.js';
import { identity, useStoreSelector, type ExternalStore } from './store-selector.js';

/**
 * Whether the page is visible, as the client's visibility tracker sees it (spec §4: events,
 * focus and blur, activity, the periodic check; debounced). Always true without a document.
 */
export function useVisibility(): boolean {
  const client = useImClient();
  const tracker = client.visibility;
  const store = useMemo<ExternalStore<boolean>>(
    () => ({ subscribe: (listener) => tracker.subscribe(() => listener()), getSnapshot: () => tracker.getSnapshot() }),
    [tracker],
  );
  return useStoreSelector(store, identity<boolean>);
}

/** Options of {@link useReceiptStatus}. */
export interface UseReceiptStatusOptions {
  /**
   * Re-read the status this often while mounted, ms (default 1 000; 0 turns it off). The receipt
   * manager has no change events of its own: without this, a queue flushed by its timer (after
   * the page turned visible) shows on the next visibility change or incoming message only.
   */
  refreshInterval?: number;
}

/**
 * The read-receipt status (spec §3 "Receipt manager state"): `{ visible, queued, sent, failed,
 * log }`, the log holding the last 10 visibility changes. A new object only when a value changed.
 * @param options - the refresh interval
 */
export function useReceiptStatus(options: UseReceiptStatusOptions = {}): ReceiptStatus {
  const client = useImClient();
  const store = receiptStore(client);
  const interval = options.refreshInterval ?? 1_000;
  useEffect(() => {
    store.refresh();
    if (!(interval > 0)) return undefined;
    const handle = setInterval(store.refresh, interval);
    return () => clearInterval(handle);
  }, [store, interval]);
  return useStoreSelector(store, identity<ReceiptStatus>);
}
