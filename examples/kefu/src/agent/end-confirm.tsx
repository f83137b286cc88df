/**
 * The desk's confirmation before ending a conversation: an accessible dialog whose safe choice,
 * cancel, has the focus; confirming ends the conversation (type 302) and closes.
 * @module
 */
import { useI18n } from '@kefu-im/react';
import { useId, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { Dialog } from '../ui/dialog.js';

/** Props of {@link EndConfirm}. */
export interface EndConfirmProps {
  /** Ends the conversation. */
  onEnd: () => void;
  /** Closes the dialog. */
  onClose: () => void;
}

/** Asks whether to end the conversation. */
export function EndConfirm({ onEnd, onClose }: EndConfirmProps): ReactElement {
  const { t, language } = useI18n();
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
          className="btn btn-danger"
          onClick={() => {
            onEnd();
            onClose();
          }}
        >
          {t('endConversation')}
        </button>
      </div>
    </Dialog>
  );
}
