/**
 * Hooks over an agent's desk (`@kefu-im/sdk/agent`): the queue snapshot, and one conversation's
 * messages with its history paging. The desk does the loading; the hooks only subscribe.
 * @module
 */
import type { StoredMessage } from '@kefu-im/sdk';
import { isChatType } from '@kefu-im/sdk/format';
import type { AgentDesk, AgentDeskSnapshot, ConversationHistory } from '@kefu-im/sdk/agent';
import { useCallback } from 'react';
import { useMessages } from './use-messages.js';
import { identity, shallowEqual, useStoreSelector } from './store-selector.js';

/**
 * The desk's queue and open conversations (type 310), re-rendering on each snapshot.
 * @param desk - the agent's desk
 */
export function useAgentQueue(desk: AgentDesk): AgentDeskSnapshot {
  return useStoreSelector(desk.queue, identity<AgentDeskSnapshot>);
}

/** What {@link useAgentHistory} returns. */
export interface UseAgentHistoryResult extends ConversationHistory {
  /** The conversation's chat messages, in display order. */
  messages: readonly StoredMessage[];
  /** Loads the next older page (the agent history call). */
  loadOlder: () => Promise<void>;
}

/**
 * One conversation of the agent: its messages (robot phase included, caught up after every
 * reconnect by the desk) and its history paging.
 * @param desk - the agent's desk
 * @param clientId - the visitor of the conversation
 */
export function useAgentHistory(desk: AgentDesk, clientId: string): UseAgentHistoryResult {
  const select = useCallback((list: readonly StoredMessage[]) => list.filter((m) => (m.from === clientId || m.to === clientId) && isChatType(m.type)), [clientId]);
  const { messages } = useMessages(select, shallowEqual);
  const history = useStoreSelector(desk.conversation(clientId), identity<ConversationHistory>);
  const loadOlder = useCallback(() => desk.loadOlder(clientId).catch(() => undefined), [desk, clientId]);
  return { ...history, messages, loadOlder };
}
