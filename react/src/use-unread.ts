/**
 * `useUnread`: unread counts from the client's `client.unread` store.
 * @module
 */
import type { UnreadSnapshot } from '@kefu-im/sdk';
import { useCallback } from 'react';
import { useImClient } from './context.js';
import { useStoreSelector } from './store-selector.js';

/**
 * How many messages from the other side are unread (arrived while the page was hidden and not read
 * since, under the read-receipt rules), re-rendering only when that number changes. The SDK's
 * counting code loads with the first use.
 * @param conversationId - the other party's id (an agent's visitor); omitted: every conversation
 *   (a visitor's one conversation)
 * @returns the count
 */
export function useUnread(conversationId?: string): number {
  const client = useImClient();
  const select = useCallback(
    (s: UnreadSnapshot) => (conversationId === undefined ? s.total : (s.byConversation[conversationId] ?? 0)),
    [conversationId],
  );
  return useStoreSelector(client.unread, select);
}
