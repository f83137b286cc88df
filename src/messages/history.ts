/**
 * History paging: older pages into the message list (`loadOlder`), what was missed while away
 * (`fetchMissed`), and the paging state as a subscribable snapshot.
 * @module
 */
import type { ClientContext } from '../client-context.js';
import type { MessagePage } from '../http/types.js';
import { createStore, type Store } from '../state/store.js';
import { isChatType, messageTimeMs } from './content.js';
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

/** What the pager needs from the client. @internal */
export type HistoryDeps = Pick<ClientContext, 'messages' | 'api' | 'clientId' | 'connectData'> & {
  /** The highest `seq` of any message routed so far (frames and pages), if any. */
  seenSeq?: () => number | undefined;
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

  /** @param deps - the list, the page fetch and the inbound router @internal */
  constructor(private readonly deps: HistoryDeps) {}

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
        const before = minDefined(this.deps.messages.oldestTime(), this.oldestFetched);
        const page = await fetchHistoryPage(this.deps, { ...(before === undefined ? {} : { before }), size });
        this.oldestFetched = minDefined(this.oldestFetched, ...page.list.map(messageTimeMs));
        this.deps.messages.upsertMany(page.list.filter((m) => isChatType(m.type)));
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
   * @returns how many messages were fetched
   */
  async fetchMissed(maxPages = 20): Promise<number> {
    const ready = this.deps.ready?.();
    if (ready) await ready;
    const held = [this.deps.messages.newestSeq(), this.deps.seenSeq?.()].filter((s): s is number => s !== undefined);
    const seq = held.length > 0 ? Math.max(...held) : undefined;
    if (seq !== undefined) return this.fetchAfterSeq(seq, maxPages);
    let fetched = 0;
    let after = this.deps.messages.newestTime();
    for (let i = 0; i < maxPages; i++) {
      const page = await fetchHistoryPage(this.deps, { ...(after === undefined ? {} : { after }), size: 100 });
      for (const message of page.list) this.deps.route(message);
      fetched += page.list.length;
      const newest = page.list.map(messageTimeMs).filter((t): t is number => t !== undefined);
      if (!page.hasMore || newest.length === 0) break;
      after = Math.max(after ?? -Infinity, ...newest);
    }
    return fetched;
  }

  private async fetchAfterSeq(from: number, maxPages: number): Promise<number> {
    let fetched = 0;
    let afterSeq = from;
    for (let i = 0; i < maxPages; i++) {
      const page = await fetchHistoryPage(this.deps, { afterSeq, size: 100 });
      for (const message of page.list) this.deps.route(message);
      fetched += page.list.length;
      const next = Math.max(afterSeq, ...page.list.map((m) => (typeof m.seq === 'number' ? m.seq : afterSeq)));
      if (!page.hasMore || next === afterSeq) break;
      afterSeq = next;
    }
    return fetched;
  }
}

/** The smallest defined number, or undefined. */
function minDefined(...values: (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length === 0 ? undefined : Math.min(...defined);
}
