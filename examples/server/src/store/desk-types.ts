/**
 * The desk's storage shapes: canned replies per merchant and the listing and search of ended
 * conversations (past conversations), kept out of `types.ts` for size.
 * @module
 */

import type { MessageRecord, ServiceSession } from './chat-types.js';

/** A canned reply of a merchant: a title, the text to send, and the `/shortcut` that finds it. */
export interface CannedReply {
  /** Reply id. */
  id: string;
  /** Merchant id. */
  mchId: string;
  /** Short title shown in lists. */
  title: string;
  /** The text an agent sends. */
  text: string;
  /** The shortcut typed after `/` (unique per merchant). */
  shortcut: string;
  /** When it was added (ms). */
  createdAt: number;
}

/** What {@link DeskRepo.updateCanned} did: changed it, found no such reply, or found the shortcut taken. */
export type CannedUpdate = 'updated' | 'missing' | 'taken';

/**
 * What a visitor arrived with at a merchant's platform (the entry link's parameters and the page's
 * query, as the visitor page sent them in its connect data), kept for the desk's context panel.
 */
export interface Arrival {
  /** The visitor. */
  clientId: string;
  /** Merchant id. */
  mchId: string;
  /** Platform id. */
  platformId: string;
  /** The parameters, name to value (bounded by the service that records them). */
  params: Record<string, string>;
  /** When the visitor last arrived with them (ms). */
  arrivedAt: number;
}

/**
 * A query over ended conversations, newest ended first. Text filters match case-insensitively
 * (ASCII) as substrings; `%`, `_` and `\` in them are plain characters.
 */
export interface PastQuery {
  /** Only this merchant's conversations (every merchant when undefined). */
  mchId?: string | undefined;
  /** Only conversations of these merchants (an agent's; every merchant when undefined, none when empty). */
  mchIds?: readonly string[] | undefined;
  /** Only conversations of the visitor with this client id, or whose name contains it. */
  visitor?: string | undefined;
  /** Only conversations with a message whose content contains this. */
  text?: string | undefined;
  /** Conversations skipped (0 and up). */
  offset: number;
  /** Page size (callers ask for one more than they show to learn whether there is more). */
  size: number;
}

/** An ended conversation as listed: the session and the visitor's name. */
export interface PastConversation extends ServiceSession {
  /** The visitor's display name ('' when the visitor is unknown). */
  visitorName: string;
}

/** Canned replies and past conversations. */
export interface DeskRepo {
  /** Stores a canned reply; false (nothing stored) when the merchant has that shortcut already. */
  addCanned(reply: CannedReply): boolean;
  /** A merchant's canned replies by shortcut (byte order). */
  cannedReplies(mchId: string): CannedReply[];
  /** Replaces a reply's title, text and shortcut (its merchant and id name it). */
  updateCanned(reply: CannedReply): CannedUpdate;
  /** Removes a merchant's canned reply; false when there was none. */
  removeCanned(mchId: string, id: string): boolean;
  /** Ended conversations matching `query`, newest ended first (then by session id, descending). */
  pastConversations(query: PastQuery): PastConversation[];
  /** The messages of one session, oldest first (at most `limit`). */
  sessionMessages(sessionId: string, limit: number): MessageRecord[];
  /** Keeps what a visitor arrived with at a platform (replacing the earlier arrival there). */
  saveArrival(arrival: Arrival): void;
  /** What the visitor last arrived with at the platform, if anything was kept. */
  arrival(clientId: string, mchId: string, platformId: string): Arrival | undefined;
  /**
   * The ended sessions of an agent that it has not closed on its desk, newest ended first (then by
   * session id, descending), at most `limit`.
   */
  deskEnded(agentId: string, limit: number): ServiceSession[];
  /**
   * The agent closed an ended session of its desk (it is listed by {@link DeskRepo.deskEnded} no
   * more); closing it again is fine.
   * @returns false when it is not an ended session of that agent
   */
  closeEnded(sessionId: string, agentId: string, now: number): boolean;
  /**
   * The sessions an agent transferred to another agent (recorded by `reassign`) that it has not
   * closed on its desk and that are not its own again (transferred back), newest transfer first
   * (then by session id, descending), at most `limit`.
   */
  deskTransferred(agentId: string, limit: number): DeskTransferRecord[];
  /**
   * The agent closed a conversation it had transferred (it is listed by
   * {@link DeskRepo.deskTransferred} no more); closing it again is fine.
   * @returns false when that agent never transferred that session
   */
  closeTransferred(sessionId: string, agentId: string, now: number): boolean;
}

/** A conversation an agent transferred to another agent, as its desk lists it until closed. */
export interface DeskTransferRecord {
  /** The session (now another agent's, or ended). */
  session: ServiceSession;
  /** The agent it went to (`agent:<account>`). */
  toAgentId: string;
  /** When it was transferred (ms). */
  transferredAt: number;
}

/** `text` with LIKE's wildcards and the escape character (`\`) escaped, wrapped in `%`. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
