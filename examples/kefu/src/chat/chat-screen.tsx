/**
 * The visitor's chat screen (spec §2): header, session state, the virtualised history, suggested
 * questions, the composer, toasts for the client's notices, and the dialogs (loaded lazily).
 * @module
 */
import type { Notice, StoredMessage } from '@kefu-im/sdk';
import { useConnection, useI18n, useImClient, useImEvent, useMessages, useNotices, useSession } from '@kefu-im/react';
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentType, type ReactElement } from 'react';
import { useLocation } from 'wouter';
import { LazyPart, retryingLazy } from '../ui/lazy-part.js';
import { useToast } from '../ui/toaster.js';
import { useRuntime } from '../runtime/context.js';
import type { ChatDialogProps } from '../dialogs/types.js';
import { appText } from '../env/app-texts.js';
import { ChatHeader } from './chat-header.js';
import { ConnectionBanner } from './connection-banner.js';
import { conversationRows, lastChatFp } from './end-divider.js';
import { Composer, isWriting } from './composer.js';
import { useFirstScreenRows } from './first-screen.js';
import { ChatContext, type ChatActions, type ConversationInfo, type DialogName } from './conversation.js';
import { MessageList, type MessageListHandle } from './message-list.js';
import { AvailabilityNotice } from './availability-notice.js';
import { SessionBar } from './session-bar.js';
import { SuggestionChips } from './suggestion-chips.js';
import { SneakPeekNote, TypingIndicator } from './typing-indicator.js';

const loadRatingDialog = (): Promise<{ default: ComponentType<ChatDialogProps> }> => import('../dialogs/rating-dialog.js');
const DIALOGS: Record<DialogName, ComponentType<ChatDialogProps>> = {
  transfer: retryingLazy(() => import('../dialogs/transfer-dialog.js')),
  rating: retryingLazy(loadRatingDialog),
  complaint: retryingLazy(() => import('../dialogs/complaint-dialog.js')),
  leave: retryingLazy(() => import('../dialogs/leave-message-dialog.js')),
  deposit: retryingLazy(() => import('../dialogs/deposit-dialog.js')),
  search: retryingLazy(() => import('../dialogs/search-dialog.js')),
  preview: retryingLazy(() => import('../dialogs/image-preview.js')),
  faq: retryingLazy(() => import('../dialogs/faq-dialog.js')),
  end: retryingLazy(() => import('../dialogs/end-dialog.js')),
  language: retryingLazy(() => import('../dialogs/language-dialog.js')),
};
const DepositPanel = retryingLazy(() => import('../dialogs/deposit-panel.js'));

/** The client's notices the chat screen says in its own words: the end (what ended, what to do next). */
const OWN_WORDS: ReadonlySet<string> = new Set(['conversationOver']);

/**
 * Shows the client's notices as toasts (but those the screen says in its own words), first those
 * told before the chat was mounted (a first visit's wait for its first page).
 */
export function ClientNotices(): null {
  const toast = useToast();
  const client = useImClient();
  const runtime = useRuntime();
  const show = useCallback(
    (notice: Notice) => {
      if (!OWN_WORDS.has(notice.key)) toast(notice.text, notice.level, notice.duration);
    },
    [toast],
  );
  useNotices(show);
  // after useNotices' own effect has subscribed: nothing told in between is missed
  useEffect(() => runtime.takeHeldNotices(client).forEach(show), [runtime, client, show]);
  return null;
}

/** The chat screen of one conversation. */
export function ChatScreen({ info }: { info: ConversationInfo }): ReactElement {
  const client = useImClient();
  const { t, language } = useI18n();
  const toast = useToast();
  const [, navigate] = useLocation();
  const { messages, hasMore, loading, loadOlder } = useMessages();
  const userId = useConnection((c) => c.userId);
  const [dialog, setDialog] = useState<{ name: DialogName; data?: string } | null>(null);
  const [scrollRoot, setScrollRoot] = useState<HTMLElement | null>(null);
  const rated = useRef(new Set<string>());
  const list = useRef<MessageListHandle>(null);

  const openDialog = useCallback((name: DialogName, data?: string) => setDialog({ name, ...(data === undefined ? {} : { data }) }), []);
  const ask = useCallback(
    (questionId: string | number) => {
      client.api.question({ clientId: client.clientId, mchId: info.mchId, platformId: info.platformId, questionId }).catch(() => undefined);
    },
    [client, info.mchId, info.platformId],
  );
  const reveal = useCallback((fp: string) => {
    list.current?.reveal(fp);
  }, []);
  const target = useMemo(() => (info.kind !== 'service' && info.groupId ? { to: info.groupId, isGroup: true } : {}), [info.kind, info.groupId]);
  const actions = useMemo<ChatActions>(
    () => ({ info, role: 'visitor', target, openDialog, ask, reveal, scrollRoot }),
    [info, target, openDialog, ask, reveal, scrollRoot],
  );

  useImEvent('session', (event) => {
    // what ended and what the visitor can do now (rate, or write to start a new conversation)
    if (event.event === 'ended') toast(appText(language, 'conversationEndedNext'), 'info', 6_000);
    if (event.event === 'rate-invite') {
      const id = typeof event.sessionId === 'string' ? event.sessionId : '';
      // Never snatch the focus from a visitor in the middle of a text: the ended bar's rating
      // button stays as the prompt.
      if (!rated.current.has(id) && !isWriting(document)) openDialog('rating');
    }
  });
  useImEvent('refusal', (event) => {
    if (event.reason === 'banned') navigate('/401', { replace: true });
  });

  const isMine = useCallback((m: StoredMessage) => m.from === client.clientId || (userId !== undefined && m.from === userId), [client, userId]);
  const onLoadOlder = useCallback((size?: number) => void loadOlder(size), [loadOlder]);
  // Conversation rows and the end of each conversation (a divider): history pages also hold
  // other control messages (suggestions, session events), which the session bar and the
  // suggestion chips show instead.
  const status = useSession((s) => s.status);
  const [endedAfter, setEndedAfter] = useState<ReadonlySet<string>>(() => new Set());
  // A returning visitor's stored newest messages, until the first history page replaces them.
  const stored = useFirstScreenRows(client, loadOlder);
  const listed = stored ?? messages;
  const shown = useMemo(() => conversationRows(listed, endedAfter, info.kind === 'service' && status === 'ended'), [listed, endedAfter, info.kind, status]);
  const lastFp = useMemo(() => lastChatFp(messages), [messages]);
  // Where the conversation ended stays marked after a new one starts: after the last message
  // when the status turned to ended, or (a state restored after a reload) once history is loaded.
  const markedEnd = useRef(false);
  useEffect(() => {
    if (status !== 'ended') {
      markedEnd.current = false;
      return;
    }
    if (markedEnd.current || lastFp === '') return;
    markedEnd.current = true;
    setEndedAfter((set) => (set.has(lastFp) ? set : new Set(set).add(lastFp)));
  }, [status, lastFp]);
  // A conversation with an agent ends with a rating prompt: its code is fetched beforehand, so
  // the prompt opens at once (not a moment later, under a visitor who has started writing).
  useEffect(() => {
    if (status === 'agent') loadRatingDialog().catch(() => undefined);
  }, [status]);
  // a dialog whose code cannot be fetched closes and says so (the chat stays usable)
  const onDialogFailure = useCallback(() => {
    setDialog(null);
    toast(t('networkError'), 'error');
  }, [toast, t]);
  const onRated = useCallback(() => {
    const id = client.session.getState().sessionId;
    if (id) rated.current.add(id);
  }, [client]);

  const Active = dialog ? DIALOGS[dialog.name] : null;
  const title = info.title || t(info.kind === 'service' ? 'routeConversation' : 'routeGroup');
  return (
    <ChatContext.Provider value={actions}>
      <main className="chat-screen">
        <ChatHeader title={title} />
        <ConnectionBanner />
        {info.notice && <p className="group-notice">{info.notice}</p>}
        {info.query.cpay && (
          <LazyPart>
            <DepositPanel orderNo={info.query.cpay} />
          </LazyPart>
        )}
        {info.kind === 'service' && <SessionBar />}
        {info.kind === 'service' && <AvailabilityNotice />}
        <MessageList
          ref={list}
          messages={shown}
          isMine={isMine}
          hasMore={hasMore}
          loading={loading}
          onLoadOlder={onLoadOlder}
          onRoot={setScrollRoot}
          label={appText(language, 'messages')}
        />
        {info.kind === 'service' && <TypingIndicator />}
        {info.kind === 'service' && <SuggestionChips />}
        {info.kind === 'service' && <SneakPeekNote />}
        {info.kind !== 'channel' && <Composer dialogOpen={dialog !== null} />}
        <ClientNotices />
        {Active && dialog && (
          <LazyPart key={dialog.name} onFailure={onDialogFailure}>
            <Active onClose={() => setDialog(null)} data={dialog.data} onDone={dialog.name === 'rating' ? onRated : undefined} />
          </LazyPart>
        )}
      </main>
    </ChatContext.Provider>
  );
}
