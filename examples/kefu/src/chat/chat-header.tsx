/**
 * The chat header: the conversation's name, the connection state when it is not open, the
 * search action and a menu (WAI-ARIA menu button: arrow keys, Home/End, Escape) of the other
 * actions: FAQ, complaint, leave a message, deposit information, rating, language, the transcript
 * as a text file (`transcript-download.ts`, loaded when picked), open in the app (telling when
 * nothing opened), and ending the conversation (after a confirmation).
 * @module
 */
import type { I18nKey } from '@kefu-im/sdk';
import { useConnection, useI18n, useImClient, useSession } from '@kefu-im/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { OPEN_APP_GLOBAL, watchAppOpened, type OpenAppHelpers } from '../runtime/open-app.js';
import { useToast } from '../ui/toaster.js';
import { Icon } from '../ui/icons.js';
import { useChat, type DialogName } from './conversation.js';

const STATE_TEXT: Partial<Record<string, I18nKey>> = {
  connecting: 'connecting',
  closed: 'connecting',
};

/** The header of a chat screen. */
export function ChatHeader({ title }: { title: string }): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info, openDialog } = useChat();
  const { state, online, attempt, failed, userId } = useConnection();
  const status = useSession((s) => s.status);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const watching = useRef<(() => void) | null>(null);
  const toast = useToast();
  useEffect(() => () => watching.current?.(), []);
  // the first connect shows here; a lost connection shows in the connection banner below
  const stateKey = online && attempt === 0 && !failed ? STATE_TEXT[state] : undefined;

  useEffect(() => {
    if (!open) return undefined;
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent): void => {
      if (!menu.current?.contains(e.target as Node) && !toggle.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = (): void => {
    setOpen(false);
    // Focus returns to the menu button (and to it again when a dialog closes).
    toggle.current?.focus();
  };
  const pick = (name: DialogName): void => {
    close();
    openDialog(name);
  };
  /** Pages the whole history in and downloads it as text; says how it went (code loaded when picked). */
  const saveTranscript = async (): Promise<void> => {
    try {
      const { saveTranscript: save } = await import('./transcript-download.js');
      await save(client, title, language, userId, t);
      toast(appText(language, 'transcriptDownloaded'), 'success');
    } catch {
      toast(appText(language, 'transcriptFailed'), 'error');
    }
  };
  const service = info.kind === 'service';
  const items: [string, () => void][] = [];
  if (service) items.push([appText(language, 'faqTitle'), () => pick('faq')]);
  items.push([t('complaint'), () => pick('complaint')], [t('leaveMessage'), () => pick('leave')], [t('depositCard'), () => pick('deposit')]);
  if (service) items.push([t('rateTitle'), () => pick('rating')]);
  items.push([appText(language, 'language'), () => pick('language')]);
  items.push([
    appText(language, 'downloadTranscript'),
    () => {
      close();
      void saveTranscript();
    },
  ]);
  if (!info.query.isApp) {
    items.push([
      appText(language, 'openApp'),
      () => {
        close();
        const helpers = Reflect.get(window, OPEN_APP_GLOBAL) as OpenAppHelpers | undefined;
        if (!helpers) return;
        watching.current?.();
        watching.current = watchAppOpened(
          { window, document, timers: { setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (id) => window.clearTimeout(id as number) }, delay: client.limits.openAppFallbackDelay },
          () => toast(appText(language, 'openAppFailed'), 'warning'),
        );
        if (service) helpers.chat(String(info.kefuId || client.clientId));
        else helpers.group(window.location.href);
      },
    ]);
  }
  if (service && (status === 'agent' || status === 'queued')) items.push([t('endConversation'), () => pick('end')]);

  /** Menu keys (WAI-ARIA menu button): arrows move and wrap, Home/End jump, Escape and Tab close. */
  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const buttons = Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const go = (i: number): void => {
      e.preventDefault();
      buttons[(i + buttons.length) % buttons.length]?.focus();
    };
    if (e.key === 'ArrowDown') go(at + 1);
    else if (e.key === 'ArrowUp') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(buttons.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab') close(); // the focus goes on from the menu button
  };

  return (
    <header className="chat-header hairline-bottom">
      <div className="chat-title">
        <h1>{title}</h1>
        {stateKey && (
          <span className="conn-state" role="status">
            {t(stateKey)}
          </span>
        )}
      </div>
      <button type="button" className="icon-btn" aria-label={t('searchPlaceholder')} onClick={() => openDialog('search')}>
        <Icon name="search" />
      </button>
      <div className="menu-wrap">
        <button
          ref={toggle}
          type="button"
          className="icon-btn"
          aria-label={appText(language, 'more')}
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onClick={() => setOpen((v) => !v)}
        >
          <Icon name="more" />
        </button>
        {open && (
          <div ref={menu} id={menuId} className="menu" role="menu" aria-label={appText(language, 'more')} onKeyDown={onMenuKey}>
            {items.map(([label, run]) => (
              <button key={label} type="button" role="menuitem" tabIndex={-1} className="menu-item" onClick={run}>
                {label}
              </button>
            ))}
          </div>
        )}
      </div>
    </header>
  );
}
