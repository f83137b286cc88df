/**
 * One row of the message list: avatar, sender (robot answers are marked as robot), time, the
 * bubble, the sending state (failed messages show why and a retry), the read mark of the user's
 * own messages, and a translate action on received texts. A received message is marked read when
 * it scrolls into view (spec §4 "Read on scroll").
 * @module
 */
import { MessageType, type I18nKey, type StoredMessage } from '@kefu-im/sdk';
import { formatReceiptTime } from '@kefu-im/sdk/format';
import { useI18n, useImClient, useReadOnScroll, useSend } from '@kefu-im/react';
import { memo, useRef, type ReactElement } from 'react';
import { useChat } from './conversation.js';
import { MessageBody, usableImageUrl } from './message-body.js';
import { keyedText } from './text-keys.js';
import { translationAvailable } from '../env/public-config.js';
import { useRuntime } from '../runtime/context.js';
import { appText } from '../env/app-texts.js';
import { LazyPart, retryingLazy } from '../ui/lazy-part.js';

/** The translate action, loaded only where a translation provider is configured. */
const TranslateAction = retryingLazy(() => import('./translate-action.js'));


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

/** Props of {@link MessageRow}. */
export interface MessageRowProps {
  /** The message. */
  message: StoredMessage;
  /** True when the current user sent it. */
  mine: boolean;
  /** Highlighted (a search hit just shown). */
  highlighted?: boolean;
}

/** A message row. */
export const MessageRow = memo(function MessageRow({ message, mine, highlighted = false }: MessageRowProps): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const translatable = translationAvailable(useRuntime().config);
  const { retry } = useSend();
  const { scrollRoot, senderName } = useChat();
  const ref = useRef<HTMLDivElement>(null);
  useReadOnScroll(ref, mine ? undefined : message, { root: scrollRoot });

  const robot = isFlag(message.robot);
  const name = mine ? '' : senderName?.(message) || message.fn || (robot ? t('robot') : t('agent'));
  // Spec §3: HH:mm:ss when the date is today (by the server clock), otherwise the full date.
  const time = formatReceiptTime(message.createTime ?? message.times, client.clock.now());
  const textual = message.type === MessageType.Text || message.type === MessageType.RobotText;
  const media = message.type === MessageType.Image || message.type === MessageType.Video;
  const state = message.sendState;
  return (
    <div ref={ref} className={`${mine ? 'msg mine' : 'msg theirs'}${highlighted ? ' flash' : ''}`} data-fp={message.fp} data-type={message.type}>
      {!mine && <Avatar url={message.fa} name={name} />}
      <div className="msg-main">
        <div className="msg-meta">
          {mine ? <span className="visually-hidden">{appText(language, 'you')}</span> : <span className="msg-name">{name}</span>}
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
          {!mine && textual && translatable && message.dataContent && keyedText(message, language) === undefined ? (
            <LazyPart>
              <TranslateAction text={message.dataContent} language={language} />
            </LazyPart>
          ) : null}
        </div>
      </div>
    </div>
  );
});
