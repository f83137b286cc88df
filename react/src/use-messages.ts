/**
 * `useMessages` (the conversation with history paging) and `useMessage` (one message).
 * @module
 */
import type { MessagePage, StoredMessage } from '@kefu-im/sdk';
import { useCallback } from 'react';
import { pagingStore, type PagingSnapshot } from './client-stores.js';
import { useImClient } from './context.js';
import { identity, useStoreSelector, type EqualityFn } from './store-selector.js';

export type { PagingSnapshot } from './client-stores.js';

/** What {@link useMessages} returns. */
export interface UseMessagesResult<S> extends PagingSnapshot {
  /** The messages in display order (oldest first), or the selector's slice of them. */
  readonly messages: S;
  /**
   * Loads the page of history before the oldest message held (the newest page when none is
   * held); the list sorts by time, so older pages appear at the top. Calls made while a page is
   * loading share it. Resolves with the page, or `null` when it failed (see `error`; the client
   * has shown its notice). Never rejects.
   * @param size - page size (default 20)
   */
  loadOlder(size?: number): Promise<MessagePage | null>;
}

/**
 * The messages of the conversation (`client.messages`) and the history paging state. The array
 * keeps its identity until the list changes and each message keeps its identity until it
 * changes, so memoised rows re-render only for their own message.
 *
 * ```tsx
 * const { messages, loadOlder, hasMore, loading } = useMessages();
 * const count = useMessages((list) => list.length).messages;
 * ```
 * @param selector - picks a slice of the list (default: the whole list)
 * @param isEqual - optional equality of two slices (default `Object.is`)
 */
export function useMessages<S = readonly StoredMessage[]>(
  selector?: (messages: readonly StoredMessage[]) => S,
  isEqual?: EqualityFn<S>,
): UseMessagesResult<S> {
  const client = useImClient();
  const messages = useStoreSelector(client.messages, selector ?? identity<readonly StoredMessage[], S>, isEqual);
  const paging = pagingStore(client);
  const { loading, hasMore, error } = useStoreSelector(paging, identity<PagingSnapshot>);
  return { messages, loading, hasMore, error, loadOlder: paging.loadOlder };
}

/**
 * One message by its `fp` (or the generated key of a message without one); re-renders only when
 * that message changes (read, acknowledged, failed).
 * @param fp - the message's fingerprint
 * @returns the message, or `undefined` while the list holds none with this fp
 */
export function useMessage(fp: string): StoredMessage | undefined {
  const client = useImClient();
  const select = useCallback(() => client.messages.get(fp), [client, fp]);
  return useStoreSelector(client.messages, select);
}
