/**
 * The desk's live signals (beyond the spec): per-conversation unread badges, the counts in the
 * title (`(q queued · c unread) Desk`), and, for a tab in the background, an optional sound and an
 * opt-in desktop notification, one per burst (a notification click brings the tab forward and
 * opens the conversation). Screen readers hear of a new visitor once per burst, not of every count.
 * @module
 */
import type { AgentDesk } from '@kefu-im/sdk/agent';
import { useAgentQueue, useImClient, useUnread } from '@kefu-im/react';
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { useAppTexts } from '../runtime/context.js';
import { beep, notificationApi, NOTIFY_KEY, pageStorage, readFlag, SOUND_KEY, unlockSound, writeFlag } from './alert-settings.js';
import { addToBurst, NO_BURST } from './alert-burst.js';
import { DeskAlerts, type DeskAlert } from './desk-alerts.js';
import { visitorLabel } from './desk-texts.js';

/** The unread count of one conversation, as a badge (nothing at 0). */
export function UnreadBadge({ clientId }: { clientId: string }): ReactElement | null {
  const count = useUnread(clientId);
  const { language } = useAppTexts();
  if (count === 0) return null;
  const label = appText(language, 'unreadCount', { count });
  return (
    <span className="unread-badge" title={label}>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** The sound and notification choices, kept across reloads. */
interface AlertChoices {
  sound: boolean;
  notify: boolean;
}

/**
 * Follows the desk for its signals: the title (`Desk · <account>`, with the counts), the alerts of
 * a hidden tab, the announcement of a new visitor.
 * @param desk - the agent's desk
 * @param account - the agent's account (in the title)
 * @param open - opens the conversation with a visitor (a notification click)
 * @returns the announcement for the live region, and the alert choices with their setters
 */
export function useDeskSignals(desk: AgentDesk, account: string, open: (clientId: string) => void) {
  const client = useImClient();
  const { language } = useAppTexts();
  const snapshot = useAgentQueue(desk);
  const unread = useUnread();
  const [choices, setChoices] = useState<AlertChoices>(() => ({ sound: readFlag(pageStorage(), SOUND_KEY), notify: readFlag(pageStorage(), NOTIFY_KEY) }));
  const [announcement, setAnnouncement] = useState('');
  const latest = useRef({ choices, language, open });
  latest.current = { choices, language, open };

  // the title: `(q queued · c unread) Desk · account`
  const queued = snapshot.queue.length;
  useEffect(() => {
    const before = document.title;
    const title = `${appText(language, 'deskTitle')} · ${account}`;
    document.title = queued + unread > 0 ? appText(language, 'deskTitleCounts', { queued, unread, title }) : title;
    return () => {
      document.title = before;
    };
  }, [queued, unread, language, account]);

  // the alerts of a hidden tab: one per burst
  useEffect(() => {
    const alerts = new DeskAlerts({
      queue: desk.queue,
      unread: client.unread,
      now: () => Date.now(),
      hidden: () => document.visibilityState === 'hidden',
      alert: (alert) => raise(alert, latest.current),
    });
    const onVisibility = (): void => {
      if (document.visibilityState === 'visible') alerts.seen();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      alerts.destroy();
    };
  }, [desk, client]);

  // screen readers: a new visitor, once per burst (visible or not)
  const waiting = useRef<ReadonlySet<string>>(new Set());
  const spoken = useRef(NO_BURST);
  useEffect(() => {
    const before = waiting.current;
    waiting.current = new Set(snapshot.queue.map((entry) => entry.clientId));
    const arrived = snapshot.queue.find((entry) => !before.has(entry.clientId));
    if (!arrived) return;
    const { state, opens } = addToBurst(spoken.current, Date.now());
    spoken.current = state;
    if (opens) setAnnouncement(appText(language, 'newVisitorWaiting', { name: visitorLabel(arrived.name, arrived.clientId, language) }));
  }, [snapshot.queue, language]);

  const setSound = (on: boolean): void => {
    if (on) unlockSound();
    writeFlag(pageStorage(), SOUND_KEY, on);
    setChoices((c) => ({ ...c, sound: on }));
  };
  const setNotify = (on: boolean): void => {
    writeFlag(pageStorage(), NOTIFY_KEY, on);
    setChoices((c) => ({ ...c, notify: on }));
  };
  return { announcement, choices, setSound, setNotify };
}

/** Shows the alert of a hidden tab: the sound and the notification, as chosen. */
function raise(alert: DeskAlert, { choices, language, open }: { choices: AlertChoices; language: string; open: (clientId: string) => void }): void {
  if (choices.sound) beep();
  const Api = notificationApi();
  if (!choices.notify || !Api || Api.permission !== 'granted') return;
  const body = appText(language, alert.kind === 'visitor' ? 'newVisitorWaiting' : 'newMessagesFrom', { name: visitorLabel(alert.name, alert.clientId, language) });
  try {
    const notification = new Api(appText(language, 'deskTitle'), { body, tag: 'kefu-desk' });
    notification.onclick = () => {
      window.focus();
      if (alert.kind === 'messages') open(alert.clientId);
      notification.close();
    };
  } catch {
    // a browser that allows notifications only from a service worker: the title and sound remain
  }
}

/** Props of {@link AlertControls}. */
export interface AlertControlsProps {
  /** The choices. */
  choices: AlertChoices;
  /** Turns the sound on or off. */
  setSound: (on: boolean) => void;
  /** Turns the notifications on or off. */
  setNotify: (on: boolean) => void;
}

/** The sound toggle and the notifications opt-in ("Enable notifications" asks for permission). */
export function AlertControls({ choices, setSound, setNotify }: AlertControlsProps): ReactElement {
  const { language } = useAppTexts();
  const ids = { sound: useId(), notify: useId() };
  const Api = notificationApi();
  const [permission, setPermission] = useState(() => Api?.permission ?? 'denied');
  const enable = (): void => {
    if (!Api) return;
    void Api.requestPermission().then((answer) => {
      setPermission(answer);
      setNotify(answer === 'granted');
    });
  };
  let notify: ReactElement | null = null;
  if (Api && permission === 'denied') notify = <span className="muted">{appText(language, 'notificationsBlocked')}</span>;
  else if (Api && permission === 'granted' && choices.notify) {
    notify = (
      <label className="alert-toggle" htmlFor={ids.notify}>
        <input id={ids.notify} type="checkbox" checked onChange={() => setNotify(false)} />
        {appText(language, 'notificationsOn')}
      </label>
    );
  } else if (Api) {
    notify = (
      <button type="button" className="btn btn-small" onClick={enable}>
        {appText(language, 'enableNotifications')}
      </button>
    );
  }
  return (
    <div className="alert-controls">
      <label className="alert-toggle" htmlFor={ids.sound}>
        <input id={ids.sound} type="checkbox" checked={choices.sound} onChange={(e) => setSound(e.target.checked)} />
        {appText(language, 'alertSound')}
      </label>
      {notify}
    </div>
  );
}
