/**
 * The agent's desk: a composition root over the agent's `ImClient`, the way `client.ts`
 * composes the engine. Each power of the desk is a manager of its own (a store plus calls):
 * the queue ({@link DeskQueue}, type 310 snapshots and accept), the conversations
 * ({@link DeskConversations}: histories with the agent history call, catch-up, end, ended
 * conversations and ratings), the preview of a queued visitor ({@link DeskPreview}) and the login ({@link DeskLogin}: the kept session token, logout).
 * Every listener and timer is registered in one disposer set that {@link AgentDesk.destroy} runs.
 *
 * Data flows one way: frames and history pages go into the client's message list and into the
 * managers' stores; a desk UI only reads the stores and calls the methods.
 * @module
 */
import type { StorageLike } from '../options.js';
import type { AgentSession } from '../messages/types.js';
import type { Store } from '../state/store.js';
import { defaultTimers, Disposables, type TimerProvider } from '../timers.js';
import { DeskApi } from './desk-api.js';
import { DeskCanned } from './canned.js';
import { DeskContext } from './context.js';
import { DeskConversations } from './conversations.js';
import type { DeskClient } from './desk-client.js';
import { DeskLogin } from './login.js';
import { DeskPast } from './past.js';
import { DeskPreview } from './preview.js';
import { DeskQueue, type AgentDeskSnapshot } from './queue.js';
import { DeskStatus, type AgentStatus, type DeskStatusState } from './status.js';
import { DeskTransfer } from './transfer.js';
import type { ConversationHistory } from './visitor-thread.js';

/** Options of {@link AgentDesk}. */
export interface AgentDeskOptions {
  /** Where the login is kept across reloads (`localStorage` in a browser); default: not kept. */
  storage?: StorageLike;
  /** Messages per history page (default 50, at most 100). */
  pageSize?: number;
  /** Past conversations per page (default 20, at most 50). */
  pastPageSize?: number;
  /** Pages fetched at most by one catch-up (default 20). */
  maxCatchUpPages?: number;
  /** The timers (default: `globalThis`'s, looked up at call time; tests inject fake ones). */
  timers?: TimerProvider;
}

/**
 * An agent's desk over an `ImClient` connected with agent connect data
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
  readonly queue: Store<AgentDeskSnapshot>;
  /** The queue manager: the last snapshot and accept. */
  readonly queueManager: DeskQueue;
  /** The conversations manager: open and ended conversations, histories, end, close. */
  readonly conversations: DeskConversations;
  /** The login manager: the kept session token, logout (here or everywhere), `store.loggedOutElsewhere`. */
  readonly login: DeskLogin;
  /** This agent's status, capacity and load, the other online agents and transfer notes. */
  readonly status: Store<DeskStatusState>;
  /** The status manager: setStatus, the other agents, notes of conversations transferred here. */
  readonly statusManager: DeskStatus;
  /** Transfers: the call and the latest outcome (`transfers.store`). */
  readonly transfers: DeskTransfer;
  /** Canned replies per merchant: store, list, add, remove, `suggest(mchId, prefix)`. */
  readonly canned: DeskCanned;
  /** Past conversations: paged listing, search, open read-only; queued transcripts. */
  readonly past: DeskPast;
  /** The preview of a queued visitor: what it wrote, read before accepting. */
  readonly preview: DeskPreview;
  /** Visitor context per client id (the context panel). */
  readonly context: DeskContext;
  private readonly disposables: Disposables;

  /**
   * @param client - the agent's client (its connect data has `role: 'agent'`)
   * @param options - storage for the kept login, page sizes, timers
   */
  constructor(client: DeskClient, options: AgentDeskOptions = {}) {
    const timers = options.timers ?? defaultTimers;
    this.disposables = new Disposables(timers);
    this.queueManager = new DeskQueue(client, this.disposables);
    this.queue = this.queueManager.store;
    const calls = { api: new DeskApi(client.api) };
    this.conversations = new DeskConversations(client, {
      calls,
      disposables: this.disposables,
      timers,
      sessions: this.queue,
      pageSize: Math.min(100, Math.max(1, options.pageSize ?? 50)),
      maxCatchUpPages: Math.max(1, options.maxCatchUpPages ?? 20),
    });
    this.login = new DeskLogin(client, this.disposables, options.storage);
    this.canned = new DeskCanned(calls);
    this.context = new DeskContext(calls);
    this.past = new DeskPast(calls, Math.min(50, Math.max(1, options.pastPageSize ?? 20)));
    this.preview = new DeskPreview(calls, this.queue, this.disposables);
    this.statusManager = new DeskStatus(client, this.disposables);
    this.status = this.statusManager.store;
    this.transfers = new DeskTransfer(client, this.disposables);
  }

  /** Sets this agent's status (type 313): `away` agents get no new visitors and keep their current ones. */
  setStatus(status: AgentStatus): void {
    this.statusManager.setStatus(status);
  }

  /**
   * Transfers the conversation with `clientId` to the available agent `toAgentId` (type 314) with
   * an optional note the visitor does not see; the visitor is told who serves it now, and the
   * conversation stays on this desk, read-only, as `transferred`. Resolves once the server moved
   * it; rejects with a `TransferError` whose `reason` says why not (`at-capacity`, `agent-away`,
   * `agent-offline`, `not-allowed`, ...), also kept in `transfers.store`.
   */
  transfer(clientId: string, toAgentId: string, note?: string): Promise<void> {
    return this.transfers.transfer(clientId, toAgentId, note);
  }

  /** The history state of the conversation with `clientId` (a store; created on first use). */
  conversation(clientId: string): Store<ConversationHistory> {
    return this.conversations.history(clientId);
  }

  /** The open conversation with `clientId`, if the last snapshot lists it. */
  session(clientId: string): AgentSession | undefined {
    return this.queueManager.session(clientId);
  }

  /**
   * Accepts a waiting visitor (type 311); its whole history loads when the snapshot lists it. The
   * preview of that visitor, if open, closes.
   */
  accept(clientId: string): void {
    this.queueManager.accept(clientId);
    if (this.preview.store.getState().visitor?.clientId === clientId) this.preview.close();
  }

  /** Ends the conversation with `clientId` (type 302); it stays on the desk, ended, until closed. */
  end(clientId: string): void {
    this.conversations.end(clientId);
  }

  /**
   * Loads the page of history older than what the list holds for `clientId` (the agent history
   * call). Resolves when it is in the message list; a failure is kept in the conversation's
   * `error` (and rejects).
   */
  loadOlder(clientId: string): Promise<void> {
    return this.conversations.loadOlder(clientId);
  }

  /**
   * Logs out (type 312): the server revokes the session token and releases the agent's visitors at
   * once; the kept login is forgotten and the client disconnects. Resolves when the server closed
   * the socket (at most 3 s, or at once when the desk is destroyed meanwhile).
   */
  logout(): Promise<void> {
    return this.login.logout();
  }

  /**
   * Logs out everywhere (type 312 with `{ everywhere: true }`): the server revokes every session
   * token of the account and closes every desk of the agent, in any tab, browser or device, on
   * every node; the agent's visitors are released at once. This desk forgets its kept login and
   * disconnects; the others forget theirs too and report it in `login.store`
   * (`loggedOutElsewhere`). Resolves when the server closed this socket (at most 3 s, or at once
   * when the desk is destroyed meanwhile).
   * @throws Error (a rejection) while the socket is not open: nothing is done, this desk stays logged in.
   */
  logoutEverywhere(): Promise<void> {
    return this.login.logout({ everywhere: true });
  }

  /** How many listeners and timers the desk holds (0 after {@link AgentDesk.destroy}). */
  get liveDisposers(): number {
    return this.disposables.size;
  }

  /** Stops listening and cancels every timer (the client is left as it is). */
  destroy(): void {
    this.disposables.dispose();
  }
}
