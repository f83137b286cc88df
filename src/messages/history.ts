/**
 * History paging: older pages into the message list (`loadOlder`), what was missed while away
 * (`fetchMissed`), and the paging state as a subscribable snapshot.
 * @module
 */
import type { ClientContext } from '../client-context.js';
import type { MessagePage } from '../http/types.js';
import { createStore, type Store } from '../state/store.js';
import { isChatType, messageTimeMs } from './chat-type.js';
import type { ChatMessage } from './types.js';

/** The history paging state (`client.history.getSnapshot()`). */
export interface PagingSnapshot {
  /** True while a page of older history is loading. */
  readonly loading: boolean;
  /** False once the server said there is no older history. */
  readonly hasMore: boolean;
  /** The error of the last failed page load, cleared by the next load. */
  readonly error: Error | null;
}

/** A page window of the history calls. @internal */
export interface PageWindowQuery {
  before?: number;
  after?: number;
  afterSeq?: number;
  size: number;
}

/** Where a catch-up starts: after the highest `seq` held (when the server stamps one), else after a time (ms). */
export interface CatchUpMark {
  /** The highest per-conversation `seq` held. */
  seq?: number;
  /** The newest `createTime` (ms) held. */
  time?: number;
}

/** What the pager holds of its conversation (the client's whole list, or one visitor's part of it). @internal */
export interface HeldMessages {
  /** The oldest `createTime` (ms) held. */
  oldestTime(): number | undefined;
  /** The newest `createTime` (ms) held. */
  newestTime(): number | undefined;
  /** The highest `seq` held (leaving out the messages of `exceptFrom` when given). */
  newestSeq(exceptFrom?: string): number | undefined;
}

/** Where the pager's pages come from: the visitor's own history calls, or a page function. @internal */
export type PageSource =
  | Pick<ClientContext, 'api' | 'clientId' | 'connectData'>
  | {
      /** Fetches one page; an agent's desk pages one visitor's conversation with the agent history call. */
      fetchPage(q: PageWindowQuery): Promise<MessagePage>;
    };

/** What the pager needs from the client. @internal */
export type HistoryDeps = PageSource & Pick<ClientContext, 'messages'> & {
  /** What the pager holds (default: the whole message list). */
  held?: HeldMessages;
  /** Which messages of a page of older history join the list (default: chat content only). */
  keepOlder?(message: ChatMessage): boolean;
  /** The highest `seq` of any message of others routed so far (frames and pages), if any. */
  seenSeq?: () => number | undefined;
  /**
   * Who the own messages are from: their `seq`s do not count for a catch-up (in a cluster the own
   * node stamps and echoes them at once, while another node's earlier message may still be on its way).
   */
  selfId?: () => string | undefined;
  /** Handles a missed message as if it had arrived on the socket. */
  route(message: ChatMessage): void;
  /**
   * Resolves when visitor calls may be made: during a connect, after its welcome (before it the key
   * session speaks for nobody, protocol §3a, and the call would get 4003).
   */
  ready?(): Promise<void>;
};

/**
 * Fetches a page of the visitor's history: the group's (`clientGroupMsgList`) when the connect
 * data names a group, otherwise the visitor's own (`findMsgForCus`).
 * @internal
 */
export function fetchHistoryPage(deps: Pick<ClientContext, 'api' | 'clientId' | 'connectData'>, q: PageWindowQuery): Promise<MessagePage> {
  const { api } = deps;
  const clientId = deps.clientId();
  const connectData = deps.connectData();
  const groupId = connectData.groupId;
  if (groupId !== undefined && groupId !== 0 && groupId !== '0' && groupId !== '') {
    return api.clientGroupMsgList({ clientId, groupId: groupId as string | number, ...q });
  }
  return api.findMsgForCus({
    clientId,
    mchId: connectData.mchId as string | number,
    platformId: connectData.platformId as string | number,
    ...q,
  });
}

/**
 * The history of the conversation, page by page. `subscribe`/`getSnapshot` give the paging state
 * to `useSyncExternalStore`; calls of {@link HistoryPager.loadOlder} made while a page loads share it.
 */
export class HistoryPager {
  private readonly store: Store<PagingSnapshot> = createStore<PagingSnapshot>({ loading: false, hasMore: true, error: null });
  /** The oldest time seen in history pages (pages may hold types that never join the list). */
  private oldestFetched: number | undefined;
  private inFlight: Promise<MessagePage> | null = null;

  private readonly held: HeldMessages;
  private readonly fetchPage: (q: PageWindowQuery) => Promise<MessagePage>;

  /** @param deps - the list, the page fetch and the inbound router @internal */
  constructor(private readonly deps: HistoryDeps) {
    this.held = deps.held ?? deps.messages;
    this.fetchPage = 'fetchPage' in deps ? (q) => deps.fetchPage(q) : (q) => fetchHistoryPage(deps, q);
  }

  /** Calls `listener` after every change of the paging state; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(() => listener());

  /** The paging state; its identity changes only when a value changed. */
  readonly getSnapshot = (): PagingSnapshot => this.store.getState();

  /**
   * Loads older history (before the oldest message held or fetched) into the message list. Only
   * chat content is added: old session events and suggestions are history, not the current state.
   * @param size - page size (default 20)
   */
  loadOlder(size = 20): Promise<MessagePage> {
    if (this.inFlight) return this.inFlight;
    this.store.setState({ loading: true, error: null });
    const run = async (): Promise<MessagePage> => {
      try {
        const ready = this.deps.ready?.();
        if (ready) await ready;
        const before = minDefined(this.held.oldestTime(), this.oldestFetched);
        const page = await this.fetchPage({ ...(before === undefined ? {} : { before }), size });
        this.oldestFetched = minDefined(this.oldestFetched, ...page.list.map(messageTimeMs));
        const keep = this.deps.keepOlder ?? ((m: ChatMessage) => isChatType(m.type));
        this.deps.messages.upsertMany(page.list.filter(keep));
        this.store.setState({ loading: false, hasMore: page.hasMore === true, error: null });
        return page;
      } catch (e) {
        this.store.setState({ loading: false, error: e instanceof Error ? e : new Error(String(e)) });
        throw e;
      } finally {
        this.inFlight = null;
      }
    };
    this.inFlight = run();
    return this.inFlight;
  }

  /** Forgets the paging position (the conversation was replaced, e.g. by a new identity). */
  reset(): void {
    this.oldestFetched = undefined;
    this.store.setState({ loading: false, hasMore: true, error: null });
  }

  /**
   * Fetches what was missed while away, page by page, and routes it as if it had arrived on the
   * socket: what follows the highest `seq` held when the server stamps one (docs/protocol.md §4:
   * servers whose clocks disagree cannot make it skip anything), else what is newer than the
   * newest `createTime` held.
   * @param maxPages - how many pages of 100 at most
   * @param from - where to start (default: what is held now); an agent's desk passes what it held
   *   when the socket dropped
   * @returns how many messages were fetched
   */
  async fetchMissed(maxPages = 20, from?: CatchUpMark): Promise<number> {
    const ready = this.deps.ready?.();
    if (ready) await ready;
    const mark = from ?? this.heldMark();
    const bySeq = mark.seq !== undefined;
    let after = mark.seq ?? mark.time;
    let fetched = 0;
    for (let i = 0; i < maxPages; i++) {
      const window = after === undefined ? {} : bySeq ? { afterSeq: after } : { after };
      const page = await this.fetchPage({ ...window, size: 100 });
      for (const message of page.list) this.deps.route(message);
      fetched += page.list.length;
      const marks = page.list.map((m) => (bySeq ? (typeof m.seq === 'number' ? m.seq : undefined) : messageTimeMs(m))).filter((t): t is number => t !== undefined);
      const next = marks.length === 0 ? after : Math.max(after ?? -Infinity, ...marks);
      if (!page.hasMore || next === undefined || next === after) break;
      after = next;
    }
    return fetched;
  }

  /** Where a catch-up from what is held now starts. */
  heldMark(): CatchUpMark {
    const held = [this.held.newestSeq(this.deps.selfId?.()), this.deps.seenSeq?.()].filter((s): s is number => s !== undefined);
    if (held.length > 0) return { seq: Math.max(...held) };
    const time = this.held.newestTime();
    return time === undefined ? {} : { time };
  }
}

/** The smallest defined number, or undefined. */
function minDefined(...values: (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length === 0 ? undefined : Math.min(...defined);
}
