/**
 * The few labels the app needs that the SDK's catalogues do not carry (yet), in the ten
 * languages. Everything else comes from the SDK's texts.
 * @module
 */
import type { Language } from '@kefu-im/sdk';

/** The app's own text keys. */
export type AppTextKey = 'more' | 'messages' | 'openApp' | 'language';

const TEXTS: Readonly<Record<AppTextKey, Readonly<Record<Language, string>>>> = {
  more: { zh: '更多', 'zh-Hant': '更多', en: 'More', de: 'Mehr', es: 'Más', fr: 'Plus', ja: 'その他', ko: '더보기', pt: 'Mais', vi: 'Thêm' },
  openApp: { zh: '在App中打开', 'zh-Hant': '在App中開啟', en: 'Open in app', de: 'In der App öffnen', es: 'Abrir en la app', fr: "Ouvrir dans l'app", ja: 'アプリで開く', ko: '앱에서 열기', pt: 'Abrir no app', vi: 'Mở trong ứng dụng' },
  language: { zh: '语言', 'zh-Hant': '語言', en: 'Language', de: 'Sprache', es: 'Idioma', fr: 'Langue', ja: '言語', ko: '언어', pt: 'Idioma', vi: 'Ngôn ngữ' },
  messages: { zh: '消息', 'zh-Hant': '訊息', en: 'Messages', de: 'Nachrichten', es: 'Mensajes', fr: 'Messages', ja: 'メッセージ', ko: '메시지', pt: 'Mensagens', vi: 'Tin nhắn' },
};

/** Each language's name in that language (for a language picker). */
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

/**
 * An app text in a language (zh when the language has none).
 * @param language - the interface language
 * @param key - the text key
 */
export function appText(language: string, key: AppTextKey): string {
  const table = TEXTS[key];
  return (table as Record<string, string | undefined>)[language] ?? table.zh;
}
