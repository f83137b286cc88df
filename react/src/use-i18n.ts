/**
 * `useI18n`: the current language, the translate function and the language switch.
 * @module
 */
import type { I18nSnapshot, Language } from '@kefu-im/sdk';
import { useCallback, useMemo } from 'react';
import { useImClient } from './context.js';
import { identity, useStoreSelector } from './store-selector.js';

/** What {@link useI18n} returns. */
export interface UseI18nResult {
  /** The current language. */
  readonly language: Language;
  /** Whether its texts are loaded (until then `t` gives the SDK's notices in zh and other keys as they are). */
  readonly ready: boolean;
  /** Translates a text key with `{name}` parameters into the current language (zh fallback). */
  readonly t: I18nSnapshot['t'];
  /**
   * Switches the language: loads its texts, persists it and re-renders every `useI18n`. Unknown
   * codes give zh. Rejects when the texts cannot be loaded (the language then stays as it was).
   * @param language - a supported language code
   */
  setLanguage(language: string): Promise<Language>;
}

/**
 * The interface language and texts of the client (`client.i18n`). `t` changes identity when the
 * language or its texts change, so it can be a dependency of memoised values.
 *
 * ```tsx
 * const { t, language, setLanguage } = useI18n();
 * <button onClick={() => void setLanguage('en')}>{t('send')}</button>
 * ```
 */
export function useI18n(): UseI18nResult {
  const client = useImClient();
  const { language, ready, t } = useStoreSelector(client.i18n, identity<I18nSnapshot>);
  const setLanguage = useCallback((next: string) => client.setLanguage(next), [client]);
  return useMemo(() => ({ language, ready, t, setLanguage }), [language, ready, t, setLanguage]);
}
