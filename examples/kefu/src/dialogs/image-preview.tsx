/**
 * The image preview: the picture at full size in a dialog.
 * @module
 */
import { useI18n } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { usableUrl } from '../chat/message-body.js';
import { Dialog } from '../ui/dialog.js';
import type { ChatDialogProps } from './types.js';

/** Shows the image `data` (an http(s) URL). */
export default function ImagePreview({ onClose, data }: ChatDialogProps): ReactElement {
  const { t } = useI18n();
  const url = usableUrl(data);
  return (
    <Dialog title={t('image')} onClose={onClose} closeLabel={t('close')} className="dialog-preview">
      {url ? <img className="preview-img" src={url} alt={t('image')} /> : <p>{t('linkBroken')}</p>}
      {url && (
        <p>
          <a href={url} target="_blank" rel="noopener noreferrer" download>
            {t('download')}
          </a>
        </p>
      )}
    </Dialog>
  );
}
