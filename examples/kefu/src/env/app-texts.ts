/**
 * The few labels the app needs that the SDK's catalogues do not carry (yet), in the ten
 * languages. Everything else comes from the SDK's texts.
 * @module
 */
import type { Language } from '@kefu-im/sdk';

/** The app's own text keys. */
export type AppTextKey = 'more' | 'messages' | 'openApp' | 'language' | 'reconnectNow' | 'nextAttemptIn' | 'sendsWhenBack';

const TEXTS: Readonly<Record<AppTextKey, Readonly<Record<Language, string>>>> = {
  more: { zh: '更多', 'zh-Hant': '更多', en: 'More', de: 'Mehr', es: 'Más', fr: 'Plus', ja: 'その他', ko: '더보기', pt: 'Mais', vi: 'Thêm' },
  openApp: { zh: '在App中打开', 'zh-Hant': '在App中開啟', en: 'Open in app', de: 'In der App öffnen', es: 'Abrir en la app', fr: "Ouvrir dans l'app", ja: 'アプリで開く', ko: '앱에서 열기', pt: 'Abrir no app', vi: 'Mở trong ứng dụng' },
  language: { zh: '语言', 'zh-Hant': '語言', en: 'Language', de: 'Sprache', es: 'Idioma', fr: 'Langue', ja: '言語', ko: '언어', pt: 'Idioma', vi: 'Ngôn ngữ' },
  reconnectNow: { zh: '立即重连', 'zh-Hant': '立即重新連線', en: 'Reconnect now', de: 'Jetzt neu verbinden', es: 'Reconectar ahora', fr: 'Se reconnecter', ja: '今すぐ再接続', ko: '지금 다시 연결', pt: 'Reconectar agora', vi: 'Kết nối lại ngay' },
  nextAttemptIn: { zh: '{seconds} 秒后重试', 'zh-Hant': '{seconds} 秒後重試', en: 'next try in {seconds} s', de: 'nächster Versuch in {seconds} s', es: 'nuevo intento en {seconds} s', fr: 'nouvel essai dans {seconds} s', ja: '{seconds} 秒後に再試行', ko: '{seconds}초 후 다시 시도', pt: 'nova tentativa em {seconds} s', vi: 'thử lại sau {seconds} giây' },
  sendsWhenBack: {
    zh: '您输入的消息会保留，连接恢复后自动发送',
    'zh-Hant': '您輸入的訊息會保留，連線恢復後自動傳送',
    en: 'What you write is kept and sent when the connection is back',
    de: 'Was Sie schreiben, bleibt erhalten und wird gesendet, sobald die Verbindung zurück ist',
    es: 'Lo que escriba se guarda y se envía cuando vuelva la conexión',
    fr: 'Vos messages sont conservés et envoyés dès le retour de la connexion',
    ja: '入力したメッセージは保持され、接続が戻ると自動で送信されます',
    ko: '작성한 메시지는 보관되며 연결이 복구되면 자동으로 전송됩니다',
    pt: 'O que você escrever fica guardado e é enviado quando a conexão voltar',
    vi: 'Tin nhắn bạn viết được giữ lại và tự gửi khi có kết nối',
  },
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
