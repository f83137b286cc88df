import { SUPPORTED_LANGUAGES } from '@kefu-im/sdk';
import { describe, expect, it, vi } from 'vitest';
import { APP_TEXT_TRANSLATIONS } from './app-text-translations.js';
import { EMOJI_NAMES } from '@kefu-im/sdk/format';
import { AppTextCatalogue, ZH_APP_TEXTS, type AppTextKey, type AppTextTranslationsImport } from './app-texts.js';
import { EMOJI_NAMES_EN } from './emoji-names-en.js';

const KEYS = Object.keys(ZH_APP_TEXTS) as AppTextKey[];
const fromModule: AppTextTranslationsImport = () => Promise.resolve({ APP_TEXT_TRANSLATIONS });
const quiet = (): void => undefined;

describe('spec §1: the interface texts exist in all ten languages', () => {
  it('has every app text in every supported language, zh for anything else', async () => {
    const texts = new AppTextCatalogue();
    for (const language of SUPPORTED_LANGUAGES) {
      expect(await texts.load(language)).toBe(language);
      for (const key of KEYS) expect(texts.text(language, key), `${language} ${key}`).not.toBe('');
    }
    expect(texts.text('en', 'more')).toBe('More');
    expect(texts.text('ja', 'nextAttemptIn', { seconds: 5 })).toBe('5 秒後に再試行');
    expect(texts.text('xx', 'more')).toBe(ZH_APP_TEXTS.more);
  });

  it('keeps the placeholders of the zh text in every translation', () => {
    const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
    for (const table of Object.values(APP_TEXT_TRANSLATIONS)) {
      for (const key of KEYS) expect(placeholders(table[key]), key).toEqual(placeholders(ZH_APP_TEXTS[key]));
    }
  });
});

describe('issue 13: zh is bundled; the other languages load on demand, before they are shown', () => {
  it('answers zh at once, without fetching anything', async () => {
    const fetchTranslations = vi.fn(fromModule);
    const texts = new AppTextCatalogue(fetchTranslations, quiet);
    expect(texts.has('zh')).toBe(true);
    expect(await texts.load('zh')).toBe('zh');
    expect(texts.text('zh', 'more')).toBe('更多');
    expect(fetchTranslations).not.toHaveBeenCalled();
  });

  it('a language loads its texts (one fetch for all nine, shared by overlapping loads)', async () => {
    const fetchTranslations = vi.fn(fromModule);
    const texts = new AppTextCatalogue(fetchTranslations, quiet);
    expect(texts.has('en')).toBe(false);
    expect(texts.text('en', 'more')).toBe('更多'); // not loaded yet: zh, never empty
    expect(await Promise.all([texts.load('en'), texts.load('de')])).toEqual(['en', 'de']);
    expect(texts.has('en')).toBe(true);
    expect(texts.text('en', 'more')).toBe('More');
    expect(texts.text('de', 'fileTypeRefused', { name: 'a.exe' })).toBe('Dieser Dateityp wird nicht unterstützt: a.exe');
    expect(await texts.load('vi')).toBe('vi');
    expect(fetchTranslations).toHaveBeenCalledTimes(1);
  });

  it('the real chunk holds the translations', async () => {
    const texts = new AppTextCatalogue(undefined, quiet);
    expect(await texts.load('fr')).toBe('fr');
    expect(texts.text('fr', 'language')).toBe('Langue');
  });

  it('an unknown language falls back to zh without a fetch; a regional code takes its language', async () => {
    const fetchTranslations = vi.fn(fromModule);
    const texts = new AppTextCatalogue(fetchTranslations, quiet);
    expect(await texts.load('xx')).toBe('zh');
    expect(await texts.load('')).toBe('zh');
    expect(fetchTranslations).not.toHaveBeenCalled();
    expect(texts.text('xx', 'language')).toBe('语言');
    expect(await texts.load('en-US')).toBe('en');
    expect(texts.text('en', 'language')).toBe('Language');
  });

  it('a failed chunk load falls back to the zh texts, is reported, and is tried again next time', async () => {
    const report = vi.fn();
    const fetchTranslations = vi.fn<AppTextTranslationsImport>().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockImplementation(fromModule);
    const texts = new AppTextCatalogue(fetchTranslations, report);
    expect(await texts.load('en')).toBe('zh');
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toContain('"en"');
    expect(report.mock.calls[0]?.[1]).toBeInstanceOf(TypeError);
    expect(texts.has('en')).toBe(false);
    for (const key of KEYS) expect(texts.text('en', key)).toBe(ZH_APP_TEXTS[key]);
    expect(await texts.load('en')).toBe('en');
    expect(texts.text('en', 'more')).toBe('More');
    expect(fetchTranslations).toHaveBeenCalledTimes(2);
  });
});

describe('issue 23: emoji names for screen readers in the interface language (zh and en)', () => {
  it('has an English name for each of the 99 faces, all different', () => {
    expect(EMOJI_NAMES_EN).toHaveLength(EMOJI_NAMES.length);
    expect(new Set(EMOJI_NAMES_EN).size).toBe(99);
    for (const name of EMOJI_NAMES_EN) expect(name.trim()).not.toBe('');
  });

  it('names a face in Chinese for zh and zh-Hant, in English for the other languages once loaded', async () => {
    const texts = new AppTextCatalogue(() => import('./app-text-translations.js'), quiet);
    expect(texts.emojiName('en', 0, '微笑')).toBe('微笑'); // not loaded yet: never empty
    await texts.load('en');
    expect(texts.emojiName('en', 0, '微笑')).toBe('Smile');
    expect(texts.emojiName('vi', 79, '强')).toBe('Thumbs up');
    expect(texts.emojiName('zh', 0, '微笑')).toBe('微笑');
    expect(texts.emojiName('zh-Hant', 0, '微笑')).toBe('微笑');
    expect(texts.emojiName('en', 999, '?')).toBe('?');
  });
});
