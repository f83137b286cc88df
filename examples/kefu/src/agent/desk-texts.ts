/**
 * The desk's own texts for canned replies, past conversations, confirmations and empty lists, in
 * every app language (the desk loads them with itself; visitors' pages never do).
 * @module
 */
import { interpolate, normalizeLanguage, type Language } from '@kefu-im/sdk';

/** The desk text keys. */
export type DeskTextKey =
  | 'cannedReplies'
  | 'pastConversations'
  | 'searchText'
  | 'searchVisitor'
  | 'search'
  | 'previousPage'
  | 'nextPage'
  | 'noPast'
  | 'readOnly'
  | 'back'
  | 'noConversation'
  | 'confirm'
  | 'cancel'
  | 'endedAt'
  | 'wrongCredentials'
  | 'visitorContext'
  | 'merchant'
  | 'firstSeen'
  | 'pastCount'
  | 'lastRating';

type DeskTable = Readonly<Record<DeskTextKey, string>>;

const TEXTS: Readonly<Record<Language, DeskTable>> = {
  zh: { cannedReplies: '快捷回复', pastConversations: '历史会话', searchText: '搜索消息', searchVisitor: '访客', search: '搜索', previousPage: '上一页', nextPage: '下一页', noPast: '没有已结束的会话', readOnly: '只读', back: '返回', noConversation: '暂无进行中的会话', confirm: '确定', cancel: '取消', endedAt: '结束于 {time}', wrongCredentials: '账号或密码错误', visitorContext: '访客信息', merchant: '商户', firstSeen: '首次访问', pastCount: '历史会话数', lastRating: '上次评价' },
  'zh-Hant': { cannedReplies: '快捷回覆', pastConversations: '歷史會話', searchText: '搜尋訊息', searchVisitor: '訪客', search: '搜尋', previousPage: '上一頁', nextPage: '下一頁', noPast: '沒有已結束的會話', readOnly: '唯讀', back: '返回', noConversation: '暫無進行中的會話', confirm: '確定', cancel: '取消', endedAt: '結束於 {time}', wrongCredentials: '帳號或密碼錯誤', visitorContext: '訪客資訊', merchant: '商戶', firstSeen: '首次造訪', pastCount: '歷史會話數', lastRating: '上次評價' },
  en: { cannedReplies: 'Canned replies', pastConversations: 'Past conversations', searchText: 'Search messages', searchVisitor: 'Visitor', search: 'Search', previousPage: 'Previous page', nextPage: 'Next page', noPast: 'No ended conversations', readOnly: 'Read-only', back: 'Back', noConversation: 'No open conversations', confirm: 'Confirm', cancel: 'Cancel', endedAt: 'Ended {time}', wrongCredentials: 'Wrong account or password', visitorContext: 'Visitor', merchant: 'Merchant', firstSeen: 'First seen', pastCount: 'Past conversations', lastRating: 'Last rating' },
  de: { cannedReplies: 'Textbausteine', pastConversations: 'Frühere Gespräche', searchText: 'Nachrichten suchen', searchVisitor: 'Besucher', search: 'Suchen', previousPage: 'Vorherige Seite', nextPage: 'Nächste Seite', noPast: 'Keine beendeten Gespräche', readOnly: 'Nur lesen', back: 'Zurück', noConversation: 'Keine offenen Gespräche', confirm: 'Bestätigen', cancel: 'Abbrechen', endedAt: 'Beendet {time}', wrongCredentials: 'Falsches Konto oder Passwort', visitorContext: 'Besucher', merchant: 'Händler', firstSeen: 'Zuerst gesehen', pastCount: 'Frühere Gespräche', lastRating: 'Letzte Bewertung' },
  es: { cannedReplies: 'Respuestas rápidas', pastConversations: 'Conversaciones anteriores', searchText: 'Buscar mensajes', searchVisitor: 'Visitante', search: 'Buscar', previousPage: 'Página anterior', nextPage: 'Página siguiente', noPast: 'No hay conversaciones terminadas', readOnly: 'Solo lectura', back: 'Volver', noConversation: 'No hay conversaciones abiertas', confirm: 'Confirmar', cancel: 'Cancelar', endedAt: 'Terminada {time}', wrongCredentials: 'Cuenta o contraseña incorrecta', visitorContext: 'Visitante', merchant: 'Comercio', firstSeen: 'Primera visita', pastCount: 'Conversaciones anteriores', lastRating: 'Última valoración' },
  fr: { cannedReplies: 'Réponses types', pastConversations: 'Conversations passées', searchText: 'Rechercher des messages', searchVisitor: 'Visiteur', search: 'Rechercher', previousPage: 'Page précédente', nextPage: 'Page suivante', noPast: 'Aucune conversation terminée', readOnly: 'Lecture seule', back: 'Retour', noConversation: 'Aucune conversation ouverte', confirm: 'Confirmer', cancel: 'Annuler', endedAt: 'Terminée {time}', wrongCredentials: 'Compte ou mot de passe incorrect', visitorContext: 'Visiteur', merchant: 'Marchand', firstSeen: 'Première visite', pastCount: 'Conversations passées', lastRating: 'Dernière note' },
  ja: { cannedReplies: '定型文', pastConversations: '過去の会話', searchText: 'メッセージを検索', searchVisitor: '訪問者', search: '検索', previousPage: '前のページ', nextPage: '次のページ', noPast: '終了した会話はありません', readOnly: '閲覧のみ', back: '戻る', noConversation: '進行中の会話はありません', confirm: '確定', cancel: 'キャンセル', endedAt: '終了 {time}', wrongCredentials: 'アカウントまたはパスワードが違います', visitorContext: '訪問者情報', merchant: '加盟店', firstSeen: '初回訪問', pastCount: '過去の会話数', lastRating: '前回の評価' },
  ko: { cannedReplies: '빠른 답변', pastConversations: '지난 대화', searchText: '메시지 검색', searchVisitor: '방문자', search: '검색', previousPage: '이전 페이지', nextPage: '다음 페이지', noPast: '종료된 대화가 없습니다', readOnly: '읽기 전용', back: '뒤로', noConversation: '진행 중인 대화가 없습니다', confirm: '확인', cancel: '취소', endedAt: '종료 {time}', wrongCredentials: '계정 또는 비밀번호가 올바르지 않습니다', visitorContext: '방문자 정보', merchant: '가맹점', firstSeen: '첫 방문', pastCount: '지난 대화 수', lastRating: '최근 평가' },
  pt: { cannedReplies: 'Respostas rápidas', pastConversations: 'Conversas anteriores', searchText: 'Pesquisar mensagens', searchVisitor: 'Visitante', search: 'Pesquisar', previousPage: 'Página anterior', nextPage: 'Próxima página', noPast: 'Nenhuma conversa encerrada', readOnly: 'Somente leitura', back: 'Voltar', noConversation: 'Nenhuma conversa aberta', confirm: 'Confirmar', cancel: 'Cancelar', endedAt: 'Encerrada {time}', wrongCredentials: 'Conta ou senha incorreta', visitorContext: 'Visitante', merchant: 'Loja', firstSeen: 'Primeira visita', pastCount: 'Conversas anteriores', lastRating: 'Última avaliação' },
  vi: { cannedReplies: 'Trả lời nhanh', pastConversations: 'Cuộc trò chuyện trước', searchText: 'Tìm tin nhắn', searchVisitor: 'Khách', search: 'Tìm', previousPage: 'Trang trước', nextPage: 'Trang sau', noPast: 'Không có cuộc trò chuyện đã kết thúc', readOnly: 'Chỉ đọc', back: 'Quay lại', noConversation: 'Không có cuộc trò chuyện đang mở', confirm: 'Xác nhận', cancel: 'Hủy', endedAt: 'Kết thúc {time}', wrongCredentials: 'Sai tài khoản hoặc mật khẩu', visitorContext: 'Thông tin khách', merchant: 'Cửa hàng', firstSeen: 'Lần đầu', pastCount: 'Cuộc trò chuyện trước', lastRating: 'Đánh giá gần nhất' },
};

/**
 * A desk text in a language (zh for an unknown one).
 * @param language - the interface language
 * @param key - the text key
 * @param params - `{name}` interpolation values
 */
export function deskText(language: string, key: DeskTextKey, params?: Record<string, string | number>): string {
  return interpolate(TEXTS[normalizeLanguage(language) ?? 'zh'][key], params);
}
