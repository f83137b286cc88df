/**
 * The content of one message by type: text (emoji and safe links), image (opens the preview),
 * file (download link) and video (with the spec's "cannot be played" text when it fails).
 * @module
 */
import { MessageType, type StoredMessage } from '@kefu-im/sdk';
import { isSafeUrl, parseFileContent } from '@kefu-im/sdk/format';
import { useI18n } from '@kefu-im/react';
import { useState, type ReactElement } from 'react';
import { useChat } from './conversation.js';
import { Icon } from '../ui/icons.js';
import { RichText } from './rich-text.js';
import { keyedText } from './text-keys.js';

/** A URL the app may load or link to: `http(s)` that passed `isSafeUrl`, or a path on this site. */
export function usableUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  const u = url.trim();
  if (isSafeUrl(u)) return u;
  return /^\/[^/\\]/.test(u) && !/[\s\u0000-\u001f]/.test(u) ? u : null;
}

const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * An image source the app may show (avatars, the page icon): what {@link usableUrl} accepts, or a
 * base64 `data:image/...` URL of at most 100 000 characters (an image never runs script).
 */
export function usableImageUrl(url: unknown): string | null {
  const plain = usableUrl(url);
  if (plain) return plain;
  return typeof url === 'string' && url.length <= 100_000 && DATA_IMAGE.test(url) ? url : null;
}

/** Bytes as B / KB / MB. */
export function formatSize(bytes: number): string {
  if (!(bytes >= 0)) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function ImageBody({ url }: { url: string }): ReactElement {
  const { t } = useI18n();
  const { openDialog } = useChat();
  return (
    <button type="button" className="img-btn" aria-label={t('image')} onClick={() => openDialog('preview', url)}>
      <img src={url} alt={t('image')} loading="lazy" decoding="async" />
    </button>
  );
}

function VideoBody({ url, name }: { url: string; name: string }): ReactElement {
  const { t } = useI18n();
  const [failed, setFailed] = useState(false);
  if (failed) return <p className="video-failed">{t('videoCannotPlay')}</p>;
  return (
    <video className="video" src={url} controls preload="metadata" aria-label={name || t('video')} onError={() => setFailed(true)}>
      {t('videoCannotPlay')}
    </video>
  );
}

function FileBody({ url, name, size }: { url: string; name: string; size: number }): ReactElement {
  const { t } = useI18n();
  return (
    <a className="file" href={url} target="_blank" rel="noopener noreferrer" download={name}>
      <span className="file-icon" aria-hidden="true">
        <Icon name="attach" />
      </span>
      <span className="file-name">{name}</span>
      <span className="file-size">
        {formatSize(size)} · {t('download')}
      </span>
    </a>
  );
}

/** The body of a chat bubble. */
export function MessageBody({ message }: { message: StoredMessage }): ReactElement {
  const { t, language } = useI18n();
  switch (message.type) {
    case MessageType.Image: {
      const url = usableUrl(message.dataContent);
      return url ? <ImageBody url={url} /> : <RichText message={{ type: 0, dataContent: message.dataContent ?? '' }} />;
    }
    case MessageType.File:
    case MessageType.Video: {
      const content = parseFileContent(message.dataContent);
      const url = usableUrl(content?.url);
      if (!content || !url) return <p className="video-failed">{t('linkBroken')}</p>;
      return message.type === MessageType.Video ? <VideoBody url={url} name={content.name} /> : <FileBody url={url} name={content.name} size={content.size} />;
    }
    default: {
      // a keyed server text (the robot's greeting) in the interface language of the moment
      const keyed = keyedText(message, language);
      return <RichText message={keyed === undefined ? message : { type: message.type, dataContent: keyed }} />;
    }
  }
}
