/**
 * Interface texts: supported languages, catalogues and the lookup with zh fallback.
 * @module
 */
export {
  FALLBACK_LANGUAGE,
  SUPPORTED_LANGUAGES,
  isLanguage,
  normalizeLanguage,
  type Catalogue,
  type I18nKey,
  type I18nParams,
  type Language,
} from './languages.js';
export { I18n, interpolate, loadCatalogue, type CatalogueLoader, type I18nOptions, type I18nSnapshot } from './i18n.js';
export type { NoticeKey } from './locales/zh-notices.js';
