/**
 * The language switcher: the ten interface languages (spec §9), each named in itself. The pick
 * is applied to the chat client and the app's texts, kept in the client's persisted state, and
 * wins over an entry link's language on the next visit.
 * @module
 */
import { SUPPORTED_LANGUAGES, type Language } from '@kefu-im/sdk';
import { useI18n, useImClient } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { LANGUAGE_NAMES } from '../env/language-names.js';
import { rememberLanguageChosen } from '../env/language-choice.js';
import { useRuntime } from '../runtime/context.js';
import { Dialog } from '../ui/dialog.js';
import type { ChatDialogProps } from './types.js';

/** The language dialog. */
export default function LanguageDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const runtime = useRuntime();
  const pick = (next: Language): void => {
    rememberLanguageChosen();
    if (next !== language) {
      void runtime.setLanguage(next, client).catch(() => undefined);
    }
    onClose();
  };
  return (
    <Dialog title={appText(language, 'language')} onClose={onClose} closeLabel={t('close')} className="dialog-small">
      <ul className="language-list">
        {SUPPORTED_LANGUAGES.map((code) => (
          <li key={code}>
            <button
              type="button"
              className="language-option"
              lang={code}
              aria-current={code === language ? 'true' : undefined}
              data-autofocus={code === language ? true : undefined}
              onClick={() => pick(code)}
            >
              {LANGUAGE_NAMES[code]}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
