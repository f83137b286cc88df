/**
 * One conversation on the agent desk: the visitor's history, robot phase included (loaded and
 * caught up by the SDK's agent desk with the agent history call), the live messages, the same
 * rows and composer as the visitor's chat (sending to the visitor), and the end action (type 302
 * to the visitor). An ended conversation stays read-only, with who ended it and the visitor's
 * rating, until the agent closes it; so does one transferred to another agent, with its name. A visitor who came back has one conversation of each kind:
 * each shows its own part of the visitor's thread (split at the end of the earlier one).
 * @module
 */
import type { StoredMessage } from '@kefu-im/sdk';
import type { AgentDesk, ConversationWindow, DeskConversation } from '@kefu-im/sdk/agent';
import { messageTimeMs } from '@kefu-im/sdk/format';
import { useAgentHistory, useConnection, useI18n } from '@kefu-im/react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { Composer } from '../chat/composer.js';
import { ChatContext, type ChatActions, type ConversationInfo } from '../chat/conversation.js';
import { MessageList, type MessageListHandle } from '../chat/message-list.js';
import { DeskTyping } from '../chat/typing-indicator.js';
import { appText } from '../env/app-texts.js';
import { readEntryQuery } from '../env/entry.js';
import { LazyPart, retryingLazy } from '../ui/lazy-part.js';
import { TransferControl, TransferredNote } from './desk-routing.js';
import { ContextPanel } from './context-panel.js';
import { deskText, visitorLabel } from './desk-texts.js';
import { EndConfirm } from '../dialogs/end-confirm.js';
import { useCannedSlash } from './use-canned.js';

const ImagePreview = retryingLazy(() => import('../dialogs/image-preview.js'));

/** Whether a message falls in a conversation's window of the visitor's thread. */
export function inWindow(message: StoredMessage, window: ConversationWindow): boolean {
  const t = messageTimeMs(message);
  if (t === undefined) return window.until === undefined; // not stored yet: the open conversation's
  return (window.after === undefined || t > window.after) && (window.until === undefined || t <= window.until);
}

/** Who ended the conversation, and the visitor's rating; or whom it was transferred to. */
function EndedNote({ conversation }: { conversation: DeskConversation }): ReactElement {
  const { language } = useI18n();
  if (conversation.status === 'transferred') {
    return (
      <div className="agent-chat-ended" role="status">
        <p>{appText(language, 'deskTransferredTo', { name: conversation.transferredTo?.name ?? '' })}</p>
      </div>
    );
  }
  const who = conversation.endedBy === 'visitor' ? 'deskVisitorEnded' : conversation.endedBy === 'agent' ? 'deskAgentEnded' : 'deskConversationEnded';
  const rating = conversation.rating;
  return (
    <div className="agent-chat-ended" role="status">
      <p>{appText(language, who)}</p>
      <p>
        {rating ? appText(language, 'deskRating', { score: rating.score }) : appText(language, 'deskNotRated')}
        {rating?.remark ? ` · “${rating.remark}”` : ''}
      </p>
    </div>
  );
}

/** Props of {@link AgentChat}. */
export interface AgentChatProps {
  /** The conversation. */
  conversation: DeskConversation;
  /** Its part of the visitor's thread. */
  window: ConversationWindow;
  /** The agent's desk. */
  desk: AgentDesk;
  /** Put focus on the conversation's heading when it opens (accepted from a preview, whose controls are gone). */
  focusHeading?: boolean;
}

/** The conversation with one visitor: the chat, and beside it (above it on narrow screens) the visitor's context. */
export function AgentChat({ conversation, window, desk, focusHeading = false }: AgentChatProps): ReactElement {
  const { t, language } = useI18n();
  const userId = useConnection((c) => c.userId);
  const visitor = conversation.clientId;
  const ended = conversation.status !== 'active'; // ended or transferred: read-only
  // (a transferred one shows what the desk held: its older pages are the other agent's now, 4003)
  const history = useAgentHistory(desk, visitor);
  const { hasMore, loading, loadOlder } = history;
  const messages = useMemo(() => history.messages.filter((m) => inWindow(m, window)), [history.messages, window]);
  const [preview, setPreview] = useState<string | null>(null);
  const [scrollRoot, setScrollRoot] = useState<HTMLElement | null>(null);
  const list = useRef<MessageListHandle>(null);
  const onLoadOlder = useCallback(() => void loadOlder(), [loadOlder]);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const name = visitorLabel(conversation.name, visitor, language);
  const slash = useCannedSlash(desk, conversation.mchId ?? undefined, deskText(language, 'cannedReplies'));

  const info = useMemo<ConversationInfo>(
    () => ({ kind: 'service', mchId: conversation.mchId ?? '', platformId: conversation.platformId ?? '', kefuId: '', groupId: null, title: name, notice: '', query: readEntryQuery('') }),
    [conversation.mchId, conversation.platformId, name],
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
      // the visitor's name above its messages as in the heading (a server default, in the desk's language)
      senderName: (m) => (m.from === visitor ? visitorLabel(m.fn ?? '', visitor, language) : undefined),
    }),
    [info, visitor, scrollRoot, language],
  );
  const isMine = useCallback((m: StoredMessage) => userId !== undefined && m.from === userId, [userId]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);

  return (
    <ChatContext.Provider value={actions}>
      <div className="agent-chat">
        <div className="agent-chat-head hairline-bottom">
          <h2 ref={heading} tabIndex={-1}>
            {name}
          </h2>
          {ended ? (
            <button type="button" className="btn btn-small" onClick={() => desk.conversations.close(conversation.sessionId)}>
              {appText(language, 'deskClose')}
            </button>
          ) : (
            <>
              <TransferControl desk={desk} clientId={visitor} {...(conversation.mchId ? { mchId: conversation.mchId } : {})} />
              <button type="button" className="btn btn-small btn-danger" onClick={() => setConfirmEnd(true)}>
                {t('endConversation')}
              </button>
            </>
          )}
        </div>
        {!ended && <TransferredNote desk={desk} clientId={visitor} />}
        <div className="agent-chat-body">
          <div className="agent-chat-thread">
            <MessageList ref={list} messages={messages} isMine={isMine} hasMore={hasMore && window.after === undefined && conversation.status !== 'transferred'} loading={loading} onLoadOlder={onLoadOlder} onRoot={setScrollRoot} label={name} />
            {ended ? (
              <EndedNote conversation={conversation} />
            ) : (
              <>
                <DeskTyping visitor={visitor} />
                <Composer slash={slash} />
              </>
            )}
          </div>
          <ContextPanel desk={desk} clientId={visitor} mchId={conversation.mchId ?? ''} platformId={conversation.platformId ?? ''} load={conversation.status !== 'transferred'} />
        </div>
        {confirmEnd && <EndConfirm onEnd={() => desk.end(visitor)} onClose={() => setConfirmEnd(false)} />}
        {preview && (
          <LazyPart onFailure={() => setPreview(null)}>
            <ImagePreview data={preview} onClose={() => setPreview(null)} />
          </LazyPart>
        )}
      </div>
    </ChatContext.Provider>
  );
}
