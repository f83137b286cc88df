/**
 * `useTyping`: who is typing in a conversation (type 105), read from `client.typing.store`.
 * @module
 */
import type { TypingIndicator, TypingSnapshot } from '@kefu-im/sdk';
import { useCallback, useEffect } from 'react';
import { useImClient } from './context.js';
import { useStoreSelector } from './store-selector.js';

export type { TypingIndicator } from '@kefu-im/sdk';

/** The indicator of a conversation where nobody types. */
const NOBODY: TypingIndicator = Object.freeze({ typing: false, from: '', who: '', since: 0 });

/**
 * Whether the other party types in a conversation: `{ typing, who, since, preview? }` (`preview`
 * is the visitor's draft, for an agent whose merchant has sneak peek on). Loads the SDK's typing
 * room on mount, so signals are heard before the first keystroke; re-renders only when this
 * conversation's indicator changes. Feed the composer with `client.typing.input(draft)` and
 * `client.typing.blur()`.
 *
 * ```tsx
 * const { typing, who } = useTyping();
 * {typing && <p role="status">{who} is typing…</p>}
 * ```
 * @param conversationId - the visitor's client id (an agent's desk names it; a visitor leaves it out for its own)
 */
export function useTyping(conversationId?: string): TypingIndicator {
  const client = useImClient();
  useEffect(() => {
    client.typing.load().catch(() => undefined);
  }, [client]);
  const select = useCallback(
    (snapshot: TypingSnapshot) => snapshot.conversations[conversationId ?? client.userId ?? ''] ?? NOBODY,
    [client, conversationId],
  );
  return useStoreSelector(client.typing.store, select);
}
