/**
 * One conversation on the agent desk: the visitor's history (loaded with `findMsgForCus`), the
 * live messages, the same rows and composer as the visitor's chat (sending to the visitor), and
 * the end-of-conversation action (type 302 to the visitor).
 * @module
 */
import { isChatType, MessageType, messageTimeMs, type StoredMessage } from '@kefu-im/sdk';
import { shallowEqual, useConnection, useI18n, useImClient, useMessages } from '@kefu-im/react';
import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ReactElement } from 'react';
import { Composer } from '../chat/composer.js';
import { ChatContext, type ChatActions, type ConversationInfo } from '../chat/conversation.js';
import { MessageList, type MessageListHandle } from '../chat/message-list.js';
import { readEntryQuery } from '../env/entry.js';
import type { DeskSession } from './agent-workspace.js';

const ImagePreview = lazy(() => import('../dialogs/image-preview.js'));

/** Page size of the visitor's history. */
const PAGE = 30;

/** The conversation with one visitor. */
export function AgentChat({ session }: { session: DeskSession }): ReactElement {
  const { t } = useI18n();
  const client = useImClient();
  const userId = useConnection((c) => c.userId);
  const visitor = session.clientId;
  const select = useCallback((list: readonly StoredMessage[]) => list.filter((m) => (m.from === visitor || m.to === visitor) && isChatType(m.type)), [visitor]);
  const { messages } = useMessages(select, shallowEqual);
  const [paging, setPaging] = useState({ hasMore: session.mchId !== undefined, loading: false });
  const [preview, setPreview] = useState<string | null>(null);
  const [scrollRoot, setScrollRoot] = useState<HTMLElement | null>(null);
  const list = useRef<MessageListHandle>(null);
  const oldest = messages.length > 0 ? messageTimeMs(messages[0] ?? { type: 0 }) : undefined;

  const loadOlder = useCallback(() => {
    if (paging.loading || !paging.hasMore || session.mchId === undefined || session.platformId === undefined) return;
    setPaging((p) => ({ ...p, loading: true }));
    client.api
      .findMsgForCus({ clientId: visitor, mchId: session.mchId, platformId: session.platformId, size: PAGE, ...(oldest === undefined ? {} : { before: oldest }) })
      .then(
        (page) => {
          client.messages.upsertMany(page.list);
          setPaging({ hasMore: page.hasMore === true, loading: false });
        },
        () => setPaging({ hasMore: false, loading: false }),
      );
  }, [client, visitor, session.mchId, session.platformId, oldest, paging.loading, paging.hasMore]);

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
  const end = (): void => {
    client.send({ type: MessageType.EndConversation, to: visitor, dataContent: '{}' });
  };

  return (
    <ChatContext.Provider value={actions}>
      <div className="agent-chat">
        <div className="agent-chat-head hairline-bottom">
          <h2>{session.name}</h2>
          <button type="button" className="btn btn-small btn-danger" onClick={end}>
            {t('endConversation')}
          </button>
        </div>
        <MessageList ref={list} messages={messages} isMine={isMine} hasMore={paging.hasMore} loading={paging.loading} onLoadOlder={loadOlder} onRoot={setScrollRoot} label={session.name} />
        <Composer />
        {preview && (
          <Suspense fallback={null}>
            <ImagePreview data={preview} onClose={() => setPreview(null)} />
          </Suspense>
        )}
      </div>
    </ChatContext.Provider>
  );
}
