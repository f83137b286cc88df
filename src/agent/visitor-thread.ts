/**
 * One visitor's thread on the agent's desk: the history pager of the conversation with that visitor
 * (the agent history call, `findMsgForCus` with the visitor's client id, docs/protocol.md §6) and
 * its paging state. A visitor who comes back keeps one thread across its conversations.
 * @module
 */
import type { MessagePage } from '../http/types.js';
import { HistoryPager, type CatchUpMark, type HeldMessages, type PageWindowQuery } from '../messages/history.js';
import { isChatType, messageTimeMs } from '../messages/content.js';
import { toldOf } from '../messages/told.js';
import type { MessageList } from '../messages/message-list.js';
import type { AgentSession, ChatMessage } from '../messages/types.js';
import type { Store } from '../state/store.js';
import type { DeskClient } from './desk-client.js';

/** The history state of one conversation (`desk.conversation(clientId).getSnapshot()`). */
export interface ConversationHistory {
  /** True while a page is loading. */
  readonly loading: boolean;
  /** True once the newest page (or a catch-up) arrived. */
  readonly loaded: boolean;
  /** False once the server said there is nothing older. */
  readonly hasMore: boolean;
  /** The error of the last failed load, cleared by the next one. */
  readonly error: Error | null;
}

/** The history state of a conversation nothing was loaded for yet. @internal */
export const FRESH_HISTORY: ConversationHistory = Object.freeze({ loading: false, loaded: false, hasMore: true, error: null });

/** Whether a message belongs to the conversation with `clientId`. */
export function ofVisitor(m: ChatMessage, clientId: string): boolean {
  return m.from === clientId || m.to === clientId;
}

/** What the pager holds of one visitor's thread in the agent's message list. */
function heldOf(messages: MessageList, clientId: string): HeldMessages {
  const times = (): number[] => {
    const out: number[] = [];
    for (const m of messages.getSnapshot()) {
      if (!ofVisitor(m, clientId) || !isChatType(m.type) || m.createTime === undefined) continue;
      const t = messageTimeMs(m);
      if (t !== undefined) out.push(t);
    }
    return out;
  };
  return {
    oldestTime: () => {
      const all = times();
      return all.length === 0 ? undefined : Math.min(...all);
    },
    newestTime: () => {
      const all = times();
      return all.length === 0 ? undefined : Math.max(...all);
    },
    newestSeq: () => {
      let max: number | undefined;
      for (const m of messages.getSnapshot()) {
        if (ofVisitor(m, clientId) && typeof m.seq === 'number' && (max === undefined || m.seq > max)) max = m.seq;
      }
      return max;
    },
  };
}

/** One visitor's history on the desk: the pager over the agent history call, and its state. */
export class VisitorThread {
  /** The conversation whose merchant and platform the history call names (the latest one seen). */
  session: AgentSession;
  private readonly pager: HistoryPager;
  private stopped = false;

  /**
   * @param client - the agent's client (its list receives the pages)
   * @param session - the visitor's conversation (merchant and platform of the history call)
   * @param pageSize - messages per page of older history
   * @param history - the paging state (the desk hands it out before the thread exists)
   */
  constructor(
    client: DeskClient,
    session: AgentSession,
    private readonly pageSize: number,
    readonly history: Store<ConversationHistory>,
  ) {
    this.session = session;
    const { messages } = client;
    this.pager = new HistoryPager({
      messages,
      held: heldOf(messages, session.clientId),
      fetchPage: (q) => this.fetch(client, q),
      keepOlder: () => !this.stopped, // session events too; nothing once the desk is destroyed
      // a catch-up's messages are told like the client's own catch-up: once each, caught up
      route: (m) => {
        if (this.stopped) return;
        const told = toldOf(m.fp ? messages.get(m.fp) : undefined);
        const message = messages.upsert(m);
        if (!told && isChatType(m.type)) client.emit('message', { message, caughtUp: true });
      },
    });
  }

  /** Where a catch-up from what the list holds now would start. */
  mark(): CatchUpMark {
    return this.pager.heldMark();
  }

  /**
   * Loads the page older than what the list holds (the newest page when it holds nothing). A
   * failure is kept in `error` and rethrown.
   */
  async loadOlder(): Promise<void> {
    this.history.setState({ loading: true, error: null });
    try {
      const page = await this.pager.loadOlder(this.pageSize);
      if (!this.stopped) this.history.setState({ loading: false, loaded: true, hasMore: page.hasMore === true });
    } catch (error) {
      this.history.setState({ loading: false, error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
  }

  /** Fetches everything after `from` (what was held when the socket dropped), page by page. */
  async catchUp(from: CatchUpMark, maxPages: number): Promise<void> {
    if (from.seq === undefined && from.time === undefined) return this.loadOlder();
    await this.pager.fetchMissed(maxPages, from);
    if (!this.stopped) this.history.setState({ loaded: true });
  }

  /** Stops adding pages to the list (the desk was destroyed). */
  stop(): void {
    this.stopped = true;
  }

  private fetch(client: DeskClient, q: PageWindowQuery): Promise<MessagePage> {
    const { clientId, mchId, platformId } = this.session;
    if (mchId === undefined || platformId === undefined) {
      return Promise.reject(new Error(`The server named no merchant for the conversation with ${clientId}; its history cannot be loaded.`));
    }
    return client.api.findMsgForCus({ clientId, mchId, platformId, ...q });
  }
}
