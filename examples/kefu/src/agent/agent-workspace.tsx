/**
 * The agent's workspace: the queue (type 310 snapshots) with preview (read what a waiting visitor
 * wrote) and accept (type 311), the agent's open conversations, those it transferred and the
 * ended ones (each read-only until closed), and the main view: the chosen conversation with the same message components as the
 * visitor's chat, a queued visitor's preview, the past conversations or the canned replies.
 * @module
 */
import type { QueueEntry } from '@kefu-im/sdk';
import type { AgentDesk, DeskConversation } from '@kefu-im/sdk/agent';
import { useAgentQueue, useConnection, useI18n, useNotices } from '@kefu-im/react';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactElement } from 'react';
import { ConnectionBanner } from '../chat/connection-banner.js';
import { appText } from '../env/app-texts.js';
import { useToast } from '../ui/toaster.js';
import { AgentChat } from './agent-chat.js';
import { CannedManager } from './canned-manager.js';
import { AlertControls, UnreadBadge, useDeskSignals } from './desk-signals.js';
import { DeskQueueList, PREVIEW_BUTTON_ATTRIBUTE } from './desk-queue.js';
import { StatusSwitch } from './desk-routing.js';
import { DeskLanguage } from './desk-language.js';
import { deskText, visitorLabel } from './desk-texts.js';
import { PastConversations } from './past-conversations.js';
import { QueuedPreview } from './queued-preview.js';

/** The visitor's notices of session events: the desk shows an end its own way (the ended note). */
const VISITOR_SESSION_NOTICES: ReadonlySet<string> = new Set(['conversationOver', 'agentLeft', 'serviceBusy']);

/** The client's notices as toasts, but those meant for a visitor. */
function DeskNotices(): null {
  const toast = useToast();
  useNotices((notice) => {
    if (!VISITOR_SESSION_NOTICES.has(notice.key)) toast(notice.text, notice.level, notice.duration);
  });
  return null;
}

/** What the agent chose: a visitor (its open conversation, else its latest), or one conversation. */
export interface DeskSelection {
  /** The visitor. */
  clientId: string;
  /** One conversation of the visitor, when the agent picked it in the list. */
  sessionId?: string;
  /** The agent just accepted the visitor: its conversation opens with the next snapshot. */
  accepting?: boolean;
}

/**
 * The conversation to show for a selection: the one picked, else the visitor's open one, else
 * its latest ended one (a visitor who came back and was accepted shows its new conversation).
 */
export function pickConversation(list: readonly DeskConversation[], selected: DeskSelection | null): DeskConversation | null {
  if (!selected) return null;
  const picked = selected.sessionId === undefined ? undefined : list.find((c) => c.sessionId === selected.sessionId);
  const ofVisitor = list.filter((c) => c.clientId === selected.clientId);
  return picked ?? ofVisitor.find((c) => c.status === 'active') ?? ofVisitor[ofVisitor.length - 1] ?? null;
}

/**
 * Whether the desk should show its first open conversation instead of the selection: nothing
 * selected, or a selection the desk cannot show (a closed conversation, a visitor gone), but not
 * a visitor the agent just accepted who still waits in the queue (until the snapshot lists the
 * conversation, however many others are open).
 */
export function selectionLapsed(selected: DeskSelection | null, current: DeskConversation | null, queue: readonly QueueEntry[]): boolean {
  if (current !== null) return false;
  if (!selected?.accepting) return true;
  return !queue.some((entry) => entry.clientId === selected.clientId);
}

function ConversationButton({ conversation, current, onPick }: { conversation: DeskConversation; current: boolean; onPick: () => void }): ReactElement {
  const { language } = useI18n();
  const ended = conversation.status !== 'active';
  const className = ['session-btn', current ? 'is-current' : '', ended ? 'is-ended' : ''].filter(Boolean).join(' ');
  return (
    <li>
      <button type="button" className={className} aria-current={current ? 'true' : undefined} onClick={onPick}>
        {visitorLabel(conversation.name, conversation.clientId, language)}
        {!ended && <UnreadBadge clientId={conversation.clientId} />}
      </button>
    </li>
  );
}

/** A list of read-only conversations (transferred, or ended) under its heading with the count; nothing when empty. */
function ReadOnlySection(props: { heading: string; conversations: readonly DeskConversation[]; isCurrent: (c: DeskConversation) => boolean; onPick: (c: DeskConversation) => void }): ReactElement | null {
  const { heading, conversations, isCurrent, onPick } = props;
  if (conversations.length === 0) return null;
  return (
    <>
      <h2>
        {heading} ({conversations.length})
      </h2>
      <ul className="sessions">
        {conversations.map((c) => (
          <ConversationButton key={c.sessionId} conversation={c} current={isCurrent(c)} onPick={() => onPick(c)} />
        ))}
      </ul>
    </>
  );
}

/** What the main part of the desk shows besides the chosen conversation. */
type DeskView = 'chat' | 'past' | 'canned';

/** Puts focus on the preview button of a visitor still waiting (after its preview closed). */
function focusPreviewButton(clientId: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[${PREVIEW_BUTTON_ATTRIBUTE}="${CSS.escape(clientId)}"]`)?.focus());
}

/** Props of {@link AgentWorkspace}. */
export interface AgentWorkspaceProps {
  /** The agent's account. */
  account: string;
  /** The SDK's agent desk (queue, conversations, history, logout). */
  desk: AgentDesk;
  /** Logs out (this tab). */
  onLogout: () => void;
  /** Logs out everywhere: every session of the account, in every tab, browser and device. */
  onLogoutEverywhere: () => void;
}

/** The workspace of a logged-in agent. */
export function AgentWorkspace({ account, desk, onLogout, onLogoutEverywhere }: AgentWorkspaceProps): ReactElement {
  const { t, language } = useI18n();
  const { loggedIn, state, online } = useConnection();
  const snapshot = useAgentQueue(desk);
  const { list } = useSyncExternalStore(desk.conversations.store.subscribe, desk.conversations.store.getSnapshot);
  const previewed = useSyncExternalStore(desk.preview.store.subscribe, desk.preview.store.getSnapshot).visitor;
  const [selected, setSelected] = useState<DeskSelection | null>(null);
  const [view, setView] = useState<DeskView>('chat');
  const [focusChat, setFocusChat] = useState(false);
  const signals = useDeskSignals(desk, account, (clientId) => setSelected({ clientId }));

  const open = list.filter((c) => c.status === 'active');
  const transferred = list.filter((c) => c.status === 'transferred');
  const ended = list.filter((c) => c.status === 'ended');
  const current = pickConversation(list, selected);
  // the window depends on the list (the end of the visitor's earlier conversation): recomputed with it
  const window = useMemo(() => (current && list ? desk.conversations.window(current.sessionId) : {}), [desk, current, list]);
  const lapsed = selectionLapsed(selected, current, snapshot.queue);
  useEffect(() => {
    if (lapsed && open.length > 0) setSelected({ clientId: open[0]!.clientId });
    else if (current && selected?.accepting) setSelected({ clientId: current.clientId }); // accepted: an ordinary selection now
  }, [lapsed, open, current, selected]);

  const accept = (clientId: string, fromPreview = false): void => {
    desk.accept(clientId); // closes its preview
    setView('chat');
    setFocusChat(fromPreview);
    setSelected({ clientId, accepting: true });
  };
  const preview = (entry: QueueEntry): void => {
    setView('chat');
    desk.preview.open(entry).catch(() => undefined); // the error is in the store
  };
  const closePreview = (): void => {
    const clientId = desk.preview.store.getState().visitor?.clientId;
    desk.preview.close();
    if (clientId !== undefined) focusPreviewButton(clientId);
  };
  const pick = (c: DeskConversation): void => {
    setView('chat');
    setFocusChat(false);
    desk.preview.close();
    setSelected({ clientId: c.clientId, sessionId: c.sessionId });
  };
  const isCurrent = (c: DeskConversation): boolean => view === 'chat' && !previewed && c === current;
  const toggle = (next: DeskView): void => {
    desk.preview.close();
    setView((v) => (v === next ? 'chat' : next));
  };
  const status = loggedIn ? `${t('online')} ${snapshot.online}` : !online ? t('offline') : t(state === 'reconnecting' ? 'reconnecting' : 'connecting');

  return (
    <div className="desk">
      <header className="desk-header hairline-bottom">
        <h1>
          {appText(language, 'deskTitle')} · {account}
        </h1>
        <span className="muted" role="status">
          {status}
        </span>
        <StatusSwitch desk={desk} />
        <AlertControls {...signals} />
        <button type="button" className="btn btn-small" onClick={onLogout}>
          {t('logout')}
        </button>
        <button type="button" className="btn btn-small" onClick={onLogoutEverywhere} disabled={!loggedIn}>
          {deskText(language, 'logoutEverywhere')}
        </button>
        <p className="visually-hidden" role="status">{signals.announcement}</p>
      </header>
      <ConnectionBanner />
      <aside className="desk-side" aria-label={t('queue')}>
        <DeskQueueList queue={snapshot.queue} previewed={previewed?.clientId ?? null} onPreview={preview} onAccept={(clientId) => accept(clientId)} />
        <h2>
          {t('sessions')} ({open.length})
        </h2>
        {open.length === 0 ? (
          <p className="muted">{deskText(language, 'noConversation')}</p>
        ) : (
          <ul className="sessions">
            {open.map((c) => (
              <ConversationButton key={c.sessionId} conversation={c} current={isCurrent(c)} onPick={() => pick(c)} />
            ))}
          </ul>
        )}
        <ReadOnlySection heading={deskText(language, 'transferredConversations')} conversations={transferred} isCurrent={isCurrent} onPick={pick} />
        <ReadOnlySection heading={appText(language, 'deskEndedConversations')} conversations={ended} isCurrent={isCurrent} onPick={pick} />
        <div className="desk-tools">
          <button type="button" className="btn btn-small" aria-pressed={view === 'past'} onClick={() => toggle('past')}>
            {deskText(language, 'pastConversations')}
          </button>
          <button type="button" className="btn btn-small" aria-pressed={view === 'canned'} onClick={() => toggle('canned')}>
            {deskText(language, 'cannedReplies')}
          </button>
        </div>
        <DeskLanguage />
      </aside>
      <section className="desk-main">
        {view === 'past' ? (
          <PastConversations desk={desk} />
        ) : view === 'canned' ? (
          <CannedManager desk={desk} />
        ) : previewed ? (
          <QueuedPreview desk={desk} onAccept={(clientId) => accept(clientId, true)} onClose={closePreview} />
        ) : current ? (
          <AgentChat key={current.sessionId} conversation={current} window={window} desk={desk} focusHeading={focusChat} />
        ) : (
          <p className="muted desk-empty">{deskText(language, 'noConversation')}</p>
        )}
      </section>
      <DeskNotices />
    </div>
  );
}
