/**
 * The desk's own texts for canned replies (suggestions and their management), past conversations,
 * the preview of a queued visitor, the context panel, confirmations and empty lists, in every app
 * language (the desk loads them with itself; visitors' pages never do).
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
  | 'lastRating'
  | 'preview'
  | 'previewOf'
  | 'previewHeading'
  | 'previewNote'
  | 'previewEmpty'
  | 'previewGone'
  | 'previewFailed'
  | 'reload'
  | 'close'
  | 'merchantId'
  | 'show'
  | 'cannedEmpty'
  | 'cannedNew'
  | 'cannedEditing'
  | 'edit'
  | 'remove'
  | 'removeConfirm'
  | 'title'
  | 'text'
  | 'shortcut'
  | 'shortcutHint'
  | 'save'
  | 'add'
  | 'saved'
  | 'removed'
  | 'problemTitle'
  | 'problemText'
  | 'problemShortcut'
  | 'problemShortcutTaken'
  | 'cannedFailed'
  | 'name'
  | 'platform'
  | 'entryParams'
  | 'arrivedAt'
  | 'logoutEverywhere'
  | 'loggedOutElsewhere'
  | 'transferredConversations'
  | 'visitorDefault';

type DeskTable = Readonly<Record<DeskTextKey, string>>;

const TEXTS: Readonly<Record<Language, DeskTable>> = {
  zh: {
    cannedReplies: '快捷回复', pastConversations: '历史会话', searchText: '搜索消息', searchVisitor: '访客', search: '搜索', previousPage: '上一页', nextPage: '下一页', noPast: '没有已结束的会话', readOnly: '只读', back: '返回', noConversation: '暂无进行中的会话', confirm: '确定', cancel: '取消', endedAt: '结束于 {time}', wrongCredentials: '账号或密码错误', visitorContext: '访客信息', merchant: '商户', firstSeen: '首次访问', pastCount: '历史会话数', lastRating: '上次评价',
    preview: '预览', previewOf: '预览 {name}', previewHeading: '排队访客：{name}', previewNote: '访客在接入前写下的内容（只读）', previewEmpty: '该访客还没有写任何内容', previewGone: '该访客已不在排队中', previewFailed: '无法读取该访客写的内容', reload: '刷新', close: '关闭',
    merchantId: '商户号', show: '显示', cannedEmpty: '该商户还没有快捷回复', cannedNew: '新建快捷回复', cannedEditing: '编辑 /{shortcut}', edit: '编辑', remove: '删除', removeConfirm: '删除快捷回复 /{shortcut}？', title: '标题', text: '内容', shortcut: '快捷指令', shortcutHint: '在输入框中键入 / 加快捷指令即可使用', save: '保存', add: '添加', saved: '已保存 /{shortcut}', removed: '已删除 /{shortcut}', problemTitle: '标题须为 1-100 个字符', problemText: '内容须为 1-2000 个字符', problemShortcut: '快捷指令须为 1-32 个字母、数字、- 或 _', problemShortcutTaken: '快捷指令 /{shortcut} 已被使用', cannedFailed: '未保存：{message}',
    name: '名称', platform: '平台', entryParams: '进入参数', arrivedAt: '到达于 {time}', logoutEverywhere: '在所有设备上退出', loggedOutElsewhere: '你已退出登录：该账号在另一个工作台选择了“在所有设备上退出”', transferredConversations: '已转接的会话',
    visitorDefault: '访客{id}',
  },
  'zh-Hant': {
    cannedReplies: '快捷回覆', pastConversations: '歷史會話', searchText: '搜尋訊息', searchVisitor: '訪客', search: '搜尋', previousPage: '上一頁', nextPage: '下一頁', noPast: '沒有已結束的會話', readOnly: '唯讀', back: '返回', noConversation: '暫無進行中的會話', confirm: '確定', cancel: '取消', endedAt: '結束於 {time}', wrongCredentials: '帳號或密碼錯誤', visitorContext: '訪客資訊', merchant: '商戶', firstSeen: '首次造訪', pastCount: '歷史會話數', lastRating: '上次評價',
    preview: '預覽', previewOf: '預覽 {name}', previewHeading: '排隊訪客：{name}', previewNote: '訪客在接入前寫下的內容（唯讀）', previewEmpty: '該訪客還沒有寫任何內容', previewGone: '該訪客已不在排隊中', previewFailed: '無法讀取該訪客寫的內容', reload: '重新整理', close: '關閉',
    merchantId: '商戶號', show: '顯示', cannedEmpty: '該商戶還沒有快捷回覆', cannedNew: '新增快捷回覆', cannedEditing: '編輯 /{shortcut}', edit: '編輯', remove: '刪除', removeConfirm: '刪除快捷回覆 /{shortcut}？', title: '標題', text: '內容', shortcut: '快捷指令', shortcutHint: '在輸入框中鍵入 / 加快捷指令即可使用', save: '儲存', add: '新增', saved: '已儲存 /{shortcut}', removed: '已刪除 /{shortcut}', problemTitle: '標題須為 1-100 個字元', problemText: '內容須為 1-2000 個字元', problemShortcut: '快捷指令須為 1-32 個字母、數字、- 或 _', problemShortcutTaken: '快捷指令 /{shortcut} 已被使用', cannedFailed: '未儲存：{message}',
    name: '名稱', platform: '平台', entryParams: '進入參數', arrivedAt: '到達於 {time}', logoutEverywhere: '在所有裝置上登出', loggedOutElsewhere: '你已登出：該帳號在另一個工作台選擇了「在所有裝置上登出」', transferredConversations: '已轉接的會話',
    visitorDefault: '訪客{id}',
  },
  en: {
    cannedReplies: 'Canned replies', pastConversations: 'Past conversations', searchText: 'Search messages', searchVisitor: 'Visitor', search: 'Search', previousPage: 'Previous page', nextPage: 'Next page', noPast: 'No ended conversations', readOnly: 'Read-only', back: 'Back', noConversation: 'No open conversations', confirm: 'Confirm', cancel: 'Cancel', endedAt: 'Ended {time}', wrongCredentials: 'Wrong account or password', visitorContext: 'Visitor details', merchant: 'Merchant', firstSeen: 'First seen', pastCount: 'Past conversations', lastRating: 'Last rating',
    preview: 'Preview', previewOf: 'Preview {name}', previewHeading: 'Waiting: {name}', previewNote: 'What the visitor wrote before you accept (read-only)', previewEmpty: 'The visitor has not written anything yet', previewGone: 'This visitor is no longer waiting', previewFailed: 'Could not load what the visitor wrote', reload: 'Reload', close: 'Close',
    merchantId: 'Merchant id', show: 'Show', cannedEmpty: 'This merchant has no canned replies yet', cannedNew: 'New canned reply', cannedEditing: 'Edit /{shortcut}', edit: 'Edit', remove: 'Remove', removeConfirm: 'Remove the canned reply /{shortcut}?', title: 'Title', text: 'Text', shortcut: 'Shortcut', shortcutHint: 'Type / and the shortcut in the composer to use it', save: 'Save', add: 'Add', saved: 'Saved /{shortcut}', removed: 'Removed /{shortcut}', problemTitle: 'The title must be 1-100 characters', problemText: 'The text must be 1-2000 characters', problemShortcut: 'The shortcut must be 1-32 letters, digits, - or _', problemShortcutTaken: 'The shortcut /{shortcut} is taken', cannedFailed: 'Not saved: {message}',
    name: 'Name', platform: 'Platform', entryParams: 'Arrived with', arrivedAt: 'Arrived {time}', logoutEverywhere: 'Log out everywhere', loggedOutElsewhere: 'You were logged out: this account chose “Log out everywhere” on another desk', transferredConversations: 'Transferred conversations',
    visitorDefault: 'Visitor {id}',
  },
  de: {
    cannedReplies: 'Textbausteine', pastConversations: 'Frühere Gespräche', searchText: 'Nachrichten suchen', searchVisitor: 'Besucher', search: 'Suchen', previousPage: 'Vorherige Seite', nextPage: 'Nächste Seite', noPast: 'Keine beendeten Gespräche', readOnly: 'Nur lesen', back: 'Zurück', noConversation: 'Keine offenen Gespräche', confirm: 'Bestätigen', cancel: 'Abbrechen', endedAt: 'Beendet {time}', wrongCredentials: 'Falsches Konto oder Passwort', visitorContext: 'Besucherdetails', merchant: 'Händler', firstSeen: 'Zuerst gesehen', pastCount: 'Frühere Gespräche', lastRating: 'Letzte Bewertung',
    preview: 'Vorschau', previewOf: 'Vorschau: {name}', previewHeading: 'Wartend: {name}', previewNote: 'Was der Besucher vor der Annahme geschrieben hat (nur lesen)', previewEmpty: 'Der Besucher hat noch nichts geschrieben', previewGone: 'Dieser Besucher wartet nicht mehr', previewFailed: 'Das Geschriebene konnte nicht geladen werden', reload: 'Neu laden', close: 'Schließen',
    merchantId: 'Händler-ID', show: 'Anzeigen', cannedEmpty: 'Dieser Händler hat noch keine Textbausteine', cannedNew: 'Neuer Textbaustein', cannedEditing: '/{shortcut} bearbeiten', edit: 'Bearbeiten', remove: 'Entfernen', removeConfirm: 'Textbaustein /{shortcut} entfernen?', title: 'Titel', text: 'Text', shortcut: 'Kürzel', shortcutHint: 'Im Eingabefeld / und das Kürzel tippen, um ihn zu verwenden', save: 'Speichern', add: 'Hinzufügen', saved: '/{shortcut} gespeichert', removed: '/{shortcut} entfernt', problemTitle: 'Der Titel muss 1-100 Zeichen lang sein', problemText: 'Der Text muss 1-2000 Zeichen lang sein', problemShortcut: 'Das Kürzel muss aus 1-32 Buchstaben, Ziffern, - oder _ bestehen', problemShortcutTaken: 'Das Kürzel /{shortcut} ist vergeben', cannedFailed: 'Nicht gespeichert: {message}',
    name: 'Name', platform: 'Plattform', entryParams: 'Einstiegsparameter', arrivedAt: 'Angekommen {time}', logoutEverywhere: 'Überall abmelden', loggedOutElsewhere: 'Sie wurden abgemeldet: Dieses Konto hat an einem anderen Arbeitsplatz „Überall abmelden“ gewählt', transferredConversations: 'Weitergeleitete Gespräche',
    visitorDefault: 'Besucher {id}',
  },
  es: {
    cannedReplies: 'Respuestas rápidas', pastConversations: 'Conversaciones anteriores', searchText: 'Buscar mensajes', searchVisitor: 'Visitante', search: 'Buscar', previousPage: 'Página anterior', nextPage: 'Página siguiente', noPast: 'No hay conversaciones terminadas', readOnly: 'Solo lectura', back: 'Volver', noConversation: 'No hay conversaciones abiertas', confirm: 'Confirmar', cancel: 'Cancelar', endedAt: 'Terminada {time}', wrongCredentials: 'Cuenta o contraseña incorrecta', visitorContext: 'Datos del visitante', merchant: 'Comercio', firstSeen: 'Primera visita', pastCount: 'Conversaciones anteriores', lastRating: 'Última valoración',
    preview: 'Vista previa', previewOf: 'Vista previa de {name}', previewHeading: 'En espera: {name}', previewNote: 'Lo que escribió el visitante antes de aceptar (solo lectura)', previewEmpty: 'El visitante aún no ha escrito nada', previewGone: 'Este visitante ya no está esperando', previewFailed: 'No se pudo cargar lo que escribió el visitante', reload: 'Recargar', close: 'Cerrar',
    merchantId: 'ID de comercio', show: 'Mostrar', cannedEmpty: 'Este comercio aún no tiene respuestas rápidas', cannedNew: 'Nueva respuesta rápida', cannedEditing: 'Editar /{shortcut}', edit: 'Editar', remove: 'Eliminar', removeConfirm: '¿Eliminar la respuesta rápida /{shortcut}?', title: 'Título', text: 'Texto', shortcut: 'Atajo', shortcutHint: 'Escribe / y el atajo en el cuadro de texto para usarla', save: 'Guardar', add: 'Añadir', saved: '/{shortcut} guardada', removed: '/{shortcut} eliminada', problemTitle: 'El título debe tener 1-100 caracteres', problemText: 'El texto debe tener 1-2000 caracteres', problemShortcut: 'El atajo debe tener 1-32 letras, dígitos, - o _', problemShortcutTaken: 'El atajo /{shortcut} ya está en uso', cannedFailed: 'No se guardó: {message}',
    name: 'Nombre', platform: 'Plataforma', entryParams: 'Parámetros de entrada', arrivedAt: 'Llegó {time}', logoutEverywhere: 'Cerrar sesión en todas partes', loggedOutElsewhere: 'Se cerró tu sesión: esta cuenta eligió «Cerrar sesión en todas partes» en otro escritorio', transferredConversations: 'Conversaciones transferidas',
    visitorDefault: 'Visitante {id}',
  },
  fr: {
    cannedReplies: 'Réponses types', pastConversations: 'Conversations passées', searchText: 'Rechercher des messages', searchVisitor: 'Visiteur', search: 'Rechercher', previousPage: 'Page précédente', nextPage: 'Page suivante', noPast: 'Aucune conversation terminée', readOnly: 'Lecture seule', back: 'Retour', noConversation: 'Aucune conversation ouverte', confirm: 'Confirmer', cancel: 'Annuler', endedAt: 'Terminée {time}', wrongCredentials: 'Compte ou mot de passe incorrect', visitorContext: 'Détails du visiteur', merchant: 'Marchand', firstSeen: 'Première visite', pastCount: 'Conversations passées', lastRating: 'Dernière note',
    preview: 'Aperçu', previewOf: 'Aperçu de {name}', previewHeading: 'En attente : {name}', previewNote: 'Ce que le visiteur a écrit avant votre prise en charge (lecture seule)', previewEmpty: 'Le visiteur n\'a encore rien écrit', previewGone: 'Ce visiteur n\'attend plus', previewFailed: 'Impossible de charger ce que le visiteur a écrit', reload: 'Recharger', close: 'Fermer',
    merchantId: 'ID marchand', show: 'Afficher', cannedEmpty: 'Ce marchand n\'a pas encore de réponses types', cannedNew: 'Nouvelle réponse type', cannedEditing: 'Modifier /{shortcut}', edit: 'Modifier', remove: 'Supprimer', removeConfirm: 'Supprimer la réponse type /{shortcut} ?', title: 'Titre', text: 'Texte', shortcut: 'Raccourci', shortcutHint: 'Tapez / et le raccourci dans la zone de saisie pour l\'utiliser', save: 'Enregistrer', add: 'Ajouter', saved: '/{shortcut} enregistrée', removed: '/{shortcut} supprimée', problemTitle: 'Le titre doit faire 1 à 100 caractères', problemText: 'Le texte doit faire 1 à 2000 caractères', problemShortcut: 'Le raccourci doit comporter 1 à 32 lettres, chiffres, - ou _', problemShortcutTaken: 'Le raccourci /{shortcut} est déjà pris', cannedFailed: 'Non enregistré : {message}',
    name: 'Nom', platform: 'Plateforme', entryParams: 'Paramètres d\'arrivée', arrivedAt: 'Arrivé {time}', logoutEverywhere: 'Se déconnecter partout', loggedOutElsewhere: 'Vous avez été déconnecté : ce compte a choisi « Se déconnecter partout » sur un autre poste', transferredConversations: 'Conversations transférées',
    visitorDefault: 'Visiteur {id}',
  },
  ja: {
    cannedReplies: '定型文', pastConversations: '過去の会話', searchText: 'メッセージを検索', searchVisitor: '訪問者', search: '検索', previousPage: '前のページ', nextPage: '次のページ', noPast: '終了した会話はありません', readOnly: '閲覧のみ', back: '戻る', noConversation: '進行中の会話はありません', confirm: '確定', cancel: 'キャンセル', endedAt: '終了 {time}', wrongCredentials: 'アカウントまたはパスワードが違います', visitorContext: '訪問者情報', merchant: '加盟店', firstSeen: '初回訪問', pastCount: '過去の会話数', lastRating: '前回の評価',
    preview: 'プレビュー', previewOf: '{name} をプレビュー', previewHeading: '待機中: {name}', previewNote: '受け付け前に訪問者が書いた内容（閲覧のみ）', previewEmpty: '訪問者はまだ何も書いていません', previewGone: 'この訪問者はもう待機していません', previewFailed: '訪問者の書いた内容を読み込めませんでした', reload: '再読み込み', close: '閉じる',
    merchantId: '加盟店ID', show: '表示', cannedEmpty: 'この加盟店には定型文がまだありません', cannedNew: '新しい定型文', cannedEditing: '/{shortcut} を編集', edit: '編集', remove: '削除', removeConfirm: '定型文 /{shortcut} を削除しますか？', title: 'タイトル', text: '本文', shortcut: 'ショートカット', shortcutHint: '入力欄で / とショートカットを入力すると使えます', save: '保存', add: '追加', saved: '/{shortcut} を保存しました', removed: '/{shortcut} を削除しました', problemTitle: 'タイトルは1〜100文字です', problemText: '本文は1〜2000文字です', problemShortcut: 'ショートカットは1〜32文字の文字、数字、- または _ です', problemShortcutTaken: 'ショートカット /{shortcut} は使用中です', cannedFailed: '保存できませんでした: {message}',
    name: '名前', platform: 'プラットフォーム', entryParams: '流入パラメータ', arrivedAt: '{time} に到着', logoutEverywhere: 'すべての端末でログアウト', loggedOutElsewhere: 'ログアウトされました: このアカウントは別のデスクで「すべての端末でログアウト」を選びました', transferredConversations: '転送した会話',
    visitorDefault: '訪問者 {id}',
  },
  ko: {
    cannedReplies: '빠른 답변', pastConversations: '지난 대화', searchText: '메시지 검색', searchVisitor: '방문자', search: '검색', previousPage: '이전 페이지', nextPage: '다음 페이지', noPast: '종료된 대화가 없습니다', readOnly: '읽기 전용', back: '뒤로', noConversation: '진행 중인 대화가 없습니다', confirm: '확인', cancel: '취소', endedAt: '종료 {time}', wrongCredentials: '계정 또는 비밀번호가 올바르지 않습니다', visitorContext: '방문자 정보', merchant: '가맹점', firstSeen: '첫 방문', pastCount: '지난 대화 수', lastRating: '최근 평가',
    preview: '미리 보기', previewOf: '{name} 미리 보기', previewHeading: '대기 중: {name}', previewNote: '수락 전에 방문자가 작성한 내용(읽기 전용)', previewEmpty: '방문자가 아직 아무것도 작성하지 않았습니다', previewGone: '이 방문자는 더 이상 대기 중이 아닙니다', previewFailed: '방문자가 작성한 내용을 불러오지 못했습니다', reload: '새로 고침', close: '닫기',
    merchantId: '가맹점 ID', show: '보기', cannedEmpty: '이 가맹점에는 아직 빠른 답변이 없습니다', cannedNew: '새 빠른 답변', cannedEditing: '/{shortcut} 편집', edit: '편집', remove: '삭제', removeConfirm: '빠른 답변 /{shortcut}을(를) 삭제할까요?', title: '제목', text: '내용', shortcut: '단축어', shortcutHint: '입력창에 /와 단축어를 입력하면 사용할 수 있습니다', save: '저장', add: '추가', saved: '/{shortcut} 저장됨', removed: '/{shortcut} 삭제됨', problemTitle: '제목은 1-100자여야 합니다', problemText: '내용은 1-2000자여야 합니다', problemShortcut: '단축어는 1-32자의 문자, 숫자, - 또는 _ 여야 합니다', problemShortcutTaken: '단축어 /{shortcut}은(는) 이미 사용 중입니다', cannedFailed: '저장하지 못했습니다: {message}',
    name: '이름', platform: '플랫폼', entryParams: '유입 파라미터', arrivedAt: '{time} 도착', logoutEverywhere: '모든 기기에서 로그아웃', loggedOutElsewhere: '로그아웃되었습니다: 이 계정이 다른 데스크에서 “모든 기기에서 로그아웃”을 선택했습니다', transferredConversations: '전환한 대화',
    visitorDefault: '방문자 {id}',
  },
  pt: {
    cannedReplies: 'Respostas rápidas', pastConversations: 'Conversas anteriores', searchText: 'Pesquisar mensagens', searchVisitor: 'Visitante', search: 'Pesquisar', previousPage: 'Página anterior', nextPage: 'Próxima página', noPast: 'Nenhuma conversa encerrada', readOnly: 'Somente leitura', back: 'Voltar', noConversation: 'Nenhuma conversa aberta', confirm: 'Confirmar', cancel: 'Cancelar', endedAt: 'Encerrada {time}', wrongCredentials: 'Conta ou senha incorreta', visitorContext: 'Dados do visitante', merchant: 'Loja', firstSeen: 'Primeira visita', pastCount: 'Conversas anteriores', lastRating: 'Última avaliação',
    preview: 'Pré-visualizar', previewOf: 'Pré-visualizar {name}', previewHeading: 'Aguardando: {name}', previewNote: 'O que o visitante escreveu antes de aceitar (somente leitura)', previewEmpty: 'O visitante ainda não escreveu nada', previewGone: 'Este visitante não está mais aguardando', previewFailed: 'Não foi possível carregar o que o visitante escreveu', reload: 'Recarregar', close: 'Fechar',
    merchantId: 'ID da loja', show: 'Mostrar', cannedEmpty: 'Esta loja ainda não tem respostas rápidas', cannedNew: 'Nova resposta rápida', cannedEditing: 'Editar /{shortcut}', edit: 'Editar', remove: 'Remover', removeConfirm: 'Remover a resposta rápida /{shortcut}?', title: 'Título', text: 'Texto', shortcut: 'Atalho', shortcutHint: 'Digite / e o atalho na caixa de texto para usar', save: 'Salvar', add: 'Adicionar', saved: '/{shortcut} salva', removed: '/{shortcut} removida', problemTitle: 'O título deve ter 1-100 caracteres', problemText: 'O texto deve ter 1-2000 caracteres', problemShortcut: 'O atalho deve ter 1-32 letras, dígitos, - ou _', problemShortcutTaken: 'O atalho /{shortcut} já está em uso', cannedFailed: 'Não salvo: {message}',
    name: 'Nome', platform: 'Plataforma', entryParams: 'Parâmetros de entrada', arrivedAt: 'Chegou {time}', logoutEverywhere: 'Sair em todos os lugares', loggedOutElsewhere: 'Sua sessão foi encerrada: esta conta escolheu “Sair em todos os lugares” em outra mesa', transferredConversations: 'Conversas transferidas',
    visitorDefault: 'Visitante {id}',
  },
  vi: {
    cannedReplies: 'Trả lời nhanh', pastConversations: 'Cuộc trò chuyện trước', searchText: 'Tìm tin nhắn', searchVisitor: 'Khách', search: 'Tìm', previousPage: 'Trang trước', nextPage: 'Trang sau', noPast: 'Không có cuộc trò chuyện đã kết thúc', readOnly: 'Chỉ đọc', back: 'Quay lại', noConversation: 'Không có cuộc trò chuyện đang mở', confirm: 'Xác nhận', cancel: 'Hủy', endedAt: 'Kết thúc {time}', wrongCredentials: 'Sai tài khoản hoặc mật khẩu', visitorContext: 'Thông tin khách', merchant: 'Cửa hàng', firstSeen: 'Lần đầu', pastCount: 'Cuộc trò chuyện trước', lastRating: 'Đánh giá gần nhất',
    preview: 'Xem trước', previewOf: 'Xem trước {name}', previewHeading: 'Đang chờ: {name}', previewNote: 'Nội dung khách đã viết trước khi bạn nhận (chỉ đọc)', previewEmpty: 'Khách chưa viết gì', previewGone: 'Khách này không còn chờ nữa', previewFailed: 'Không tải được nội dung khách đã viết', reload: 'Tải lại', close: 'Đóng',
    merchantId: 'Mã cửa hàng', show: 'Hiển thị', cannedEmpty: 'Cửa hàng này chưa có trả lời nhanh', cannedNew: 'Trả lời nhanh mới', cannedEditing: 'Sửa /{shortcut}', edit: 'Sửa', remove: 'Xóa', removeConfirm: 'Xóa trả lời nhanh /{shortcut}?', title: 'Tiêu đề', text: 'Nội dung', shortcut: 'Phím tắt', shortcutHint: 'Gõ / và phím tắt trong ô nhập để dùng', save: 'Lưu', add: 'Thêm', saved: 'Đã lưu /{shortcut}', removed: 'Đã xóa /{shortcut}', problemTitle: 'Tiêu đề phải dài 1-100 ký tự', problemText: 'Nội dung phải dài 1-2000 ký tự', problemShortcut: 'Phím tắt phải gồm 1-32 chữ, số, - hoặc _', problemShortcutTaken: 'Phím tắt /{shortcut} đã được dùng', cannedFailed: 'Chưa lưu: {message}',
    name: 'Tên', platform: 'Nền tảng', entryParams: 'Tham số truy cập', arrivedAt: 'Đến lúc {time}', logoutEverywhere: 'Đăng xuất khỏi mọi nơi', loggedOutElsewhere: 'Bạn đã bị đăng xuất: tài khoản này đã chọn “Đăng xuất khỏi mọi nơi” ở một bàn làm việc khác', transferredConversations: 'Cuộc trò chuyện đã chuyển',
    visitorDefault: 'Khách {id}',
  },
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

/**
 * A visitor's name as the desk shows it. The reference server names a visitor who gave no name
 * after its id, in the visitor's language (`defaultVisitorName` in its `chat/context.ts`:
 * "访客1a2b", "Visitor 1a2b"); the desk shows such a name in its own language. Any other name is the
 * visitor's own, shown as it is; an empty one becomes the default too.
 * @param name - the name the server gave
 * @param visitorId - the visitor's client id
 * @param language - the desk's language
 */
export function visitorLabel(name: string, visitorId: string, language: string): string {
  const short = visitorId.slice(0, 4);
  const serverDefault = name === '' || name === `访客${short}` || name === `Visitor ${short}`;
  return serverDefault && short !== '' ? deskText(language, 'visitorDefault', { id: short }) : name;
}
