import { describe, expect, it } from 'vitest';
import { dominantScript, mayNeedTranslation } from './translate-hint.js';

describe('the translate action only where it can help (another language than the interface)', () => {
  it('guesses the script of a text', () => {
    expect(dominantScript('充值多久到账？')).toBe('han');
    expect(dominantScript('入金はいつ反映されますか')).toBe('kana');
    expect(dominantScript('입금은 언제 되나요')).toBe('hangul');
    expect(dominantScript('When does my deposit arrive?')).toBe('latin');
    expect(dominantScript('12:30 😀 !!')).toBe('none');
  });

  it('offers it for a text in another script than the interface language', () => {
    expect(mayNeedTranslation('When does my deposit arrive?', 'zh')).toBe(true);
    expect(mayNeedTranslation('充值多久到账？', 'zh')).toBe(false);
    expect(mayNeedTranslation('充值多久到账？', 'zh-Hant')).toBe(false);
    expect(mayNeedTranslation('充值多久到账？', 'en')).toBe(true);
    expect(mayNeedTranslation('入金はいつ反映されますか', 'ja')).toBe(false);
    expect(mayNeedTranslation('입금은 언제 되나요', 'ko')).toBe(false);
    expect(mayNeedTranslation('입금은 언제 되나요', 'ja')).toBe(true);
  });

  it('among Latin-script languages takes plain ASCII as English', () => {
    expect(mayNeedTranslation('When does my deposit arrive?', 'en')).toBe(false);
    expect(mayNeedTranslation('When does my deposit arrive?', 'de')).toBe(true);
    expect(mayNeedTranslation('Wann kommt meine Einzahlung an? Grüße', 'en')).toBe(true);
    expect(mayNeedTranslation('Quand arrive mon dépôt ?', 'fr')).toBe(false);
  });

  it('never for a text without letters', () => {
    expect(mayNeedTranslation('123 😀', 'en')).toBe(false);
  });
});
