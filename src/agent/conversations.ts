/**
 * The desk's conversations manager: every conversation on the agent's desk (the open ones of the
 * type 310 snapshots, and those that ended or were transferred to another agent, kept read-only
 * until the agent closes them), each visitor's history (loaded when a conversation first shows,
 * caught up after every reconnect and when a visitor comes back with a new conversation), the end
 * call (type 302), and what the server says about an end (session event `ended`), the visitor's
 * rating (`rated`) and a transfer (`transferred-away`). The server keeps the ended conversations
 * the agent has not closed and lists them in every snapshot (`ended`), so they come back after a
 * reload; closing one tells the server (`agent/closeConversation`).
 * @module
 */
import { messageTimeMs, parseSessionEvent } from '../messages/content.js';
import type { CatchUpMark } from '../messages/history.js';
import { MessageType, type AgentSession, type ChatMessage } from '../messages/types.js';
import { createStore, type Store } from '../state/store.js';
import type { Disposables, TimerProvider } from '../timers.js';
import { listen, type DeskCallsHolder, type DeskClient } from './desk-client.js';
import { parseRestored, parseTransferred, type RestoredConversation, type RestoredTransfer } from './ended.js';
import { transferredAway } from './transfer.js';
import { FRESH_HISTORY, VisitorThread, type ConversationHistory } from './visitor-thread.js';

/** The visitor's rating of a conversation (`markScore`), as the server told the agent. */
export interface ConversationRating {
  /** 1 to 5. */
  readonly score: number;
  /** The visitor's remark, if any. */
  readonly remark?: string;
}

/** The agent a conversation was transferred to. */
export interface TransferTarget {
  /** User id (`agent:<account>`). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
}

/** One conversation on the desk. */
export interface DeskConversation {
  /** The conversation's id on the server. */
  readonly sessionId: string;
  /** The visitor's client id. */
  readonly clientId: string;
  /** The visitor's display name. */
  readonly name: string;
  /** Since when the agent serves it, ms. */
  readonly since: number;
  /** The merchant of the conversation. */
  readonly mchId?: string;
  /** The merchant's platform. */
  readonly platformId?: string;
  /**
   * `active` while the agent serves it; `ended` once it ended, `transferred` once it went to
   * another agent (both read-only until closed).
   */
  readonly status: 'active' | 'ended' | 'transferred';
  /** Who ended it, when known: the visitor, or this agent (`end`). */
  readonly endedBy?: 'visitor' | 'agent';
  /**
   * When it ended or was transferred, ms (the server's time of the event, else when the desk
   * noticed): its messages on this desk are those up to then.
   */
  readonly endedAt?: number;
  /** The visitor's rating, once given. */
  readonly rating?: ConversationRating;
  /** The agent it was transferred to (status `transferred`). */
  readonly transferredTo?: TransferTarget;
}

/** The conversations on the desk (`desk.conversations.store.getSnapshot()`), in the order they came. */
export interface DeskConversationsSnapshot {
  /** Open and ended conversations; a visitor who came back has one of each. */
  readonly list: readonly DeskConversation[];
}

/** The time window of a conversation's messages in the visitor's thread (ms, both ends included). */
export interface ConversationWindow {
  /** Messages after this time (the end of the visitor's previous conversation on the desk). */
  readonly after?: number;
  /** Messages up to this time (the conversation's end). */
  readonly until?: number;
}

/** What {@link DeskConversations} needs besides the client. @internal */
export interface DeskConversationsDeps {
  /** Where listeners are registered. */
  disposables: Disposables;
  /** The clock of `endedAt` when the server gave no time. */
  timers: Pick<TimerProvider, 'now'>;
  /** The open conversations of the last snapshot (the queue manager's store). */
  sessions: Store<{ readonly sessions: readonly AgentSession[] }>;
  /** Messages per page of older history. */
  pageSize: number;
  /** Pages fetched at most by one catch-up. */
  maxCatchUpPages: number;
  /** The desk's calls (closing an ended conversation tells the server); without them closing is local. */
  calls?: DeskCallsHolder;
}

/** Every conversation on the desk and each visitor's history. */
export class DeskConversations {
  /** The conversations, for `useSyncExternalStore`. */
  readonly store: Store<DeskConversationsSnapshot> = createStore<DeskConversationsSnapshot>({ list: [] });
  private readonly threads = new Map<string, VisitorThread>();
  private readonly histories = new Map<string, Store<ConversationHistory>>();
  /** Per visitor: what was held when the socket dropped (the catch-up starts there). */
  private readonly marks = new Map<string, CatchUpMark>();
  /** Conversations this agent asked to end (302), by visitor. */
  private readonly ending = new Set<string>();
  /** Conversations closed on this desk (a snapshot listing one again, built before, does not bring it back). */
  private readonly closed = new Set<string>();
  private destroyed = false;

  /**
   * @param client - the agent's client
   * @param deps - disposables, clock, the snapshot store and the page sizes
   * @internal the desk composes it
   */
  constructor(
    private readonly client: DeskClient,
    private readonly deps: DeskConversationsDeps,
  ) {
    const { disposables } = deps;
    disposables.add(deps.sessions.subscribe((state) => this.sync(state.sessions)));
    listen(disposables, client, 'socket login', ({ reconnected }) => {
      if (reconnected) this.markForCatchUp();
    });
    listen(disposables, client, 'socket message', ({ message }) => {
      if (message.type === MessageType.SessionEvent) this.onSessionEvent(message);
      else if (message.type === MessageType.AgentQueue) {
        this.restore(parseRestored(message.dataContent));
        this.restoreTransferred(parseTransferred(message.dataContent));
      }
    });
    disposables.add(() => {
      this.destroyed = true;
      for (const thread of this.threads.values()) thread.stop();
    });
  }

  /** The history state of the conversation with `clientId` (a store; created on first use). */
  history(clientId: string): Store<ConversationHistory> {
    let store = this.histories.get(clientId);
    if (!store) {
      store = createStore<ConversationHistory>(FRESH_HISTORY);
      this.histories.set(clientId, store);
    }
    return store;
  }

  /**
   * Loads the page of history older than what the list holds for `clientId` (the agent history
   * call). Resolves when it is in the message list; a failure is kept in the conversation's
   * `error` (and rejects).
   */
  async loadOlder(clientId: string): Promise<void> {
    const thread = this.threads.get(clientId);
    const state = thread?.history.getState();
    if (!thread || !state || state.loading || (state.loaded && !state.hasMore)) return;
    await thread.loadOlder();
  }

  /** Ends the conversation with `clientId` (type 302); it stays on the desk, ended, until closed. */
  end(clientId: string): void {
    this.ending.add(clientId);
    this.client.send({ type: MessageType.EndConversation, to: clientId, dataContent: '{}' });
  }

  /**
   * Takes an ended or transferred conversation off the desk at once (an open one stays) and tells
   * the server, which then lists it no more after a reload (neither in `ended` nor in `transferred`).
   * @returns whether the server kept it closed (false: it could not be told; closed on this desk only)
   */
  async close(sessionId: string): Promise<boolean> {
    const conversation = this.store.getState().list.find((c) => c.sessionId === sessionId);
    if (!conversation || conversation.status === 'active') return false;
    this.closed.add(sessionId);
    this.store.setState(({ list }) => ({ list: list.filter((c) => c.sessionId !== sessionId) }));
    if (!this.deps.calls) return false;
    try {
      await this.deps.calls.api.agentCloseConversation({ sessionId });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The time window of a conversation's messages: after the end of the same visitor's previous
   * conversation on the desk, up to its own end. Empty (the whole thread) without either.
   */
  window(sessionId: string): ConversationWindow {
    const list = this.store.getState().list;
    const index = list.findIndex((c) => c.sessionId === sessionId);
    const conversation = list[index];
    if (!conversation) return {};
    const earlier = list.slice(0, index).filter((c) => c.clientId === conversation.clientId && c.endedAt !== undefined);
    const after = earlier.length === 0 ? undefined : Math.max(...earlier.map((c) => c.endedAt as number));
    return { ...(after === undefined ? {} : { after }), ...(conversation.endedAt === undefined ? {} : { until: conversation.endedAt }) };
  }

  /** A snapshot listed the open conversations: add new ones, end those that left, load histories. */
  private sync(sessions: readonly AgentSession[]): void {
    const listed = new Map(sessions.map((s) => [s.sessionId, s]));
    const now = this.deps.timers.now();
    this.store.setState(({ list }) => {
      const next = list.map((c): DeskConversation => {
        const again = listed.get(c.sessionId);
        // back with this agent under the same id (it had left the desk without an end, e.g. the grace period)
        if (again) return c.status === 'active' ? c : { ...again, status: 'active', ...(c.rating ? { rating: c.rating } : {}) };
        if (c.status !== 'active') return c;
        const endedBy = c.endedBy ?? (this.ending.delete(c.clientId) ? 'agent' : undefined);
        return { ...c, status: 'ended', endedAt: c.endedAt ?? now, ...(endedBy ? { endedBy } : {}) };
      });
      const known = new Set(next.map((c) => c.sessionId));
      for (const s of sessions) if (!known.has(s.sessionId)) next.push({ ...s, status: 'active' });
      // an end asked for a visitor without an open conversation is moot
      for (const clientId of this.ending) if (!next.some((c) => c.clientId === clientId && c.status === 'active')) this.ending.delete(clientId);
      return { list: next };
    });
    for (const session of sessions) this.syncThread(session);
  }

  /**
   * A listed conversation's thread: its newest page on first sight, a catch-up after a reconnect,
   * and a catch-up when a visitor the desk already knows comes back with a new conversation (its
   * robot phase happened while the desk was not told).
   */
  private syncThread(session: AgentSession): void {
    let thread = this.threads.get(session.clientId);
    const isNew = thread === undefined || thread.session.sessionId !== session.sessionId;
    if (!thread) {
      thread = new VisitorThread(this.client, session, this.deps.pageSize, this.history(session.clientId));
      this.threads.set(session.clientId, thread);
    }
    thread.session = session;
    const { loaded, loading } = thread.history.getState();
    const mark = this.marks.get(session.clientId) ?? (isNew && loaded ? thread.mark() : undefined);
    this.marks.delete(session.clientId);
    if (!loaded && !loading) void thread.loadOlder().catch(() => undefined);
    else if (mark) void thread.catchUp(mark, this.deps.maxCatchUpPages).catch(() => undefined);
  }

  /** The socket came back: every open conversation catches up from what it held. */
  private markForCatchUp(): void {
    for (const c of this.store.getState().list) {
      const thread = this.threads.get(c.clientId);
      if (c.status === 'active' && thread) this.marks.set(c.clientId, thread.mark());
    }
  }

  /**
   * A snapshot's `ended` list: the server's word on who ended each and the rating; one the desk
   * does not show yet (a reload) joins in the order of when it started, its history loaded.
   */
  private restore(entries: readonly RestoredConversation[] | undefined): void {
    if (!entries || this.destroyed) return;
    const fresh: RestoredConversation[] = [];
    this.store.setState(({ list }) => {
      const next = [...list];
      for (const e of entries) {
        if (this.closed.has(e.sessionId)) continue;
        const i = next.findIndex((c) => c.sessionId === e.sessionId);
        const held = next[i];
        if (held) {
          if (held.status === 'ended' && !agrees(held, e)) next[i] = { ...held, endedAt: e.endedAt, ...(e.endedBy ? { endedBy: e.endedBy } : {}), ...(e.rating ? { rating: e.rating } : {}) };
          continue;
        }
        const at = next.findIndex((c) => c.since > e.since);
        next.splice(at < 0 ? next.length : at, 0, { ...e, status: 'ended' });
        fresh.push(e);
      }
      return fresh.length === 0 && next.every((c, i) => c === list[i]) ? null : { list: next };
    });
    for (const e of fresh) {
      if (this.threads.has(e.clientId)) continue; // the visitor's open conversation already loads its thread
      this.syncThread({ sessionId: e.sessionId, clientId: e.clientId, name: e.name, since: e.since, ...(e.mchId ? { mchId: e.mchId } : {}), ...(e.platformId ? { platformId: e.platformId } : {}) });
    }
  }

  /**
   * A snapshot's `transferred` list: what this agent handed to another agent and has not closed.
   * One the desk shows open stays open (the snapshot lists it as this agent's); one the desk took
   * for ended (the snapshot came before the `transferred-away` event) is transferred; one it does
   * not show yet (a reload) joins, transferred, in the order of when it started. Its history is
   * not fetched: the agent lost access with the transfer (the history call answers 4003).
   */
  private restoreTransferred(entries: readonly RestoredTransfer[] | undefined): void {
    if (!entries || this.destroyed) return;
    this.store.setState(({ list }) => {
      let changed = false;
      const next = [...list];
      for (const e of entries) {
        if (this.closed.has(e.sessionId)) continue;
        const i = next.findIndex((c) => c.sessionId === e.sessionId);
        const held = next[i];
        const moved = { status: 'transferred' as const, transferredTo: { id: e.to.id, name: e.to.name }, endedAt: e.transferredAt };
        if (held) {
          if (held.status === 'active' || (held.status === 'transferred' && held.transferredTo?.id === e.to.id)) continue;
          const { endedBy: _guess, ...rest } = held; // the desk's guess of an end: it was a transfer
          next[i] = { ...rest, ...moved };
          changed = true;
          continue;
        }
        const { transferredAt: _at, to: _to, ...conversation } = e;
        const at = next.findIndex((c) => c.since > e.since);
        next.splice(at < 0 ? next.length : at, 0, { ...conversation, ...moved });
        changed = true;
      }
      return changed ? { list: next } : null;
    });
  }

  /** `ended`, `rated` and `transferred-away` (type 300) of a conversation on the desk. */
  private onSessionEvent(message: ChatMessage): void {
    const event = parseSessionEvent(message.dataContent);
    const sessionId = event?.sessionId;
    if (!event || sessionId === undefined || this.destroyed) return;
    const moved = transferredAway(message.dataContent);
    if (moved) {
      const endedAt = messageTimeMs(message) ?? this.deps.timers.now();
      this.patch(sessionId, () => ({ status: 'transferred', transferredTo: { id: moved.to, name: moved.toName }, endedAt }));
    } else if (event.event === 'ended') {
      const endedAt = messageTimeMs(message) ?? this.deps.timers.now();
      this.patch(sessionId, (c) => {
        const endedBy = c.endedBy ?? (this.ending.delete(c.clientId) ? 'agent' : 'visitor');
        return { status: 'ended', endedBy, endedAt };
      });
    } else if (event.event === 'rated' && typeof event.score === 'number') {
      const rating: ConversationRating = { score: event.score, ...(typeof event.remark === 'string' && event.remark !== '' ? { remark: event.remark } : {}) };
      this.patch(sessionId, () => ({ rating }));
    }
  }

  private patch(sessionId: string, change: (c: DeskConversation) => Partial<DeskConversation>): void {
    this.store.setState(({ list }) => {
      if (!list.some((c) => c.sessionId === sessionId)) return null;
      return { list: list.map((c) => (c.sessionId === sessionId ? { ...c, ...change(c) } : c)) };
    });
  }
}

/** Whether an ended conversation on the desk already says what the server's entry says. */
function agrees(held: DeskConversation, e: RestoredConversation): boolean {
  return (
    held.endedAt === e.endedAt &&
    (e.endedBy === undefined || held.endedBy === e.endedBy) &&
    (e.rating === undefined || (held.rating?.score === e.rating.score && held.rating.remark === e.rating.remark))
  );
}
