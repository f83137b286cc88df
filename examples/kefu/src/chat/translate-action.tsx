/**
 * The translate action of a received text (loaded lazily, only where the server has a
 * translation provider): offered only when the text seems to be in another language than the
 * interface's; the translation shows under the text, a failure as a toast.
 * @module
 */
import { useI18n, useImClient } from '@kefu-im/react';
import { useState, type ReactElement } from 'react';
import { useToast } from '../ui/toaster.js';
import { mayNeedTranslation, translateTarget } from './translate-hint.js';

/** Props of {@link TranslateAction}. */
export interface TranslateActionProps {
  /** The received text. */
  text: string;
  /** The interface language. */
  language: string;
}

/** The translate button and the translation (nothing when it cannot help). */
export default function TranslateAction({ text, language }: TranslateActionProps): ReactElement | null {
  const { t } = useI18n();
  const client = useImClient();
  const toast = useToast();
  const [state, setState] = useState<{ busy: boolean; text: string }>({ busy: false, text: '' });
  if (!mayNeedTranslation(text, language)) return null;
  const run = (): void => {
    setState({ busy: true, text: '' });
    client.api.translate(text, translateTarget(language)).then(
      (result) => {
        const out = typeof result?.text === 'string' ? result.text.trim() : '';
        setState({ busy: false, text: out });
        if (out === '') toast(t('translateFailed'), 'error');
      },
      () => {
        setState({ busy: false, text: '' });
        toast(t('translateFailed'), 'error');
      },
    );
  };
  return (
    <>
      <button type="button" className="mini-btn" onClick={run} disabled={state.busy}>
        {state.busy ? t('translating') : t('translate')}
      </button>
      {state.text !== '' && (
        <p className="translation" lang={language}>
          {state.text}
        </p>
      )}
    </>
  );
}
