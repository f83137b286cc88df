/**
 * The uploads of the composer (spec §3 "Upload item", §4): each file uploading with its progress,
 * or failed with an error mark, its message and a retry.
 * @module
 */
import type { UploadItem } from '@kefu-im/sdk';
import { useI18n } from '@kefu-im/react';
import type { ReactElement } from 'react';

/** Props of {@link UploadTray}. */
export interface UploadTrayProps {
  /** The upload items. */
  items: readonly UploadItem[];
  /** Uploads a failed item again. */
  onRetry: (id: string) => void;
  /** Removes an item. */
  onRemove: (id: string) => void;
}

/** The upload tray (nothing when there are no uploads). The composer loads it with the first upload. */
export function UploadTray({ items, onRetry, onRemove }: UploadTrayProps): ReactElement | null {
  const { t } = useI18n();
  if (items.length === 0) return null;
  return (
    <ul className="uploads" aria-label={t('uploading')}>
      {items.map((item) => {
        const name = item.file.name ?? t('file');
        const percent = Math.round(item.progress * 100);
        return (
          <li key={item.id} className={`upload upload-${item.status || 'idle'}`}>
            {item.kind === 'image' && item.objectUrl ? <img className="upload-thumb" src={item.objectUrl} alt="" /> : <span className="upload-thumb" aria-hidden="true" />}
            <span className="upload-name">{name}</span>
            {item.status === 'failed' ? (
              <>
                <span className="upload-error" role="alert">
                  <span aria-hidden="true">⚠ </span>
                  {item.message || t('uploadFailed')}
                </span>
                <button type="button" className="mini-btn" onClick={() => onRetry(item.id)}>
                  {t('retry')}
                </button>
              </>
            ) : (
              <progress max={100} value={percent} aria-label={t('uploadProgress', { percent })}>
                {percent}%
              </progress>
            )}
            <button type="button" className="mini-btn" aria-label={`${t('cancel')} ${name}`} onClick={() => onRemove(item.id)}>
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
