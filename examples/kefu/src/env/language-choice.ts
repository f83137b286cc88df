/**
 * The visitor's own choice of interface language. The language itself is kept in the client's
 * persisted state (`language`, written by `client.setLanguage`); this flag only records that the
 * visitor picked it, so that an entry link's language no longer overrides it on the next visit.
 * Storage is reached lazily and inside try/catch (private mode, disabled storage).
 * @module
 */

/** The storage key of the flag. */
export const LANGUAGE_CHOSEN_KEY = 'kefu.languageChosen';

/** Whether the visitor picked the language themselves. */
export function languageChosen(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(LANGUAGE_CHOSEN_KEY) === '1';
  } catch {
    return false;
  }
}

/** Records that the visitor picked the language. */
export function rememberLanguageChosen(storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(LANGUAGE_CHOSEN_KEY, '1');
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}
