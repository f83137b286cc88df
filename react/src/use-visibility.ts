/**
 * `useVisibility` (page visibility) and `useReceiptStatus` (the read-receipt manager's status).
 * @module
 */
import type { ReceiptStatus } from '@kefu-im/sdk';
import { useMemo } from 'react';
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

/**
 * The read-receipt status (spec §3 "Receipt manager state"): `{ visible, queued, sent, failed,
 * log }`, the log holding the last 10 visibility changes. Subscribes to `client.receipts` (the
 * manager notifies every change, a flush by its own timer included): no polling. A new object only
 * when a value changed.
 */
export function useReceiptStatus(): ReceiptStatus {
  const client = useImClient();
  return useStoreSelector(client.receipts, identity<ReceiptStatus>);
}
