/**
 * The few labels the app needs that the SDK's catalogues do not carry (yet). zh, the key
 * language, is bundled here; the nine other languages sit in `app-text-translations.ts`, one
 * chunk that {@link AppTextCatalogue.load} fetches before a language is shown (the app runtime
 * awaits it before switching languages, so that no view ever shows a language with zh labels).
 * Everything else comes from the SDK's texts.
 * @module
 */
import { interpolate, isLanguage, normalizeLanguage, type Language } from '@kefu-im/sdk';

/** The app's own text keys. */
export type AppTextKey =
  | 'more'
  | 'messages'
  | 'openApp'
  | 'language'
  // live signals: the desk's counts, alerts and notifications
  | 'deskTitle'
  | 'deskTitleCounts'
  | 'deskLogin'
  | 'unreadCount'
  | 'enableNotifications'
  | 'notificationsOn'
  | 'notificationsBlocked'
  | 'alertSound'
  | 'newVisitorWaiting'
  | 'newMessagesFrom'
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
  // also the connection banner's text for a refused identity token (4006 twice, protocol §3b)
  | 'sessionExpired'
  // the desk's ended conversations and the visitor's rating
  | 'deskVisitorEnded'
  | 'deskAgentEnded'
  | 'deskConversationEnded'
  | 'deskEndedConversations'
  | 'deskClose'
  | 'deskRating'
  | 'deskNotRated'
  // agent status and transfer
  | 'deskStatus'
  | 'deskAvailable'
  | 'deskAway'
  | 'deskLoad'
  | 'deskTransfer'
  | 'deskTransferTo'
  | 'deskTransferNote'
  | 'deskNoTransferTarget'
  | 'deskTransferredFrom'
  | 'deskTransferredTo'
  | 'deskTransferAtCapacity'
  | 'deskTransferAway'
  | 'deskTransferOffline'
  | 'deskTransferFailed'
  // typing and sneak peek (live signals)
  | 'agentTyping'
  | 'visitorTyping'
  | 'draftPreview'
  | 'sneakPeekNote'
  // availability: nobody can come, the queue's estimated wait (live signals)
  | 'unavailableClosed'
  | 'backAt'
  | 'unavailableNoAgent'
  | 'estimatedWait'
  | 'estimatedWaitShort'
  // privacy: the visitor's transcript download (issue 22)
  | 'downloadTranscript'
  | 'transcriptTitle'
  | 'transcriptExported'
  | 'transcriptEmpty'
  | 'transcriptDownloaded'
  | 'transcriptFailed'
  // issue 23: the robot's greeting in the interface language (text keys), the end, search
  | 'robotGreeting'
  | 'robotGreetingNoQuestions'
  | 'conversationEndedNext'
  | 'searchEarlier'
  | 'searchingEarlier';

/** Every app text of one language. */
export type AppTextTable = Readonly<Record<AppTextKey, string>>;

/** The languages whose app texts are loaded on demand (all but zh). */
export type TranslatedLanguage = Exclude<Language, 'zh'>;

/** The app texts of every language but zh. */
export type AppTextTranslations = Readonly<Record<TranslatedLanguage, AppTextTable>>;

/** The app texts in zh: always at hand, and the fallback of every other language. */
export const ZH_APP_TEXTS: AppTextTable = {
  more: '更多',
  openApp: '在App中打开',
  language: '语言',
  deskTitle: '客服工作台',
  deskTitleCounts: '({queued} 排队 · {unread} 未读) {title}',
  deskLogin: '客服工作台登录',
  unreadCount: '{count} 条未读',
  enableNotifications: '开启桌面通知',
  notificationsOn: '桌面通知已开启',
  notificationsBlocked: '浏览器已禁止通知',
  alertSound: '提示音',
  newVisitorWaiting: '新访客排队：{name}',
  newMessagesFrom: '{name} 发来新消息',
  reconnectNow: '立即重连',
  nextAttemptIn: '{seconds} 秒后重试',
  sendsWhenBack: '您输入的消息会保留，连接恢复后自动发送',
  messages: '消息',
  platformDisabled: '该平台的在线客服暂未开放',
  faqTitle: '常见问题',
  fileTypeRefused: '不支持此文件类型：{name}',
  endConversationConfirm: '确定要结束本次会话吗？',
  newConversationHint: '发送消息，开始新会话',
  you: '我',
  depositStatusSuccess: '成功',
  depositStatusPending: '处理中',
  depositStatusFailed: '失败',
  openAppFailed: '未能打开App，请确认已安装',
  moreSuggestions: '更多问题',
  leaveMessageHintServing: '请留下您的联系方式和留言，我们会尽快回复您',
  sessionExpired: '登录已失效，请重新登录',
  deskVisitorEnded: '访客已结束会话',
  deskAgentEnded: '您已结束会话',
  deskConversationEnded: '会话已结束',
  deskEndedConversations: '已结束的会话',
  deskClose: '关闭',
  deskRating: '访客评价：{score}/5',
  deskNotRated: '访客尚未评价',
  deskStatus: '状态',
  deskAvailable: '在线接待',
  deskAway: '暂离',
  deskLoad: '{open}/{capacity} 个会话',
  deskTransfer: '转接',
  deskTransferTo: '转接给',
  deskTransferNote: '给同事的备注（访客看不到）',
  deskNoTransferTarget: '暂无其他可接待的客服',
  deskTransferredFrom: '由 {name} 转来',
  deskTransferredTo: '已转接给 {name}',
  deskTransferAtCapacity: '未能转接：对方接待已满',
  deskTransferAway: '未能转接：对方已离开',
  deskTransferOffline: '未能转接：对方已离线',
  deskTransferFailed: '未能转接',
  agentTyping: '{name} 正在输入…',
  visitorTyping: '访客正在输入…',
  draftPreview: '草稿',
  sneakPeekNote: '提示：本商户开启了“输入预览”，客服可能在您发送前看到您正在输入的内容（最多 200 字）。这些内容不会被保存。',
  cannotOpenFaq: '常见问题加载失败',
  unavailableClosed: '现在不在人工客服的服务时间内。',
  backAt: '客服将于 {time} 上班，您可以先给我们留言。',
  unavailableNoAgent: '现在没有在线的人工客服，您可以先给我们留言。',
  estimatedWait: '预计等待约 {minutes} 分钟',
  estimatedWaitShort: '预计等待不到 1 分钟',
  downloadTranscript: '下载聊天记录',
  transcriptTitle: '聊天记录：{title}',
  transcriptExported: '导出时间：{time}',
  transcriptEmpty: '（暂无消息）',
  transcriptDownloaded: '聊天记录已下载',
  transcriptFailed: '聊天记录下载失败，请稍后重试',
  robotGreeting: '您好，我是智能客服，请问有什么可以帮您？您可以点击下面的问题，或直接输入。',
  robotGreetingNoQuestions: '您好，我是智能客服，请问有什么可以帮您？请直接输入您的问题。',
  conversationEndedNext: '本次会话已结束。您可以评价本次服务，或发送新消息开始新的会话。',
  searchEarlier: '搜索更早的消息',
  searchingEarlier: '正在搜索更早的消息…',
};

/** The translations' module: the texts, and the emoji names in English (for screen readers). */
export interface AppTextTranslationsModule {
  /** The app texts of every language but zh. */
  readonly APP_TEXT_TRANSLATIONS: AppTextTranslations;
  /** The 99 emoji names in English, in the order of the SDK's `EMOJI_NAMES`. */
  readonly EMOJI_NAMES_EN?: readonly string[];
}

/** Fetches the module of the translations (a dynamic `import()`; injected in tests). */
export type AppTextTranslationsImport = () => Promise<AppTextTranslationsModule>;

/** The translations' own chunk. */
export const importAppTextTranslations: AppTextTranslationsImport = () => import('./app-text-translations.js');

/** Told when the translations could not be fetched (the language then shows the zh texts). */
export type AppTextFailureReporter = (message: string, cause: unknown) => void;

function isTranslated(language: string): language is TranslatedLanguage {
  return language !== 'zh' && isLanguage(language);
}

const warnInConsole: AppTextFailureReporter = (message, cause) => console.warn(message, cause);

/**
 * The app's own texts: zh at once, the other languages once {@link AppTextCatalogue.load} has
 * fetched their chunk. A text of a language not loaded (or unknown) is the zh text, so that a
 * failed fetch never leaves a label empty.
 */
export class AppTextCatalogue {
  private translations: AppTextTranslations | null = null;
  private emojiNamesEn: readonly string[] | undefined;
  private pending: Promise<AppTextTranslationsModule> | null = null;

  /**
   * @param importTranslations - fetches the translations (the chunk by default)
   * @param reportFailure - told when a fetch failed (a console warning by default)
   */
  constructor(
    private readonly importTranslations: AppTextTranslationsImport = importAppTextTranslations,
    private readonly reportFailure: AppTextFailureReporter = warnInConsole,
  ) {}

  /** Whether the texts of `language` are at hand (zh always; another once loaded). */
  has(language: string): boolean {
    const known = normalizeLanguage(language);
    return known === 'zh' || (known !== undefined && this.translations !== null);
  }

  /**
   * Loads the texts of a language (one fetch for all nine others, shared by overlapping calls;
   * a failed fetch is tried again by the next call). Never rejects.
   * @param language - a language code (normalised; unknown codes give zh)
   * @returns the language whose texts {@link AppTextCatalogue.text} now gives for it: the
   *   language itself, or `'zh'` when it is unknown or its texts could not be fetched (reported)
   */
  async load(language: string): Promise<Language> {
    const known = normalizeLanguage(language) ?? 'zh';
    if (this.has(known)) return known;
    this.pending ??= this.importTranslations();
    try {
      const module = await this.pending;
      this.translations = module.APP_TEXT_TRANSLATIONS;
      this.emojiNamesEn = module.EMOJI_NAMES_EN;
      return known;
    } catch (cause) {
      this.pending = null;
      this.reportFailure(`The "${known}" app texts could not be loaded; showing the zh texts`, cause);
      return 'zh';
    }
  }

  /**
   * A text in a language: its own when loaded, else the zh text.
   * @param language - the interface language
   * @param key - the text key
   * @param params - `{name}` interpolation values
   */
  text(language: string, key: AppTextKey, params?: Record<string, string | number>): string {
    const own = this.translations && isTranslated(language) ? this.translations[language][key] : undefined;
    return interpolate(own ?? ZH_APP_TEXTS[key], params);
  }

  /**
   * An emoji's accessible name in a language: the Chinese name (the `face[name]` token's) for zh
   * and zh-Hant, the English name for the other languages once loaded (never empty).
   * @param language - the interface language
   * @param index - the emoji's index in `EMOJI_NAMES`
   * @param zhName - its Chinese name
   */
  emojiName(language: string, index: number, zhName: string): string {
    if (language.startsWith('zh')) return zhName;
    return this.emojiNamesEn?.[index] || zhName;
  }
}

/** The app's texts (one per page; the runtime loads a language into it before showing it). */
export const appTexts = new AppTextCatalogue();

/**
 * An app text in a language (zh when the language has none or its texts are not loaded yet).
 * @param language - the interface language
 * @param key - the text key
 * @param params - `{name}` interpolation values
 */
export function appText(language: string, key: AppTextKey, params?: Record<string, string | number>): string {
  return appTexts.text(language, key, params);
}

/**
 * An emoji's accessible name in a language (see {@link AppTextCatalogue.emojiName}).
 * @param language - the interface language
 * @param index - the emoji's index in `EMOJI_NAMES`
 * @param zhName - its Chinese name
 */
export function emojiName(language: string, index: number, zhName: string): string {
  return appTexts.emojiName(language, index, zhName);
}
