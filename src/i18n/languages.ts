/**
 * The supported interface languages (spec §9) and language-code normalisation.
 * @module
 */
import type { zh } from './locales/zh.js';

/** The supported languages (spec §9). zh is the key language and the fallback. */
export const SUPPORTED_LANGUAGES = ['zh', 'zh-Hant', 'en', 'de', 'es', 'fr', 'ja', 'ko', 'pt', 'vi'] as const;

/** A supported language code. */
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/** The key language: its catalogue is the contract of every other and the fallback for any text one lacks (spec §9: fallback zh). It loads on demand like the others; the zh texts of the notices the SDK raises itself are bundled. */
export const FALLBACK_LANGUAGE: Language = 'zh';

/** A text key: the keys of the zh catalogue (`loadCatalogue('zh')`) are the contract every catalogue fulfils. */
export type I18nKey = keyof typeof zh;

/** A complete catalogue: a text for every {@link I18nKey}, nothing else. */
export type Catalogue = Readonly<Record<I18nKey, string>>;

/** Parameters interpolated into `{name}` placeholders. */
export type I18nParams = Readonly<Record<string, string | number>>;

/** Region and script subtags that mean Traditional Chinese. */
const TRADITIONAL = new Set(['hant', 'tw', 'hk', 'mo']);

/** Inputs that mean "no language chosen" (spec §3: language 'no'; entry links: 'null' or 0). */
const NONE = new Set(['', 'no', 'null', 'undefined', '0', 'none']);

/**
 * Maps a language code to a supported {@link Language}, case-insensitively: `zh`, `zh-CN`,
 * `zh-Hans`, `zh_SG` -> `zh`; `zh-TW`, `zh-HK`, `zh-MO`, `zh-Hant`, `zh-Hant-TW` -> `zh-Hant`;
 * `en-US` -> `en`, `pt-BR` -> `pt` (any region of a supported language).
 * @returns the language, or `undefined` for "none" (`'no'`, `''`, `0`, `null`, `'null'`) and for
 * unsupported codes
 */
export function normalizeLanguage(input: string | number | undefined | null): Language | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'string') return undefined;
  const code = input.trim().toLowerCase().replace(/_/g, '-');
  if (NONE.has(code)) return undefined;
  const [primary, ...rest] = code.split('-');
  if (primary === 'zh') return rest.some((part) => TRADITIONAL.has(part)) ? 'zh-Hant' : 'zh';
  return SUPPORTED_LANGUAGES.find((lang) => lang === primary);
}

/** Whether a value is a supported language code, exactly as spelled in {@link SUPPORTED_LANGUAGES}. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}
