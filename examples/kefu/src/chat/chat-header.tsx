/**
 * The chat header: the conversation's name, the connection state when it is not open, the
 * search action and a menu of the other actions (complaint, leave a message, deposit information,
 * rating, end the conversation).
 * @module
 */
import type { I18nKey } from '@kefu-im/sdk';
import { useConnection, useI18n, useImClient, useSession } from '@kefu-im/react';
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { OPEN_APP_GLOBAL, type OpenAppHelpers } from '../runtime/open-app.js';
import { Icon } from '../ui/icons.js';
import { useChat, type DialogName } from './conversation.js';

const STATE_TEXT: Partial<Record<string, I18nKey>> = {
  connecting: 'connecting',
  reconnecting: 'reconnecting',
  failed: 'connectionFailed',
  closed: 'connecting',
};

/** The header of a chat screen. */
export function ChatHeader({ title }: { title: string }): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info, openDialog } = useChat();
  const { state, online } = useConnection();
  const status = useSession((s) => s.status);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const stateKey = online ? STATE_TEXT[state] : 'offline';

  useEffect(() => {
    if (!open) return undefined;
    menu.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const onDown = (e: MouseEvent): void => {
      if (!menu.current?.contains(e.target as Node) && e.target !== toggle.current) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const pick = (name: DialogName): void => {
    setOpen(false);
    // Focus returns to the menu button when the dialog closes.
    toggle.current?.focus();
    openDialog(name);
  };
  const service = info.kind === 'service';
  const items: [string, () => void][] = [
    [t('complaint'), () => pick('complaint')],
    [t('leaveMessage'), () => pick('leave')],
    [t('depositCard'), () => pick('deposit')],
  ];
  if (service) items.push([t('rateTitle'), () => pick('rating')]);
  if (!info.query.isApp) {
    items.push([
      appText(language, 'openApp'),
      () => {
        setOpen(false);
        toggle.current?.focus();
        const helpers = Reflect.get(window, OPEN_APP_GLOBAL) as OpenAppHelpers | undefined;
        if (service) helpers?.chat(String(info.kefuId || client.clientId));
        else helpers?.group(window.location.href);
      },
    ]);
  }
  if (service && (status === 'agent' || status === 'queued')) {
    items.push([
      t('endConversation'),
      () => {
        setOpen(false);
        client.endConversation();
        toggle.current?.focus();
      },
    ]);
  }

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
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((v) => !v)}
        >
          <Icon name="more" />
        </button>
        {open && (
          <div
            ref={menu}
            id={menuId}
            className="menu"
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setOpen(false);
                toggle.current?.focus();
              }
            }}
          >
            {items.map(([label, run]) => (
              <button key={label} type="button" className="menu-item" onClick={run}>
                {label}
              </button>
            ))}
          </div>
        )}
      </div>
    </header>
  );
}
