/**
 * When the translate action can help: a received text written in another language than the
 * interface's. The language of a short chat text is guessed from its script (Han, kana, Hangul,
 * Latin); among the Latin-script languages, a text of plain ASCII letters is taken as English.
 * @module
 */

/** The writing system a text is mostly in. */
export type Script = 'han' | 'kana' | 'hangul' | 'latin' | 'none';

/**
 * The dominant script of a text (letters only; digits, punctuation and emoji do not count).
 * @param text - the text
 */
export function dominantScript(text: string): Script {
  let han = 0;
  let kana = 0;
  let hangul = 0;
  let latin = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff)) kana += 1;
    else if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf)) han += 1;
    else if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff)) hangul += 1;
    else if (/\p{Script=Latin}/u.test(ch)) latin += 1;
  }
  // Japanese mixes kana with Han: any kana makes it Japanese.
  if (kana > 0 && kana + han >= latin && kana + han >= hangul) return 'kana';
  const best = Math.max(han, hangul, latin);
  if (best === 0) return 'none';
  if (best === han) return 'han';
  if (best === hangul) return 'hangul';
  return 'latin';
}

/**
 * Whether translating `text` into the interface language can help.
 * @param text - the received text
 * @param language - the interface language (`zh`, `en`, ...)
 */
export function mayNeedTranslation(text: string, language: string): boolean {
  const script = dominantScript(text);
  if (script === 'none') return false;
  if (language === 'zh' || language === 'zh-Hant') return script !== 'han';
  if (language === 'ja') return script !== 'kana';
  if (language === 'ko') return script !== 'hangul';
  if (script !== 'latin') return true;
  // Latin script on both sides: plain ASCII letters read as English.
  const ascii = !/[^\x00-\x7f]/.test(text);
  return language === 'en' ? !ascii : ascii;
}

/** The locale a text is translated into for an interface language. */
export function translateTarget(language: string): string {
  if (language === 'zh') return 'zh-CN';
  if (language === 'zh-Hant') return 'zh-TW';
  return language || 'en-US';
}
