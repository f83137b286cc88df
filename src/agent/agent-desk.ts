/**
 * The agent's side of the client: the queue and the open conversations (type 310 snapshots), each
 * conversation's history (the agent history call, `findMsgForCus` on an agent's key session,
 * docs/protocol.md §6), the catch-up after every reconnect, the kept login, accept / end / logout.
 *
 * Data flows one way: frames and history pages go into the client's message list and into the
 * desk's own stores; a desk UI only reads the stores and calls the methods.
 * @module
 */
import type { ImClient } from '../client.js';
import type { StorageLike } from '../options.js';
import { isChatType, messageTimeMs, parseAgentQueue } from '../messages/content.js';
import { MessageType, type AgentSession, type ChatMessage, type QueueEntry, type StoredMessage } from '../messages/types.js';
import { createStore, type Store } from '../state/store.js';
import { clearAgentLogin, sessionTokenOf, writeAgentLogin } from './session-token.js';

/** The desk's queue snapshot (`desk.queue.getSnapshot()`). */
export interface AgentDeskSnapshot {
  /** Visitors waiting, in queue order. */
  readonly queue: readonly QueueEntry[];
  /** The agent's open conversations. */
  readonly sessions: readonly AgentSession[];
  /** How many agents are online. */
  readonly online: number;
  /** False until the first snapshot arrived. */
  readonly received: boolean;
}

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

/** Options of {@link AgentDesk}. */
export interface AgentDeskOptions {
  /** Where the login is kept across reloads (`localStorage` in a browser); default: not kept. */
  storage?: StorageLike;
  /** Messages per history page (default 50, at most 100). */
  pageSize?: number;
  /** Pages fetched at most by one catch-up (default 20). */
  maxCatchUpPages?: number;
}

const EMPTY: AgentDeskSnapshot = Object.freeze({ queue: [], sessions: [], online: 0, received: false });
const FRESH: ConversationHistory = Object.freeze({ loading: false, loaded: false, hasMore: true, error: null });

/** Whether a message belongs to the conversation with `clientId`. */
function ofVisitor(m: ChatMessage, clientId: string): boolean {
  return m.from === clientId || m.to === clientId;
}

/**
 * An agent's desk over an {@link ImClient} connected with agent connect data
 * (`agentConnectData(account, { password })` or `{ token }`).
 *
 * @example
 * ```ts
 * const client = new ImClient({ ...server, connectData: agentConnectData(account, { password }) });
 * const desk = new AgentDesk(client, { storage: localStorage });
 * desk.queue.subscribe(render);
 * client.connect();
 * ```
 */
export class AgentDesk {
  /** The queue and the open conversations (type 310), for `useSyncExternalStore`. */
  readonly queue: Store<AgentDeskSnapshot> = createStore<AgentDeskSnapshot>(EMPTY);
  private readonly histories = new Map<string, Store<ConversationHistory>>();
  /** Per visitor: the highest `seq` (else the newest `createTime`) held when the socket dropped. */
  private readonly catchUpFrom = new Map<string, { seq?: number; time?: number }>();
  private readonly offs: (() => void)[] = [];
  private readonly pageSize: number;
  private readonly maxCatchUpPages: number;
  private destroyed = false;

  /**
   * @param client - the agent's client (its connect data has `role: 'agent'`)
   * @param options - storage for the kept login, page sizes
   */
  constructor(
    private readonly client: ImClient,
    private readonly options: AgentDeskOptions = {},
  ) {
    this.pageSize = Math.min(100, Math.max(1, options.pageSize ?? 50));
    this.maxCatchUpPages = Math.max(1, options.maxCatchUpPages ?? 20);
    const onFrame = ({ message }: { message: ChatMessage }): void => this.onFrame(message);
    const onLogin = ({ reconnected }: { reconnected: boolean }): void => {
      if (reconnected) this.markForCatchUp();
    };
    client.on('socket message', onFrame);
    client.on('socket login', onLogin);
    this.offs.push(
      () => client.off('socket message', onFrame),
      () => client.off('socket login', onLogin),
    );
  }

  /** The history state of the conversation with `clientId` (a store; created on first use). */
  conversation(clientId: string): Store<ConversationHistory> {
    let store = this.histories.get(clientId);
    if (!store) {
      store = createStore<ConversationHistory>(FRESH);
      this.histories.set(clientId, store);
    }
    return store;
  }

  /** The open conversation with `clientId`, if the last snapshot lists it. */
  session(clientId: string): AgentSession | undefined {
    return this.queue.getState().sessions.find((s) => s.clientId === clientId);
  }

  /** Accepts a waiting visitor (type 311); its whole history loads when the snapshot lists it. */
  accept(clientId: string): void {
    this.client.send({ type: MessageType.AgentAccept, dataContent: JSON.stringify({ clientId }) });
  }

  /** Ends the conversation with `clientId` (type 302). */
  end(clientId: string): void {
    this.client.send({ type: MessageType.EndConversation, to: clientId, dataContent: '{}' });
  }

  /**
   * Loads the page of history older than what the list holds for `clientId` (the agent history
   * call). Resolves when it is in the message list; a failure is kept in the conversation's
   * `error` (and rejects).
   */
  async loadOlder(clientId: string): Promise<void> {
    const session = this.session(clientId);
    const store = this.conversation(clientId);
    const state = store.getState();
    if (!session || state.loading || (state.loaded && !state.hasMore)) return;
    const oldest = this.timesOf(clientId)[0];
    await this.load(session, store, oldest === undefined ? {} : { before: oldest });
  }

  /**
   * Logs out (type 312): the server revokes the session token and releases the agent's visitors at
   * once; the kept login is forgotten and the client disconnects (it does not come back with the
   * revoked token). Resolves when the server closed the socket (at most 3 s).
   */
  async logout(): Promise<void> {
    if (this.options.storage) clearAgentLogin(this.options.storage);
    if (this.client.connectionState !== 'open') {
      this.client.disconnect();
      return;
    }
    const closed = new Promise<void>((resolve) => {
      const timer = setTimeout(done, 3_000);
      const client = this.client;
      function done(): void {
        clearTimeout(timer);
        client.off('state', onState);
        resolve();
      }
      function onState({ newState }: { newState: string }): void {
        if (newState !== 'open') done();
      }
      client.on('state', onState);
    });
    const sent = this.client.send({ type: MessageType.AgentLogout, dataContent: '{}' });
    if (sent.sendState !== 'failed') await closed;
    this.client.disconnect();
  }

  /** Stops listening (the client is left as it is). */
  destroy(): void {
    this.destroyed = true;
    for (const off of this.offs.splice(0)) off();
  }

  private onFrame(message: ChatMessage): void {
    if (message.type === MessageType.Welcome) {
      this.keepLogin(message);
      return;
    }
    if (message.type !== MessageType.AgentQueue) return;
    const parsed = parseAgentQueue(message.dataContent);
    if (!parsed) return;
    this.queue.setState({ ...parsed, received: true });
    for (const session of parsed.sessions) this.sync(session);
  }

  /** The welcome of a password login carries the session token: it replaces the password. */
  private keepLogin(message: ChatMessage): void {
    const token = sessionTokenOf(message);
    const data = this.client.getConnectData();
    const account = typeof data.account === 'string' ? data.account : '';
    if (token === undefined || account === '') return;
    const { password: _password, ...rest } = data;
    this.client.setConnectData({ ...rest, token });
    if (this.options.storage) writeAgentLogin(this.options.storage, { account, token });
  }

  /** The socket came back: every open conversation catches up from what it held. */
  private markForCatchUp(): void {
    for (const session of this.queue.getState().sessions) {
      const times = this.timesOf(session.clientId);
      const seq = this.seqOf(session.clientId);
      const time = times[times.length - 1];
      this.catchUpFrom.set(session.clientId, { ...(seq === undefined ? {} : { seq }), ...(time === undefined ? {} : { time }) });
    }
  }

  /** A conversation listed by a snapshot: its newest page on first sight, else a pending catch-up. */
  private sync(session: AgentSession): void {
    const store = this.conversation(session.clientId);
    if (!store.getState().loaded && !store.getState().loading) {
      this.catchUpFrom.delete(session.clientId);
      void this.load(session, store, {}).catch(() => undefined);
      return;
    }
    if (!this.catchUpFrom.has(session.clientId)) return;
    const from = this.catchUpFrom.get(session.clientId) ?? {};
    this.catchUpFrom.delete(session.clientId);
    void this.catchUp(session, store, from).catch(() => undefined);
  }

  /**
   * Fetches everything after what was held (the agent history call with `afterSeq` when the server
   * stamps `seq`, else `after` a time), page by page.
   */
  private async catchUp(session: AgentSession, store: Store<ConversationHistory>, held: { seq?: number; time?: number }): Promise<void> {
    const bySeq = held.seq !== undefined;
    let from = held.seq ?? held.time;
    if (from === undefined) return this.load(session, store, {});
    for (let i = 0; i < this.maxCatchUpPages && !this.destroyed; i++) {
      const page = await this.fetch(session, { ...(bySeq ? { afterSeq: from } : { after: from }), size: 100 });
      this.client.messages.upsertMany(page.list);
      const mark = (m: ChatMessage): number | undefined => (bySeq ? (typeof m.seq === 'number' ? m.seq : undefined) : messageTimeMs(m));
      const newest = Math.max(from, ...page.list.map((m) => mark(m) ?? from!));
      if (!page.hasMore || newest === from) break;
      from = newest;
    }
  }

  private async load(session: AgentSession, store: Store<ConversationHistory>, window: { before?: number }): Promise<void> {
    store.setState({ loading: true, error: null });
    try {
      const page = await this.fetch(session, { ...window, size: this.pageSize });
      if (this.destroyed) return;
      this.client.messages.upsertMany(page.list);
      store.setState({ loading: false, loaded: true, hasMore: page.hasMore });
    } catch (error) {
      store.setState({ loading: false, error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
  }

  private fetch(session: AgentSession, window: { before?: number; after?: number; afterSeq?: number; size: number }): Promise<{ list: StoredMessage[]; hasMore: boolean }> {
    if (session.mchId === undefined || session.platformId === undefined) {
      return Promise.reject(new Error(`The server named no merchant for the conversation with ${session.clientId}; its history cannot be loaded.`));
    }
    return this.client.api.findMsgForCus({ clientId: session.clientId, mchId: session.mchId, platformId: session.platformId, ...window });
  }

  /** The highest `seq` held for the conversation with `clientId`, if the server stamps one. */
  private seqOf(clientId: string): number | undefined {
    let max: number | undefined;
    for (const m of this.client.messages.getSnapshot()) {
      if (ofVisitor(m, clientId) && typeof m.seq === 'number' && (max === undefined || m.seq > max)) max = m.seq;
    }
    return max;
  }

  /** The `createTime`s (ms) held for the conversation with `clientId`, oldest first. */
  private timesOf(clientId: string): number[] {
    const out: number[] = [];
    for (const m of this.client.messages.getSnapshot()) {
      if (!ofVisitor(m, clientId) || !isChatType(m.type) || m.createTime === undefined) continue;
      const t = messageTimeMs(m);
      if (t !== undefined) out.push(t);
    }
    return out.sort((a, b) => a - b);
  }
}
