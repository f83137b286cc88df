/**
 * Shapes of the agent desk's permit calls (docs/protocol.md §7, "Desk calls"): canned replies,
 * past conversations, the visitor context and a queued visitor's transcript.
 * @module
 */
import type { ChatMessage } from '../messages/types.js';
import type { DepositCard } from './types.js';

/** A merchant's canned reply: a title, the text to send, the `/shortcut` that finds it. */
export interface CannedReply {
  /** Reply id. */
  id: string;
  /** Merchant id. */
  mchId: string;
  /** Short title. */
  title: string;
  /** The text an agent sends. */
  text: string;
  /** The shortcut typed after `/`. */
  shortcut: string;
  /** When it was added (ms). */
  createdAt: number;
}

/** A new canned reply. */
export interface CannedReplyInput {
  /** Merchant id. */
  mchId: string;
  /** Title (1-100 characters). */
  title: string;
  /** Text (1-2000 characters). */
  text: string;
  /** Shortcut (1-32 letters, digits, `-`, `_`; a leading `/` is dropped). */
  shortcut: string;
}

/** A canned reply's new title, text and shortcut (its merchant and id name it). */
export interface CannedReplyUpdate extends CannedReplyInput {
  /** Reply id. */
  id: string;
}

/** An ended conversation as the desk lists it. */
export interface PastConversation {
  /** Session id (opens it with `agentPastOpen`). */
  sessionId: string;
  /** The visitor. */
  clientId: string;
  /** The visitor's display name ('' when unknown). */
  visitorName: string;
  /** Merchant id. */
  mchId: string;
  /** Platform id. */
  platformId: string;
  /** The agent who served it (`agent:<account>`), or null. */
  agentId: string | null;
  /** When it started (ms). */
  createdAt: number;
  /** When it ended (ms). */
  endedAt: number | null;
  /** The rating given (1-5), or null. */
  score: number | null;
  /** The rating's remark, or null. */
  remark: string | null;
}

/** A query over ended conversations (newest ended first). */
export interface PastQuery {
  /** Only this merchant's. */
  mchId?: string;
  /** Client id (exact) or a part of the visitor's name. */
  visitor?: string;
  /** A part of a message's text. */
  text?: string;
  /** Conversations skipped. */
  offset?: number;
  /** Page size (1-50, default 20). */
  size?: number;
}

/** A page of ended conversations. */
export interface PastPage {
  /** The conversations, newest ended first. */
  list: PastConversation[];
  /** Whether a further page exists. */
  hasMore: boolean;
}

/** One conversation read whole: its session and messages, oldest first. */
export interface Transcript {
  /** The conversation. */
  session: PastConversation;
  /** Its messages, oldest first. */
  messages: ChatMessage[];
}

/** Names a queued visitor's conversation. */
export interface QueuedQuery {
  /** The queued visitor. */
  clientId: string;
  /** Merchant id. */
  mchId: string;
  /** Platform id. */
  platformId: string;
}

/** What the desk shows beside a conversation: the visitor and its history with the merchant. */
export interface VisitorContext {
  /** The visitor's client id. */
  clientId: string;
  /** Display name. */
  name: string;
  /** Preferred language. */
  language: string;
  /** First seen (ms). */
  firstSeen: number;
  /** Last seen (ms). */
  lastSeen: number;
  /** Merchant id. */
  mchId: string;
  /** Merchant name. */
  merchantName: string;
  /** Platform id. */
  platformId: string;
  /** Platform name. */
  platformName: string;
  /** Ended conversations with this merchant. */
  pastConversations: number;
  /** The score of the newest rated conversation, or null. */
  lastRating: number | null;
  /**
   * What the visitor last arrived with at the platform: the entry link's parameters and the page's
   * query as its page reported them (e.g. `kefuId`, `isapp`, `cpay`, `json.account`); empty when
   * nothing was kept (older servers leave it out).
   */
  entry?: Record<string, string>;
  /** When it arrived with {@link VisitorContext.entry} (ms), or null. */
  arrivedAt?: number | null;
  /** The deposit card of the merchant order it arrived with (`cpay`), or null. */
  deposit?: DepositCard | null;
}
