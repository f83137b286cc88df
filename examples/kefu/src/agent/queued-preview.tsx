/**
 * The preview of a queued visitor (desk issue, "before accepting"): what it wrote in its current
 * conversation (to the robot and while queueing), read-only, with accept, reload and close. It only
 * reads the SDK desk's `preview` store and calls its methods; the server decides what the agent
 * may read (a visitor still queued with a merchant the agent serves).
 * @module
 */
import type { ChatMessage } from '@kefu-im/sdk';
import { messageTimeMs } from '@kefu-im/sdk/format';
import type { AgentDesk } from '@kefu-im/sdk/agent';
import { useI18n } from '@kefu-im/react';
import { useEffect, useId, useRef, useSyncExternalStore, type ReactElement } from 'react';
import { deskText, visitorLabel } from './desk-texts.js';

/** What a message of the transcript shows: its text, or the kind of attachment and its name. */
function MessageContent({ message }: { message: ChatMessage }): ReactElement {
  const { t } = useI18n();
  if (message.type === 100) return <span>{message.dataContent}</span>;
  const kind = message.type === 101 ? t('image') : message.type === 103 ? t('video') : t('file');
  let name = '';
  try {
    const parsed: unknown = JSON.parse(message.dataContent ?? '');
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { name?: unknown }).name === 'string') name = (parsed as { name: string }).name;
  } catch {
    // an image's content is its URL: the kind says enough
  }
  return <span className="muted">[{name ? `${kind}: ${name}` : kind}]</span>;
}

/** Props of {@link QueuedPreview}. */
export interface QueuedPreviewProps {
  /** The agent's desk. */
  desk: AgentDesk;
  /** Accepts the previewed visitor. */
  onAccept: (clientId: string) => void;
  /** Closes the preview. */
  onClose: () => void;
}

/** The open preview (nothing when none is open). */
export function QueuedPreview({ desk, onAccept, onClose }: QueuedPreviewProps): ReactElement | null {
  const { t, language } = useI18n();
  const { visitor, transcript, loading, waiting, error } = useSyncExternalStore(desk.preview.store.subscribe, desk.preview.store.getSnapshot);
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const clientId = visitor?.clientId;
  useEffect(() => {
    if (clientId !== undefined) heading.current?.focus(); // a screen reader hears whom it reads
  }, [clientId]);
  if (!visitor) return null;
  const time = (ms: number | undefined): string => (ms ? new Date(ms).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' }) : '');
  const messages = transcript?.messages ?? [];
  const name = visitorLabel(visitor.name, visitor.clientId, language);
  return (
    <section className="queued-preview" aria-labelledby={headingId} aria-busy={loading}>
      <div className="agent-chat-head hairline-bottom">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          {deskText(language, 'previewHeading', { name })}
        </h2>
        <button type="button" className="btn btn-small" onClick={() => void desk.preview.reload().catch(() => undefined)} disabled={loading}>
          {deskText(language, 'reload')}
        </button>
        <button type="button" className="btn btn-primary btn-small" onClick={() => onAccept(visitor.clientId)} disabled={!waiting} aria-label={`${t('accept')} ${name}`}>
          {t('accept')}
        </button>
        <button type="button" className="btn btn-small" onClick={onClose}>
          {deskText(language, 'close')}
        </button>
      </div>
      <p className="muted queued-preview-note">{deskText(language, 'previewNote')}</p>
      {!waiting && (
        <p className="queued-preview-gone" role="status">
          {deskText(language, 'previewGone')}
        </p>
      )}
      {error && (
        <p className="field-error queued-preview-error" role="alert">
          {deskText(language, 'previewFailed')}
        </p>
      )}
      {transcript && messages.length === 0 && <p className="muted queued-preview-note">{deskText(language, 'previewEmpty')}</p>}
      {messages.length > 0 && (
        <ol className="past-messages" aria-label={deskText(language, 'previewNote')}>
          {messages.map((m, i) => (
            <li key={m.fp ?? i} className="from-visitor">
              <span className="muted">{time(messageTimeMs(m))}</span> <MessageContent message={m} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
