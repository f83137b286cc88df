/**
 * The few labels the app needs that the SDK's catalogues do not carry (yet), in the ten
 * languages. Everything else comes from the SDK's texts.
 * @module
 */
import { interpolate, type Language } from '@kefu-im/sdk';

/** The app's own text keys. */
export type AppTextKey =
  | 'more'
  | 'messages'
  | 'openApp'
  | 'language'
  // the app's status page, FAQ, dialogs, composer and deposit card (spec rows and accessibility)
  | 'platformDisabled'
  | 'faqTitle'
  | 'fileTypeRefused'
  | 'endConversationConfirm'
  | 'newConversationHint'
  | 'you'
  | 'depositStatusSuccess'
  | 'depositStatusPending'
  | 'depositStatusFailed'
  | 'openAppFailed'
  | 'moreSuggestions'
  | 'leaveMessageHintServing'
  | 'cannotOpenFaq'
  // the connection banner (issue 10)
  | 'reconnectNow'
  | 'nextAttemptIn'
  | 'sendsWhenBack'
  // the agent desk (issue 11)
  | 'sessionExpired';

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
  platformDisabled: { zh: '该平台的在线客服暂未开放', 'zh-Hant': '該平台的線上客服暫未開放', en: 'Customer service is not available on this platform', de: 'Der Kundenservice ist auf dieser Plattform nicht verfügbar', es: 'El servicio de atención no está disponible en esta plataforma', fr: "Le service client n'est pas disponible sur cette plateforme", ja: 'このプラットフォームではカスタマーサービスをご利用いただけません', ko: '이 플랫폼에서는 고객 상담을 이용할 수 없습니다', pt: 'O atendimento não está disponível nesta plataforma', vi: 'Dịch vụ hỗ trợ chưa được mở trên nền tảng này' },
  faqTitle: { zh: '常见问题', 'zh-Hant': '常見問題', en: 'Frequently asked questions', de: 'Häufige Fragen', es: 'Preguntas frecuentes', fr: 'Questions fréquentes', ja: 'よくある質問', ko: '자주 묻는 질문', pt: 'Perguntas frequentes', vi: 'Câu hỏi thường gặp' },
  fileTypeRefused: { zh: '不支持此文件类型：{name}', 'zh-Hant': '不支援此檔案類型：{name}', en: 'This file type is not supported: {name}', de: 'Dieser Dateityp wird nicht unterstützt: {name}', es: 'Este tipo de archivo no es compatible: {name}', fr: "Ce type de fichier n'est pas pris en charge : {name}", ja: 'このファイル形式には対応していません：{name}', ko: '지원하지 않는 파일 형식입니다: {name}', pt: 'Este tipo de arquivo não é suportado: {name}', vi: 'Không hỗ trợ loại tệp này: {name}' },
  endConversationConfirm: { zh: '确定要结束本次会话吗？', 'zh-Hant': '確定要結束本次會話嗎？', en: 'End this conversation?', de: 'Dieses Gespräch beenden?', es: '¿Finalizar esta conversación?', fr: 'Terminer cette conversation ?', ja: 'この会話を終了しますか？', ko: '이 대화를 종료할까요?', pt: 'Encerrar esta conversa?', vi: 'Kết thúc cuộc trò chuyện này?' },
  newConversationHint: { zh: '发送新消息将开始新的会话', 'zh-Hant': '發送新訊息將開始新的會話', en: 'A new message starts a new conversation', de: 'Eine neue Nachricht beginnt ein neues Gespräch', es: 'Un mensaje nuevo inicia una nueva conversación', fr: 'Un nouveau message démarre une nouvelle conversation', ja: '新しいメッセージを送ると新しい会話が始まります', ko: '새 메시지를 보내면 새 대화가 시작됩니다', pt: 'Uma nova mensagem inicia uma nova conversa', vi: 'Tin nhắn mới sẽ bắt đầu cuộc trò chuyện mới' },
  you: { zh: '我', 'zh-Hant': '我', en: 'You', de: 'Sie', es: 'Tú', fr: 'Vous', ja: 'あなた', ko: '나', pt: 'Você', vi: 'Bạn' },
  depositStatusSuccess: { zh: '成功', 'zh-Hant': '成功', en: 'Successful', de: 'Erfolgreich', es: 'Completado', fr: 'Réussi', ja: '成功', ko: '성공', pt: 'Concluído', vi: 'Thành công' },
  depositStatusPending: { zh: '处理中', 'zh-Hant': '處理中', en: 'Processing', de: 'In Bearbeitung', es: 'En proceso', fr: 'En cours', ja: '処理中', ko: '처리 중', pt: 'Em processamento', vi: 'Đang xử lý' },
  depositStatusFailed: { zh: '失败', 'zh-Hant': '失敗', en: 'Failed', de: 'Fehlgeschlagen', es: 'Fallido', fr: 'Échoué', ja: '失敗', ko: '실패', pt: 'Falhou', vi: 'Thất bại' },
  openAppFailed: { zh: '未能打开App，请确认已安装', 'zh-Hant': '未能開啟App，請確認已安裝', en: 'The app did not open. Please check that it is installed', de: 'Die App wurde nicht geöffnet. Bitte prüfen Sie, ob sie installiert ist', es: 'La app no se abrió. Comprueba que esté instalada', fr: "L'app ne s'est pas ouverte. Vérifiez qu'elle est installée", ja: 'アプリを開けませんでした。インストールされているかご確認ください', ko: '앱이 열리지 않았습니다. 설치되어 있는지 확인하세요', pt: 'O app não abriu. Verifique se está instalado', vi: 'Không mở được ứng dụng. Vui lòng kiểm tra đã cài đặt chưa' },
  moreSuggestions: { zh: '更多问题', 'zh-Hant': '更多問題', en: 'More questions', de: 'Weitere Fragen', es: 'Más preguntas', fr: 'Plus de questions', ja: 'その他の質問', ko: '더 많은 질문', pt: 'Mais perguntas', vi: 'Thêm câu hỏi' },
  leaveMessageHintServing: { zh: '请留下您的联系方式和留言，我们会尽快回复您', 'zh-Hant': '請留下您的聯絡方式和留言，我們會盡快回覆您', en: 'Leave your contact details and a message, and we will reply as soon as possible', de: 'Hinterlassen Sie Ihre Kontaktdaten und eine Nachricht, wir antworten so bald wie möglich', es: 'Deje sus datos de contacto y un mensaje, y le responderemos lo antes posible', fr: 'Laissez vos coordonnées et un message, nous vous répondrons dès que possible', ja: '連絡先とメッセージを残してください。できるだけ早くご返信します', ko: '연락처와 메시지를 남겨 주시면 최대한 빨리 답변드리겠습니다', pt: 'Deixe seu contato e uma mensagem e responderemos o mais rápido possível', vi: 'Hãy để lại thông tin liên hệ và lời nhắn, chúng tôi sẽ trả lời sớm nhất có thể' },
  sessionExpired: { zh: '登录已失效，请重新登录', 'zh-Hant': '登入已失效，請重新登入', en: 'Your session has ended. Please log in again', de: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an', es: 'Su sesión ha finalizado. Inicie sesión de nuevo', fr: 'Votre session a expiré. Veuillez vous reconnecter', ja: 'セッションが終了しました。もう一度ログインしてください', ko: '세션이 만료되었습니다. 다시 로그인하세요', pt: 'Sua sessão terminou. Entre novamente', vi: 'Phiên đăng nhập đã hết hạn. Vui lòng đăng nhập lại' },
  cannotOpenFaq: { zh: '常见问题加载失败', 'zh-Hant': '常見問題載入失敗', en: 'The questions could not be loaded', de: 'Die Fragen konnten nicht geladen werden', es: 'No se pudieron cargar las preguntas', fr: "Les questions n'ont pas pu être chargées", ja: '質問を読み込めませんでした', ko: '질문을 불러오지 못했습니다', pt: 'Não foi possível carregar as perguntas', vi: 'Không tải được câu hỏi' },
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
 * @param params - `{name}` interpolation values
 */
export function appText(language: string, key: AppTextKey, params?: Record<string, string | number>): string {
  const table = TEXTS[key];
  return interpolate((table as Record<string, string | undefined>)[language] ?? table.zh, params);
}
