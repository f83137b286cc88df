/**
 * The app's own texts in the nine languages other than zh, in a chunk of their own: fetched by
 * `AppTextCatalogue.load` (app-texts.ts) only when one of them is shown. Each language sits in
 * its own file under `app-text-locales/`.
 * @module
 */
import type { AppTextTranslations } from './app-texts.js';
import { zhHant } from './app-text-locales/zh-Hant.js';
import { en } from './app-text-locales/en.js';
import { de } from './app-text-locales/de.js';
import { es } from './app-text-locales/es.js';
import { fr } from './app-text-locales/fr.js';
import { ja } from './app-text-locales/ja.js';
import { ko } from './app-text-locales/ko.js';
import { pt } from './app-text-locales/pt.js';
import { vi } from './app-text-locales/vi.js';

export { EMOJI_NAMES_EN } from './emoji-names-en.js';

/** The app texts of every language but zh (TypeScript checks that each has every key). */
export const APP_TEXT_TRANSLATIONS: AppTextTranslations = { 'zh-Hant': zhHant, en, de, es, fr, ja, ko, pt, vi };
