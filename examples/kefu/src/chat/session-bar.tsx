/**
 * Where the service conversation stands (spec §4 "Chat session"): waiting for an agent with the
 * queue position and the estimated wait, busy (leave a message), the agent who joined, and the end: that the
 * conversation has ended and what the visitor can do next (rate it, or write to start a new one),
 * with the rating and "restart chat".
 * @module
 */
import { useI18n, useImClient, useSession } from '@kefu-im/react';
import { useState, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { useChat } from './conversation.js';

/** The estimated wait as the queue shows it: "about N min", or "under a minute". */
export function waitText(language: string, etaMs: number): string {
  if (etaMs < 60_000) return appText(language, 'estimatedWaitShort');
  return appText(language, 'estimatedWait', { minutes: Math.round(etaMs / 60_000) });
}

/** The session bar of a service conversation (nothing while the robot serves). */
export function SessionBar(): ReactElement | null {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info, openDialog } = useChat();
  const status = useSession((s) => s.status);
  const position = useSession((s) => s.position);
  const busy = useSession((s) => s.busy);
  const etaMs = useSession((s) => s.etaMs);
  const agentName = useSession((s) => s.agent?.name ?? '');
  const [restarting, setRestarting] = useState(false);

  const restart = (): void => {
    setRestarting(true);
    client.api
      .triggerUpdate({ clientId: client.clientId, mchId: info.mchId, platformId: info.platformId })
      .catch(() => undefined)
      .finally(() => setRestarting(false));
  };

  if (status === 'queued') {
    return (
      <div className="session-bar" role="status">
        <span>{busy ? t('serviceBusy') : t('waitingForAgent')}</span>
        {position !== null && position > 0 && <span className="muted">{t('queuePosition', { position })}</span>}
        {etaMs !== null && !busy && <span className="muted">{waitText(language, etaMs)}</span>}
        {busy && (
          <button type="button" className="chip-btn" onClick={() => openDialog('leave')}>
            {t('leaveMessage')}
          </button>
        )}
      </div>
    );
  }
  if (status === 'agent') {
    return (
      <div className="session-bar session-agent" role="status">
        <span>{t('agentJoined', { name: agentName })}</span>
      </div>
    );
  }
  if (status === 'ended') {
    return (
      <div className="session-bar session-ended" role="status">
        <span>{appText(language, 'conversationEndedNext')}</span>
        <span className="session-actions">
          <button type="button" className="chip-btn" onClick={() => openDialog('rating')}>
            {t('rateTitle')}
          </button>
          <button type="button" className="chip-btn" onClick={restart} disabled={restarting}>
            {t('restartChat')}
          </button>
        </span>
      </div>
    );
  }
  return null;
}
