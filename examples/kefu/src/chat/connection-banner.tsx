/**
 * The connection banner (issue 10): never a dead end. While the socket is not open it says why —
 * offline, reconnecting with the time to the next attempt, or failed — says that what the visitor
 * writes is kept and sent by itself, and offers "reconnect now" (the SDK's `client.reconnect()`,
 * which tries at once with a fresh backoff). Nothing shows while open or before the first connect.
 * @module
 */
import { useConnection, useI18n, useImClient } from '@kefu-im/react';
import { useEffect, useState, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';

/** Seconds until `at` (local epoch ms), ticking once a second while it is in the future. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1_000));
}

/** The banner under the chat header. */
export function ConnectionBanner(): ReactElement | null {
  const { t, language } = useI18n();
  const client = useImClient();
  const { state, online, attempt, nextAttemptAt, failed, haltReason } = useConnection();
  const seconds = useSecondsUntil(state === 'open' ? null : nextAttemptAt);
  if (state === 'open' || state === 'closed') return null;
  // the very first connect is not news; a connect after a loss is (the attempt counter says so)
  if (state === 'connecting' && online && !failed && attempt === 0) return null;

  // too many sockets of this identity (4005): say so; "reconnect now" tries again once one is closed
  // a refused identity token (4006 twice): the member must log in again on the shop's site
  const failedText =
    haltReason === 'too-many-connections' ? t('tooManyConnections') : haltReason === 'identity-token-refused' ? appText(language, 'sessionExpired') : t('connectionFailed');
  const headline = !online ? t('offline') : failed ? failedText : t('reconnecting');
  const next = online && seconds !== null && seconds > 0 ? appText(language, 'nextAttemptIn', { seconds }) : '';
  return (
    <div className={failed ? 'conn-banner conn-banner-failed' : 'conn-banner'} role="status" aria-live="polite">
      <span className="conn-banner-text">
        <strong>{headline}</strong>
        {next !== '' && <span className="conn-banner-next"> · {next}</span>}
        <span className="conn-banner-hint">{appText(language, 'sendsWhenBack')}</span>
      </span>
      {online && (
        <button type="button" className="chip-btn" onClick={() => client.reconnect()}>
          {appText(language, 'reconnectNow')}
        </button>
      )}
    </div>
  );
}
