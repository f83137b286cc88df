/**
 * The agent's workspace: the queue (type 310 snapshots) with an accept action (type 311), the
 * agent's open conversations, the ended ones (read-only until closed), and the chosen
 * conversation with the same message components as the visitor's chat.
 * @module
 */
import type { QueueEntry } from '@kefu-im/sdk';
import type { AgentDesk, DeskConversation } from '@kefu-im/sdk/agent';
import { useAgentQueue, useConnection, useI18n, useNotices, useServerClock } from '@kefu-im/react';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactElement } from 'react';
import { ConnectionBanner } from '../chat/connection-banner.js';
import { appText } from '../env/app-texts.js';
import { useToast } from '../ui/toaster.js';
import { AgentChat } from './agent-chat.js';
import { AlertControls, UnreadBadge, useDeskSignals } from './desk-signals.js';
import { StatusSwitch } from './desk-routing.js';
import { DeskLanguage } from './desk-language.js';
import { deskText } from './desk-texts.js';
import { PastConversations } from './past-conversations.js';

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
  const ended = conversation.status !== 'active';
  const className = ['session-btn', current ? 'is-current' : '', ended ? 'is-ended' : ''].filter(Boolean).join(' ');
  return (
    <li>
      <button type="button" className={className} aria-current={current ? 'true' : undefined} onClick={onPick}>
        {conversation.name}
        {!ended && <UnreadBadge clientId={conversation.clientId} />}
      </button>
    </li>
  );
}

function QueueItem({ entry, onAccept }: { entry: QueueEntry; onAccept: () => void }): ReactElement {
  const { t } = useI18n();
  const now = useServerClock();
  const minutes = Math.max(0, Math.floor((now - entry.since) / 60_000));
  return (
    <li className="queue-item">
      <span className="queue-name">{entry.name}</span>
      <span className="muted">{t('waitingSince', { minutes })}</span>
      <button type="button" className="btn btn-primary btn-small" onClick={onAccept} aria-label={`${t('accept')} ${entry.name}`}>
        {t('accept')}
      </button>
    </li>
  );
}

/** Props of {@link AgentWorkspace}. */
export interface AgentWorkspaceProps {
  /** The agent's account. */
  account: string;
  /** The SDK's agent desk (queue, conversations, history, logout). */
  desk: AgentDesk;
  /** Logs out. */
  onLogout: () => void;
}

/** The workspace of a logged-in agent. */
export function AgentWorkspace({ account, desk, onLogout }: AgentWorkspaceProps): ReactElement {
  const { t, language } = useI18n();
  const { loggedIn, state, online } = useConnection();
  const snapshot = useAgentQueue(desk);
  const { list } = useSyncExternalStore(desk.conversations.store.subscribe, desk.conversations.store.getSnapshot);
  const [selected, setSelected] = useState<DeskSelection | null>(null);
  const [showPast, setShowPast] = useState(false);
  const signals = useDeskSignals(desk, (clientId) => setSelected({ clientId }));

  const open = list.filter((c) => c.status === 'active');
  const ended = list.filter((c) => c.status !== 'active'); // ended or transferred
  const current = pickConversation(list, selected);
  // the window depends on the list (the end of the visitor's earlier conversation): recomputed with it
  const window = useMemo(() => (current && list ? desk.conversations.window(current.sessionId) : {}), [desk, current, list]);
  const lapsed = selectionLapsed(selected, current, snapshot.queue);
  useEffect(() => {
    if (lapsed && open.length > 0) setSelected({ clientId: open[0]!.clientId });
    else if (current && selected?.accepting) setSelected({ clientId: current.clientId }); // accepted: an ordinary selection now
  }, [lapsed, open, current, selected]);

  const accept = (clientId: string): void => {
    desk.accept(clientId);
    setShowPast(false);
    setSelected({ clientId });
    setSelected({ clientId, accepting: true });
  };
  const pick = (c: DeskConversation): void => {
    setShowPast(false);
    setSelected({ clientId: c.clientId, sessionId: c.sessionId });
  };
  const status = loggedIn ? `${t('online')} ${snapshot.online}` : !online ? t('offline') : t(state === 'reconnecting' ? 'reconnecting' : 'connecting');

  return (
    <div className="desk">
      <header className="desk-header hairline-bottom">
        <h1>
          {t('agent')} · {account}
        </h1>
        <span className="muted" role="status">
          {status}
        </span>
        <StatusSwitch desk={desk} />
        <AlertControls {...signals} />
        <button type="button" className="btn btn-small" onClick={onLogout}>
          {t('logout')}
        </button>
        <p className="visually-hidden" role="status">{signals.announcement}</p>
      </header>
      <ConnectionBanner />
      <aside className="desk-side" aria-label={t('queue')}>
        <h2>
          {t('queue')} ({snapshot.queue.length})
        </h2>
        {snapshot.queue.length === 0 ? (
          <p className="muted">{t('noVisitorsWaiting')}</p>
        ) : (
          <ul className="queue">
            {snapshot.queue.map((entry) => (
              <QueueItem key={entry.clientId} entry={entry} onAccept={() => accept(entry.clientId)} />
            ))}
          </ul>
        )}
        <h2>
          {t('sessions')} ({open.length})
        </h2>
        <ul className="sessions">
          {open.map((c) => (
            <ConversationButton key={c.sessionId} conversation={c} current={c === current} onPick={() => pick(c)} />
          ))}
        </ul>
        {ended.length > 0 && (
          <>
            <h2>
              {appText(language, 'deskEndedConversations')} ({ended.length})
            </h2>
            <ul className="sessions">
              {ended.map((c) => (
                <ConversationButton key={c.sessionId} conversation={c} current={c === current} onPick={() => pick(c)} />
              ))}
            </ul>
          </>
        )}
        <button type="button" className="btn btn-small" aria-pressed={showPast} onClick={() => setShowPast((v) => !v)}>
          {deskText(language, 'pastConversations')}
        </button>
        <DeskLanguage />
      </aside>
      <section className="desk-main">
        {showPast ? (
          <PastConversations desk={desk} />
        ) : current ? (
          <AgentChat key={current.sessionId} conversation={current} window={window} desk={desk} />
        ) : (
          <p className="muted desk-empty">{deskText(language, 'noConversation')}</p>
        )}
      </section>
      <DeskNotices />
    </div>
  );
}
