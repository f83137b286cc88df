/**
 * The desk's language switch after login: the same list as the login form and the visitor page
 * (the runtime loads a language's texts before showing it).
 * @module
 */
import { SUPPORTED_LANGUAGES } from '@kefu-im/sdk';
import { useI18n, useImClient } from '@kefu-im/react';
import { useId, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { LANGUAGE_NAMES } from '../env/language-names.js';
import { useRuntime } from '../runtime/context.js';

/** A labelled language select; switches the app and the agent's client. */
export function DeskLanguage(): ReactElement {
  const runtime = useRuntime();
  const client = useImClient();
  const { language } = useI18n();
  const id = useId();
  return (
    <div className="desk-language">
      <label className="field-label" htmlFor={id}>
        {appText(language, 'language')}
      </label>
      <select id={id} className="field" value={language} onChange={(e) => void runtime.setLanguage(e.target.value, client).catch(() => undefined)}>
        {SUPPORTED_LANGUAGES.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {LANGUAGE_NAMES[lang]}
          </option>
        ))}
      </select>
    </div>
  );
}
