/**
 * The desk's language: at start the agent's own pick (kept in `localStorage` across reloads and
 * logins), else the browser's first supported language, else the default (zh); the switch after
 * login offers the same list as the login form and the visitor page (the runtime loads a
 * language's texts before showing it).
 * @module
 */
import { normalizeLanguage, resolveStorage, SUPPORTED_LANGUAGES, type Language } from '@kefu-im/sdk';
import { useI18n, useImClient } from '@kefu-im/react';
import { useId, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { LANGUAGE_NAMES } from '../env/language-names.js';
import { useRuntime } from '../runtime/context.js';

/** The storage key of the agent's own pick of the desk's language. */
export const DESK_LANGUAGE_KEY = 'kefu.deskLanguage';

/**
 * The desk's language at start: the agent's pick if one is kept, else the first of the browser's
 * languages that the desk speaks; `undefined` when neither (the default stays).
 * @param storage - where the pick is kept (unavailable storage counts as no pick)
 * @param browserLanguages - `navigator.languages`, most preferred first
 */
export function initialDeskLanguage(storage: Pick<Storage, 'getItem'> | undefined, browserLanguages: readonly string[]): Language | undefined {
  let kept: string | null = null;
  try {
    kept = storage?.getItem(DESK_LANGUAGE_KEY) ?? null;
  } catch {
    // storage unavailable: no pick
  }
  const picked = normalizeLanguage(kept);
  if (picked) return picked;
  for (const language of browserLanguages) {
    const spoken = normalizeLanguage(language);
    if (spoken) return spoken;
  }
  return undefined;
}

/**
 * Keeps the agent's pick of the desk's language for the next reload or login.
 * @param storage - where to keep it (a full or unavailable storage keeps it for this page only)
 * @param language - the picked language
 */
export function rememberDeskLanguage(storage: Pick<Storage, 'setItem'> | undefined, language: string): void {
  try {
    storage?.setItem(DESK_LANGUAGE_KEY, language);
  } catch {
    // storage unavailable: the pick lasts for this page only
  }
}

/** The browser's languages, most preferred first (none outside a browser). */
export function browserLanguages(): readonly string[] {
  const nav = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator;
  if (nav?.languages && nav.languages.length > 0) return nav.languages;
  return nav?.language ? [nav.language] : [];
}

/** A labelled language select; switches the app and the agent's client, and keeps the pick. */
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
      <select id={id} className="field" value={language} onChange={(e) => {
          rememberDeskLanguage(resolveStorage(), e.target.value);
          void runtime.setLanguage(e.target.value, client).catch(() => undefined);
        }}
      >
        {SUPPORTED_LANGUAGES.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {LANGUAGE_NAMES[lang]}
          </option>
        ))}
      </select>
    </div>
  );
}
