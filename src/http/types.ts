/**
 * Payloads and answers of the permit calls (docs/protocol.md §3, §4).
 * @module
 */
import type { ChatMessage, SuggestedQuestion } from '../messages/types.js';

export type {
  ChunkInitQuery,
  ChunkInitResult,
  ChunkRef,
  ChunkUploadQuery,
  ChunkUploadResult,
  UploadCallOptions,
  UploadedFile,
} from '../upload/types.js';

/** An identifier that the server may send as a number or a string. */
export type Id = string | number;

/** Answer of `GET /im/api/public/config`: what an app needs to build an `ImClient`. */
export interface PublicConfig {
  /** Host root (the SDK adds `/im`). */
  baseUrl: string;
  /** WebSocket endpoint. */
  socketUrl: string;
  /** `"<publicKey>,<secret>"`. */
  socketKey: string;
  /** The AES switch. */
  aesSwitch: boolean;
}

/** Answer of `getUserToken` (protocol §1.4). */
export interface UserTokenResult {
  /** `GCM(aesKey, token)`: decrypt it with the revealed AES key. */
  userToken: string;
  /** Names this key session; sent as `X-Salt-Key` from now on. */
  saltKey: string;
}

/** History paging: `before` pages backwards, `after` fetches what is newer. */
export interface PageWindow {
  /** Messages strictly older than this time (ms); the newest `size` of them. */
  before?: number;
  /** Messages newer than this time (ms); the oldest `size` of them. */
  after?: number;
  /**
   * Messages after this per-conversation sequence number, the oldest `size` of them (a server that
   * stamps `seq`, docs/protocol.md §4); wins over `before` and `after`.
   */
  afterSeq?: number;
  /** Page size: default 20, at most 100. */
  size?: number;
}

/** Payload of `findMsgForCus`. */
export interface HistoryQuery extends PageWindow {
  /** The visitor's client id. */
  clientId: string;
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
}

/** Payload of `clientGroupMsgList`. */
export interface GroupHistoryQuery extends PageWindow {
  /** The visitor's client id. */
  clientId: string;
  /** Group id. */
  groupId: Id;
}

/** Answer of the history calls: `list` in ascending time order. */
export interface MessagePage {
  /** The messages, oldest first. */
  list: ChatMessage[];
  /** Whether more messages exist beyond this page. */
  hasMore: boolean;
}

/** Payload of `markScore`. */
export interface ScoreInput {
  /** The visitor's client id. */
  clientId: string;
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
  /** The rated conversation, when known. */
  sessionId?: string;
  /** 1 (very dissatisfied) to 5 (very satisfied). */
  score: number;
  /** Optional comment. */
  remark?: string;
}

/** Answer of `markScore`. */
export interface ScoreResult {
  /** The rated conversation. */
  sessionId: string;
  /** The stored score. */
  score: number;
}

/** Payload of `getGroupInfo`. */
export interface GroupInfoQuery {
  /** Group id. */
  groupId: Id;
  /**
   * The visitor's client id: joins it to an open group. Needs a key session bound to that
   * visitor (protocol §3a); without it the call only reads the group's public info.
   */
  clientId?: string;
}

/** Payload of `getGroupUserList`. */
export interface GroupUsersQuery {
  /** Group id. */
  groupId: Id;
}

/** A group or channel. */
export interface GroupInfo {
  /** Group id. */
  groupId: Id;
  /** Display name. */
  name: string;
  /** A group (everyone posts) or a channel (staff posts). */
  kind: 'group' | 'channel';
  /** Avatar URL. */
  avatar: string;
  /** The group notice. */
  notice: string;
  /** Number of members. */
  memberCount: number;
}

/** A member of a group. */
export interface GroupUser {
  /**
   * The member's client id for the member itself; for every other visitor an opaque per-group
   * alias (`m-<16 hex>`, protocol §3a: other visitors' client ids are never handed out).
   */
  clientId: string;
  /** Display name. */
  name: string;
  /** Avatar URL. */
  avatar: string;
  /** Member or staff. */
  role: 'member' | 'staff';
}

/** Payload naming a merchant platform (`categoryInfo`, `checkPlatform`, `getMerchantById`). */
export interface MerchantQuery {
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
}

/** A FAQ category with its questions. */
export interface FaqCategory {
  /** Category id. */
  id: Id;
  /** Category name. */
  name: string;
  /** Its questions. */
  questions: SuggestedQuestion[];
}

/** Answer of `checkPlatform`. */
export interface PlatformCheck {
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
  /** Platform name. */
  name: string;
  /** Whether the platform is enabled. */
  enabled: boolean;
}

/** Payload of `validateMchOrder`. */
export interface OrderQuery {
  /** Merchant id. */
  mchId: Id;
  /** Merchant order number. */
  orderNo: string;
}

/** The deposit-information card (spec §3). */
export interface DepositCard {
  /** User account. */
  userAccount: string;
  /** User merchant id. */
  userMchId: Id;
  /** Merchant order number. */
  mchOrderNo: string;
  /** Order amount. */
  amount: string | number;
  /** Funding order status. */
  status: string | number;
}

/** Payload of `question`. */
export interface QuestionQuery {
  /** The visitor's client id. */
  clientId: string;
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
  /** The asked question's id. */
  questionId: Id;
}

/** Answer of `question`. */
export interface QuestionAnswer {
  /** Question id. */
  id: Id;
  /** Question text. */
  question: string;
  /** The answer text. */
  answer: string;
}

/** Payload of `questionLike`. */
export interface QuestionLikeQuery {
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
  /** What the visitor typed. */
  keyword: string;
}

/** Payload of `triggerUpdate`. */
export interface TriggerUpdateQuery {
  /** The visitor's client id. */
  clientId: string;
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
}

/** Answer of `triggerUpdate`; the server also re-sends the session state and suggestions. */
export interface TriggerUpdateResult {
  /** The conversation's state as the server holds it. */
  session: unknown;
}

/** Merchant info (spec §3): read as a whole object. */
export interface MerchantInfo {
  /** Merchant id. */
  mchId: Id;
  /** Platform id. */
  platformId: Id;
  /** Merchant name. */
  name: string;
  /** Service avatar (the page icon); a built-in default is used when missing. */
  kefuAvatar2?: string;
  /** Other fields are kept as they are. */
  [key: string]: unknown;
}

/** Answer of `POST /translate/google/translate`. */
export interface TranslateResult {
  /** The translated text. */
  text: string;
  /** The detected or given source language. */
  source: string;
  /** The target locale. */
  target: string;
}

/** Options of `translate`. */
export interface TranslateOptions {
  /** Source language; detected by the server when absent. */
  source?: string;
  /** Cancels the request. */
  signal?: AbortSignal;
}
