/**
 * Each interface language named in itself, for the language pickers (the visitor's language
 * dialog and the agent desk's login form, both loaded lazily).
 * @module
 */
import type { Language } from '@kefu-im/sdk';

/** Each language's name in that language. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  zh: '简体中文',
  'zh-Hant': '繁體中文',
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  ja: '日本語',
  ko: '한국어',
  pt: 'Português',
  vi: 'Tiếng Việt',
};
