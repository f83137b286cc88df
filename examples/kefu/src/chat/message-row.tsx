/**
 * One row of the message list: avatar, sender (robot answers are marked as robot), time, the
 * bubble, the sending state (failed messages show why and a retry), the read mark of the user's
 * own messages, and a translate action on received texts. A received message is marked read when
 * it scrolls into view (spec §4 "Read on scroll").
 * @module
 */
import { formatDateTime, MessageType, type I18nKey, type StoredMessage } from '@kefu-im/sdk';
import { useI18n, useImClient, useReadOnScroll, useSend } from '@kefu-im/react';
import { memo, useRef, useState, type ReactElement } from 'react';
import { useChat } from './conversation.js';
import { MessageBody, usableImageUrl } from './message-body.js';
import { useToast } from '../ui/toaster.js';

/** The text shown for a refusal or failure reason. */
export const FAIL_TEXT: Readonly<Record<string, I18nKey>> = Object.freeze({
  'too-frequent': 'sendTooFrequent',
  blank: 'blankMessage',
  blacklisted: 'blacklisted',
  banned: 'banned',
  network: 'networkError',
  'too-large': 'fileTooLarge',
  'too-large-to-keep': 'fileTooLargeToKeep',
  'upload-failed': 'uploadFailed',
});

/** The locale a text is translated into for an interface language. */
export function translateTarget(language: string): string {
  if (language === 'zh') return 'zh-CN';
  if (language === 'zh-Hant') return 'zh-TW';
  return language || 'en-US';
}

function isFlag(value: unknown): boolean {
  return value === 1 || value === true || value === '1';
}

function Avatar({ url, name }: { url: unknown; name: string }): ReactElement {
  const src = usableImageUrl(url);
  if (src) return <img className="avatar" src={src} alt="" aria-hidden="true" />;
  return (
    <span className="avatar avatar-letter" aria-hidden="true">
      {Array.from(name)[0] ?? '?'}
    </span>
  );
}

function Translate({ text }: { text: string }): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const toast = useToast();
  const [state, setState] = useState<{ busy: boolean; text: string }>({ busy: false, text: '' });
  const run = (): void => {
    setState({ busy: true, text: '' });
    client.api.translate(text, translateTarget(language)).then(
      (result) => {
        const out = typeof result?.text === 'string' ? result.text.trim() : '';
        setState({ busy: false, text: out });
        if (out === '') toast(t('translateFailed'), 'error');
      },
      () => {
        setState({ busy: false, text: '' });
        toast(t('translateFailed'), 'error');
      },
    );
  };
  return (
    <>
      <button type="button" className="mini-btn" onClick={run} disabled={state.busy}>
        {state.busy ? t('translating') : t('translate')}
      </button>
      {state.text !== '' && (
        <p className="translation" lang={language}>
          {state.text}
        </p>
      )}
    </>
  );
}

/** Props of {@link MessageRow}. */
export interface MessageRowProps {
  /** The message. */
  message: StoredMessage;
  /** True when the current user sent it. */
  mine: boolean;
}

/** A message row. */
export const MessageRow = memo(function MessageRow({ message, mine }: MessageRowProps): ReactElement {
  const { t } = useI18n();
  const { retry } = useSend();
  const { scrollRoot } = useChat();
  const ref = useRef<HTMLDivElement>(null);
  useReadOnScroll(ref, mine ? undefined : message, { root: scrollRoot });

  const robot = isFlag(message.robot);
  const name = mine ? '' : message.fn || (robot ? t('robot') : t('agent'));
  const time = formatDateTime(message.createTime ?? message.times);
  const textual = message.type === MessageType.Text || message.type === MessageType.RobotText;
  const media = message.type === MessageType.Image || message.type === MessageType.Video;
  const state = message.sendState;
  return (
    <div ref={ref} className={mine ? 'msg mine' : 'msg theirs'} data-fp={message.fp} data-type={message.type}>
      {!mine && <Avatar url={message.fa} name={name} />}
      <div className="msg-main">
        <div className="msg-meta">
          {!mine && <span className="msg-name">{name}</span>}
          {robot && <span className="badge badge-robot">{t('robot')}</span>}
          {time !== '' && <time className="msg-time">{time}</time>}
        </div>
        <div className={`bubble${media ? ' bubble-media' : ''}${state === 'failed' ? ' bubble-failed' : ''}`}>
          <MessageBody message={message} />
        </div>
        <div className="msg-foot">
          {mine && state === 'pending' && <span className="msg-state">{t('sending')}</span>}
          {mine && state === 'failed' && (
            <>
              <span className="msg-state msg-error" role="alert">
                <span aria-hidden="true">⚠ </span>
                {t(FAIL_TEXT[message.failReason ?? ''] ?? 'sendFailed')}
              </span>
              <button type="button" className="mini-btn" onClick={() => message.fp && retry(message.fp)}>
                {t('retry')}
              </button>
            </>
          )}
          {mine && state !== 'pending' && state !== 'failed' && (
            <span className={message.isRead === 1 ? 'read-mark is-read' : 'read-mark'}>{message.isRead === 1 ? t('read') : t('unread')}</span>
          )}
          {!mine && textual && message.dataContent ? <Translate text={message.dataContent} /> : null}
        </div>
      </div>
    </div>
  );
});
