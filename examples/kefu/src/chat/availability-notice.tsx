/**
 * The honest answer when the visitor asked for a human and nobody can come (live signals): outside
 * business hours it says so, with when the agents are back, and offers "leave a message" at once.
 * (With no agent online the visitor is queued and the session bar says "busy" with the same
 * offer.) Any other reason a newer server gives reads "no agent can come now". The text sits in a live region that is always in the page, so a screen reader announces
 * it once when it appears, not again on every re-render; the button is outside the region.
 * @module
 */
import { useAvailability, useI18n, useSession } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { useChat } from './conversation.js';

/** `nextOpenAt` in the visitor's own zone: the weekday when it is not today, and the time. */
export function formatBackAt(at: number, language: string, now = Date.now()): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  const options: Intl.DateTimeFormatOptions = sameDay ? { hour: '2-digit', minute: '2-digit' } : { weekday: 'short', hour: '2-digit', minute: '2-digit' };
  try {
    return new Intl.DateTimeFormat(language, options).format(at);
  } catch {
    return new Date(at).toLocaleString();
  }
}

/** The "nobody can come" notice of a service conversation (an empty live region otherwise). */
export function AvailabilityNotice(): ReactElement {
  const { t, language } = useI18n();
  const { openDialog } = useChat();
  const unavailable = useAvailability((a) => a.unavailable);
  const status = useSession((s) => s.status);
  // no agent online: the visitor is queued at once and the session bar says "busy" with the same
  // offer (one announcement, not two); once an agent serves, it is over
  const shown = unavailable !== null && unavailable.reason !== 'no-agent' && status !== 'queued' && status !== 'agent' ? unavailable : null;
  let text = '';
  if (shown?.reason === 'closed') {
    text = appText(language, 'unavailableClosed');
    // sentences ending with a full-width stop (zh, ja) follow without a space
    if (shown.nextOpenAt !== null) text += `${/[。．]$/.test(text) ? '' : ' '}${appText(language, 'backAt', { time: formatBackAt(shown.nextOpenAt, language) })}`;
  } else if (shown) {
    text = appText(language, 'unavailableNoAgent');
  }
  return (
    <div className={shown ? 'availability-notice' : undefined}>
      <p className={shown ? 'availability-text' : 'visually-hidden'} role="status" aria-live="polite">
        {text}
      </p>
      {shown && (
        <button type="button" className="chip-btn" onClick={() => openDialog('leave')}>
          {t('leaveMessage')}
        </button>
      )}
    </div>
  );
}
