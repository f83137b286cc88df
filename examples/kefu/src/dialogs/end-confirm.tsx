/**
 * The confirmation before ending a conversation, for the visitor's chat and the agent's desk: an
 * accessible dialog whose safe choice, cancel, has the focus; confirming ends it and closes.
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
  /** The confirm button's look: `danger` on the desk (the agent ends someone else's chat), `primary` for the visitor. */
  tone?: 'danger' | 'primary';
  /** Closes the dialog. */
  onClose: () => void;
}

/** Asks whether to end the conversation. */
export function EndConfirm({ onEnd, onClose, tone = 'danger' }: EndConfirmProps): ReactElement {
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
          className={`btn btn-${tone}`}
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
