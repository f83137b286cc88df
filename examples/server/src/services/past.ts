/**
 * Past conversations for the desk: ended conversations listed newest first with search by text
 * and visitor, one opened read-only, and what a queued visitor wrote before an agent accepts.
 *
 * Who may read (docs/protocol.md §7): only agents, and only of their own merchants: an agent may
 * read every ended conversation of its merchants, and what a visitor queued with one of them wrote
 * in its current conversation (its own messages, to the robot and while queueing: nothing of
 * earlier conversations, nothing once it is no longer queued), before it accepts. A visitor's key
 * session, and an agent naming another merchant's conversation, get 4003 from every call here.
 * @module
 */

import { T, toWire, type WireMessage } from '../chat/wire.js';
import { forbidden } from '../http/caller.js';
import { ApiError, Code } from '../http/envelope.js';
import type { PastConversation } from '../store/desk-types.js';
import type { ServiceSession, Store } from '../store/types.js';
import { visitorContext, type VisitorContext } from './visitor-context.js';

/** The most messages an opened conversation answers. */
export const MAX_OPENED_MESSAGES = 1000;

/** A page of ended conversations. */
export interface PastPage {
  list: PastConversation[];
  hasMore: boolean;
}

/** One conversation opened read-only: the session and all its messages, oldest first. */
export interface OpenedConversation {
  session: PastConversation;
  messages: WireMessage[];
}

/** What the listing asks. */
export interface PastSearch {
  mchId?: string;
  /** Only these merchants' (the agent's). */
  mchIds: readonly string[];
  visitor?: string;
  text?: string;
  offset: number;
  size: number;
}

/** What a visitor writes itself: text, image, file, video (what a queued visitor's transcript holds). */
const WRITTEN_BY_VISITORS: ReadonlySet<number> = new Set([T.Text, T.Image, T.File, T.Video]);

/** Refuses anybody but an agent (`agent:<account>`). @throws ApiError 4003 */
export function requireAgent(identity: string): void {
  if (!identity.startsWith('agent:')) throw forbidden('Forbidden: only agents may read past conversations');
}

/** Past conversations and queued visitors' transcripts. */
export class Past {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A page of ended conversations (of `search.mchIds`, the agent's merchants), newest ended first.
   * @throws ApiError 4003 for a visitor.
   */
  async list(identity: string, search: PastSearch): Promise<PastPage> {
    requireAgent(identity);
    const rows = await this.store.desk.pastConversations({ ...search, size: search.size + 1 });
    return { list: rows.slice(0, search.size), hasMore: rows.length > search.size };
  }

  /**
   * One ended conversation with all its messages, of one of the agent's `merchants`.
   * @throws ApiError 4003 for a visitor or another merchant's; 1003 when there is no such ended conversation.
   */
  async open(identity: string, sessionId: string, merchants: readonly string[]): Promise<OpenedConversation> {
    requireAgent(identity);
    const session = await this.store.chat.session(sessionId);
    if (session?.state !== 'ended') throw new ApiError(Code.NotFound, 'no such ended conversation');
    if (!merchants.includes(session.mchId)) throw forbidden('Forbidden: a conversation of another merchant');
    return this.transcript(session);
  }

  /**
   * The agent closed an ended conversation of its desk, or one it transferred to another agent:
   * snapshots list it no more (closing it again is fine).
   * @throws ApiError 4003 unless it is an ended conversation this agent served or one it transferred.
   */
  async close(identity: string, sessionId: string, merchants: readonly string[]): Promise<true> {
    requireAgent(identity);
    const session = await this.store.chat.session(sessionId);
    if (session === undefined || !merchants.includes(session.mchId)) throw forbidden('Forbidden: not an ended conversation of this agent');
    if (session.agentId !== identity && (await this.store.desk.closeTransferred(sessionId, identity, this.now()))) return true;
    const own = session.state === 'ended' && session.agentId === identity;
    if (!own || !(await this.store.desk.closeEnded(sessionId, identity, this.now()))) {
      throw forbidden('Forbidden: not an ended conversation of this agent');
    }
    return true;
  }

  /**
   * What a queued visitor wrote in its current conversation (to the robot and while queueing),
   * for an agent of its merchant deciding to accept: the visitor's own messages only (the caller
   * has checked that the merchant is the agent's).
   * @throws ApiError 4003 for a visitor, or when the visitor is not queued with that merchant's
   * platform (unknown, talking to the robot, served, ended).
   */
  async queued(identity: string, clientId: string, mchId: string, platformId: string): Promise<OpenedConversation> {
    requireAgent(identity);
    const session = await this.store.chat.latestSession(clientId, mchId, platformId);
    if (session?.state !== 'queued') throw forbidden('Forbidden: that visitor is not queued');
    const opened = await this.transcript(session);
    return { ...opened, messages: opened.messages.filter((m) => m.from === clientId && WRITTEN_BY_VISITORS.has(m.type)) };
  }

  /**
   * The context panel of a visitor (the caller must have checked that the agent may act for it).
   * @throws ApiError 1003 when the visitor is unknown.
   */
  context(clientId: string, mchId: string, platformId: string): Promise<VisitorContext> {
    return visitorContext(this.store, clientId, mchId, platformId);
  }

  /** A session with its visitor's name and its messages. */
  private async transcript(session: ServiceSession): Promise<OpenedConversation> {
    const visitorName = (await this.store.chat.visitor(session.clientId))?.name ?? '';
    const messages = await this.store.desk.sessionMessages(session.sessionId, MAX_OPENED_MESSAGES);
    return { session: { ...session, visitorName }, messages: messages.map((m) => toWire(m)) };
  }
}
