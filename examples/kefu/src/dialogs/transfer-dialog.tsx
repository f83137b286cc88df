/**
 * The confirm dialog before going to a human agent (spec §2: "a confirm dialog asking whether to
 * go to the human-agent interface").
 * @module
 */
import { useI18n, useImClient } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { Dialog } from '../ui/dialog.js';
import type { ChatDialogProps } from './types.js';

/** Asks, then sends the transfer request (type 301). */
export default function TransferDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t } = useI18n();
  const client = useImClient();
  const confirm = (): void => {
    client.transferToHuman();
    onClose();
  };
  return (
    <Dialog title={t('transferToHuman')} onClose={onClose} closeLabel={t('close')} className="dialog-small">
      <p>{t('transferConfirm')}</p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="button" className="btn btn-primary" data-autofocus onClick={confirm}>
          {t('confirm')}
        </button>
      </div>
    </Dialog>
  );
}
