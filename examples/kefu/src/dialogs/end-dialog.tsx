/**
 * Confirms ending the conversation (issue 10): an accessible dialog whose safe choice, cancel,
 * has the focus; ending sends the end and closes.
 * @module
 */
import { useI18n, useImClient } from '@kefu-im/react';
import { useId, type ReactElement } from 'react';
import { Dialog } from '../ui/dialog.js';
import type { ChatDialogProps } from './types.js';
import { appText } from '../env/app-texts.js';

/** The end-conversation confirmation. */
export default function EndDialog({ onClose, onDone }: ChatDialogProps): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const textId = useId();
  return (
    <Dialog title={t('endConversation')} onClose={onClose} closeLabel={t('close')} className="dialog-small" describedBy={textId}>
      <p id={textId}>{appText(language, 'endConversationConfirm')}</p>
      <div className="dialog-actions">
        <button type="button" className="btn" data-autofocus onClick={onClose}>
          {t('cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            client.endConversation();
            onDone?.();
            onClose();
          }}
        >
          {t('endConversation')}
        </button>
      </div>
    </Dialog>
  );
}
