import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES, isLanguage, normalizeLanguage } from './languages.js';

describe('normalizeLanguage: codes map to the supported languages (spec §9)', () => {
  it('maps Simplified Chinese variants to zh', () => {
    for (const code of ['zh', 'zh-CN', 'ZH-cn', 'zh_SG', 'zh-Hans', 'zh-Hans-CN']) expect(normalizeLanguage(code), code).toBe('zh');
  });

  it('maps Traditional Chinese variants to zh-Hant', () => {
    for (const code of ['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-hant-tw', 'ZH_TW']) expect(normalizeLanguage(code), code).toBe('zh-Hant');
  });

  it('drops the region of the other languages', () => {
    expect(normalizeLanguage('en-US')).toBe('en');
    expect(normalizeLanguage('pt-BR')).toBe('pt');
    expect(normalizeLanguage('VI')).toBe('vi');
    expect(normalizeLanguage(' fr-CA ')).toBe('fr');
  });

  it("gives undefined for 'no', empty, 0, null and unsupported codes", () => {
    for (const none of ['no', '', 'null', 0, null, undefined, 'xx', 'it-IT', 7]) expect(normalizeLanguage(none), String(none)).toBeUndefined();
  });

  it('is the identity on every supported language', () => {
    for (const lang of SUPPORTED_LANGUAGES) expect(normalizeLanguage(lang)).toBe(lang);
  });
});

describe('isLanguage', () => {
  it('accepts exact supported codes only', () => {
    expect(isLanguage('zh-Hant')).toBe(true);
    expect(isLanguage('zh-hant')).toBe(false);
    expect(isLanguage('no')).toBe(false);
    expect(isLanguage(1)).toBe(false);
  });
});
