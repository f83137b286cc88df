/**
 * The agent's workspace: the queue (type 310 snapshots) with an accept action (type 311), the
 * agent's open conversations, and the chosen conversation with the same message components as
 * the visitor's chat.
 * @module
 */
import type { QueueEntry } from '@kefu-im/sdk';
import type { AgentDesk } from '@kefu-im/sdk/agent';
import { useAgentQueue, useConnection, useI18n, useServerClock } from '@kefu-im/react';
import { useEffect, useState, type ReactElement } from 'react';
import { ClientNotices } from '../chat/chat-screen.js';
import { ConnectionBanner } from '../chat/connection-banner.js';
import { AgentChat } from './agent-chat.js';
import { AlertControls, UnreadBadge, useDeskSignals } from './desk-signals.js';

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
  const { t } = useI18n();
  const { loggedIn, state, online } = useConnection();
  const snapshot = useAgentQueue(desk);
  const [selected, setSelected] = useState<string | null>(null);
  const signals = useDeskSignals(desk, setSelected);

  const sessions = snapshot.sessions;
  const current = sessions.find((s) => s.clientId === selected) ?? null;
  useEffect(() => {
    if (selected === null && sessions.length > 0) setSelected(sessions[0]?.clientId ?? null);
  }, [selected, sessions]);

  const accept = (clientId: string): void => {
    desk.accept(clientId);
    setSelected(clientId);
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
          {t('sessions')} ({sessions.length})
        </h2>
        <ul className="sessions">
          {sessions.map((s) => (
            <li key={s.sessionId}>
              <button type="button" className={s.clientId === selected ? 'session-btn is-current' : 'session-btn'} aria-current={s.clientId === selected ? 'true' : undefined} onClick={() => setSelected(s.clientId)}>
                {s.name}
                <UnreadBadge clientId={s.clientId} />
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="desk-main">{current ? <AgentChat key={current.sessionId} session={current} desk={desk} /> : <p className="muted desk-empty">{t('noVisitorsWaiting')}</p>}</section>
      <ClientNotices />
    </div>
  );
}
