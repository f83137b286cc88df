/**
 * The desk's queue (type 310 snapshots): each waiting visitor with how long it waits, a preview
 * button (read what it wrote before accepting) and the accept button (type 311); an empty queue
 * says that nobody is queueing.
 * @module
 */
import type { QueueEntry } from '@kefu-im/sdk';
import { useI18n, useServerClock } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { deskText, visitorLabel } from './desk-texts.js';

/** The attribute that finds a visitor's preview button (focus goes back to it when the preview closes). */
export const PREVIEW_BUTTON_ATTRIBUTE = 'data-preview-of';

function QueueItem({ entry, previewed, onPreview, onAccept }: { entry: QueueEntry; previewed: boolean; onPreview: () => void; onAccept: () => void }): ReactElement {
  const { t, language } = useI18n();
  const now = useServerClock();
  const minutes = Math.max(0, Math.floor((now - entry.since) / 60_000));
  const name = visitorLabel(entry.name, entry.clientId, language);
  return (
    <li className={previewed ? 'queue-item is-previewed' : 'queue-item'}>
      <span className="queue-who">
        <span className="queue-name">{name}</span>
        <span className="muted">{t('waitingSince', { minutes })}</span>
      </span>
      <button
        type="button"
        className="btn btn-small"
        onClick={onPreview}
        aria-label={deskText(language, 'previewOf', { name })}
        aria-current={previewed ? 'true' : undefined}
        {...{ [PREVIEW_BUTTON_ATTRIBUTE]: entry.clientId }}
      >
        {deskText(language, 'preview')}
      </button>
      <button type="button" className="btn btn-primary btn-small" onClick={onAccept} aria-label={`${t('accept')} ${name}`}>
        {t('accept')}
      </button>
    </li>
  );
}

/** Props of {@link DeskQueueList}. */
export interface DeskQueueListProps {
  /** The visitors waiting, in queue order. */
  queue: readonly QueueEntry[];
  /** The visitor whose preview is open, if any. */
  previewed: string | null;
  /** Opens the preview of a waiting visitor. */
  onPreview: (entry: QueueEntry) => void;
  /** Accepts a waiting visitor. */
  onAccept: (clientId: string) => void;
}

/** The queue's heading and list, or the note that nobody is queueing. */
export function DeskQueueList({ queue, previewed, onPreview, onAccept }: DeskQueueListProps): ReactElement {
  const { t } = useI18n();
  return (
    <>
      <h2>
        {t('queue')} ({queue.length})
      </h2>
      {queue.length === 0 ? (
        <p className="muted">{t('noVisitorsWaiting')}</p>
      ) : (
        <ul className="queue">
          {queue.map((entry) => (
            <QueueItem key={entry.clientId} entry={entry} previewed={entry.clientId === previewed} onPreview={() => onPreview(entry)} onAccept={() => onAccept(entry.clientId)} />
          ))}
        </ul>
      )}
    </>
  );
}
