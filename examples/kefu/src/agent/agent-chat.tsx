/**
 * One conversation on the agent desk: the visitor's whole history, robot phase included (loaded
 * and caught up by the SDK's agent desk with the agent history call), the live messages, the same rows and composer as the visitor's chat (sending to the visitor), and
 * the end-of-conversation action (type 302 to the visitor).
 * @module
 */
import type { AgentSession, StoredMessage } from '@kefu-im/sdk';
import type { AgentDesk } from '@kefu-im/sdk/agent';
import { useAgentHistory, useConnection, useI18n } from '@kefu-im/react';
import { lazy, useCallback, useMemo, useRef, useState, type ReactElement } from 'react';
import { Composer } from '../chat/composer.js';
import { ChatContext, type ChatActions, type ConversationInfo } from '../chat/conversation.js';
import { MessageList, type MessageListHandle } from '../chat/message-list.js';
import { DeskTyping } from '../chat/typing-indicator.js';
import { readEntryQuery } from '../env/entry.js';
import { LazyPart } from '../ui/lazy-part.js';

const ImagePreview = lazy(() => import('../dialogs/image-preview.js'));

/** The conversation with one visitor. */
export function AgentChat({ session, desk }: { session: AgentSession; desk: AgentDesk }): ReactElement {
  const { t } = useI18n();
  const userId = useConnection((c) => c.userId);
  const visitor = session.clientId;
  const { messages, hasMore, loading, loadOlder } = useAgentHistory(desk, visitor);
  const [preview, setPreview] = useState<string | null>(null);
  const [scrollRoot, setScrollRoot] = useState<HTMLElement | null>(null);
  const list = useRef<MessageListHandle>(null);
  const onLoadOlder = useCallback(() => void loadOlder(), [loadOlder]);

  const info = useMemo<ConversationInfo>(
    () => ({ kind: 'service', mchId: session.mchId ?? '', platformId: session.platformId ?? '', kefuId: '', groupId: null, title: session.name, notice: '', query: readEntryQuery('') }),
    [session.mchId, session.platformId, session.name],
  );
  const actions = useMemo<ChatActions>(
    () => ({
      info,
      role: 'agent',
      target: { to: visitor },
      openDialog: (name, data) => {
        if (name === 'preview' && data) setPreview(data);
      },
      ask: () => undefined,
      reveal: (fp) => void list.current?.reveal(fp),
      scrollRoot,
    }),
    [info, visitor, scrollRoot],
  );
  const isMine = useCallback((m: StoredMessage) => userId !== undefined && m.from === userId, [userId]);
  const end = (): void => desk.end(visitor);

  return (
    <ChatContext.Provider value={actions}>
      <div className="agent-chat">
        <div className="agent-chat-head hairline-bottom">
          <h2>{session.name}</h2>
          <button type="button" className="btn btn-small btn-danger" onClick={end}>
            {t('endConversation')}
          </button>
        </div>
        <MessageList ref={list} messages={messages} isMine={isMine} hasMore={hasMore} loading={loading} onLoadOlder={onLoadOlder} onRoot={setScrollRoot} label={session.name} />
        <DeskTyping visitor={visitor} />
        <Composer />
        {preview && (
          <LazyPart onFailure={() => setPreview(null)}>
            <ImagePreview data={preview} onClose={() => setPreview(null)} />
          </LazyPart>
        )}
      </div>
    </ChatContext.Provider>
  );
}
