/**
 * Service sessions: start (created + suggestions + greeting), the robot, transfer to the queue
 * with positions that update as it moves, agents accepting, the end and the rating invite, and the
 * agents' queue snapshots (type 310).
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { ServiceSession } from '../store/types.js';
import {
  agentCard,
  agentMerchants,
  availableAgents,
  DEFAULT_VISITOR_AVATAR,
  merchantAgentsOnline,
  pushToVisitor,
  type ChatContext,
  type VisitorRef,
} from './context.js';
import { Availability, estimatedWait } from '../services/availability.js';
import { AvailabilitySignals, unavailableEvent } from './availability-signals.js';
import type { RosterEntry, SharedSnapshot } from './agent-snapshot.js';
import { SnapshotBroadcast } from './snapshot-broadcast.js';
import { QueueUpdates, queuedEvent } from './queue-updates.js';
import type { Peer } from './hub.js';
import { bestAnswer, type Suggestion } from './robot.js';
import { SuggestedQuestions } from './suggested-questions.js';
import { TEXT_KEYS, textsFor } from './texts.js';
import { T, type WireMessage } from './wire.js';

/** The session summary returned by triggerUpdate. */
export interface SessionSummary {
  /** Session id. */
  sessionId: string;
  /** State. */
  state: ServiceSession['state'];
  /** Queue position (1-based) while queued. */
  position?: number;
  /** The agent's user id while active. */
  agentId?: string;
}

/** Runs the life of service sessions. */
export class Sessions {
  /** Queue position updates to waiting visitors (live, coalesced, not stored). */
  private readonly queueUpdates: QueueUpdates;
  /** Called when who may get a queued visitor changed (routing's trigger; set by the server). */
  onRoutingChange: () => void = () => undefined;
  /** The online agents' status and load for the 310 snapshots (set by the server; none by default). */
  agentRoster: (online: readonly string[]) => Promise<RosterEntry[]> = () => Promise.resolve([]);
  /** The agents' 310 snapshots, broadcast coalesced. */
  private readonly snapshots: SnapshotBroadcast;
  /** Business hours, agents available, the queue's estimated wait. */
  readonly availability: Availability;
  /** Availability told to visitor connections (type 320). */
  private readonly signals: AvailabilitySignals;
  /** The robot's suggested questions. */
  private readonly suggested: SuggestedQuestions;

  /**
   * @param ctx - the chat services' shared state
   * @param onError - where work done later (a coalesced broadcast) reports a failure
   * @param availability - the availability service (built over `ctx` by default)
   */
  constructor(
    private readonly ctx: ChatContext,
    private readonly onError: (error: unknown) => void = (error) => console.error('[kefu-server]', error),
    availability?: Availability,
  ) {
    this.availability =
      availability ?? new Availability({ store: ctx.store, configured: ctx.config.merchantHours, agentsOnline: (mchId) => availableAgents(ctx, mchId) });
    this.signals = new AvailabilitySignals(ctx, this.availability, onError);
    this.suggested = new SuggestedQuestions(ctx);
    this.snapshots = new SnapshotBroadcast(ctx, (online) => this.agentRoster(online), onError);
    this.queueUpdates = new QueueUpdates(ctx, ctx.config.abuse.queueUpdateMs, (mchId) => this.busy(mchId), onError, () => this.availability.waitPerPlace());
  }

  /** The visitor's latest session when it is not ended. */
  async open(v: VisitorRef): Promise<ServiceSession | undefined> {
    const s = await this.ctx.store.chat.latestSession(v.clientId, v.mchId, v.platformId);
    return s && s.state !== 'ended' ? s : undefined;
  }

  /** Whether the visitor ever had a session with this merchant's platform. */
  async hasAny(v: VisitorRef): Promise<boolean> {
    return (await this.ctx.store.chat.latestSession(v.clientId, v.mchId, v.platformId)) !== undefined;
  }

  /**
   * Starts a session: stored and pushed `created`, suggested questions (201) and the greeting
   * (200). When another call (on any node) opened one a moment before, that one is answered and
   * nothing is pushed twice.
   */
  async start(v: VisitorRef): Promise<ServiceSession> {
    const session: ServiceSession = {
      sessionId: randomUUID(),
      clientId: v.clientId,
      mchId: v.mchId,
      platformId: v.platformId,
      state: 'robot',
      agentId: null,
      createdAt: Date.now(),
      queuedAt: null,
      acceptedAt: null,
      endedAt: null,
      score: null,
      remark: null,
    };
    if (!(await this.ctx.store.chat.createSession(session))) {
      const open = await this.open(v);
      if (open) return open;
      throw new Error(`no session could be opened for visitor ${v.clientId}`);
    }
    await pushToVisitor(this.ctx, v, session.sessionId, T.SessionEvent, JSON.stringify({ event: 'created', sessionId: session.sessionId }));
    const suggested = await this.pushSuggestions(v, session.sessionId);
    // the greeting points to the questions only when there are some; its key lets a client show
    // it in the visitor's language of the moment (docs/protocol.md "Text keys")
    const texts = textsFor(v.language);
    const [greeting, textKey] = suggested.length > 0 ? [texts.greeting, TEXT_KEYS.greeting] : [texts.greetingNoQuestions, TEXT_KEYS.greetingNoQuestions];
    await pushToVisitor(this.ctx, v, session.sessionId, T.RobotText, greeting, { textKey });
    return session;
  }

  /** The open session, or a newly started one. */
  async ensureOpen(v: VisitorRef): Promise<ServiceSession> {
    return (await this.open(v)) ?? (await this.start(v));
  }

  /** Pushes the suggested questions (type 201) in the visitor's language; returns them. */
  pushSuggestions(v: VisitorRef, sessionId: string | null): Promise<Suggestion[]> {
    return this.suggested.push(v, sessionId);
  }

  /**
   * The visitor changed its language (type 106, see `visitor-language.ts`): while the robot serves,
   * the connection gets the suggested questions again, in the new language (live, not stored).
   */
  async languageChanged(v: VisitorRef, send: (message: WireMessage) => void): Promise<void> {
    const session = await this.open(v);
    if (session?.state === 'robot') send(await this.suggested.live(v));
  }

  /** The robot answers a visitor's text in a robot-state session. */
  async robotReply(v: VisitorRef, session: ServiceSession, text: string): Promise<void> {
    const all = await this.ctx.store.directory.questions(v.mchId, v.platformId);
    const match = bestAnswer(text, all);
    if (match) {
      await pushToVisitor(this.ctx, v, session.sessionId, T.RobotText, match.answer);
      return;
    }
    await pushToVisitor(this.ctx, v, session.sessionId, T.RobotText, textsFor(v.language).notUnderstood);
    await this.pushSuggestions(v, session.sessionId);
  }

  /**
   * Type 301: the visitor asks for a human and joins the queue (or is told where it stands).
   * When nobody can come it is told so at once (a live `unavailable` event, docs/protocol.md):
   * outside business hours it stays with the robot; inside them with no agent online it still
   * queues (busy), so that the first agent to arrive serves it, and may leave a message meanwhile.
   */
  async transfer(v: VisitorRef): Promise<ServiceSession> {
    const session = await this.ensureOpen(v);
    if (session.state === 'robot') {
      const availability = await this.availability.of(v.mchId);
      const reason = Availability.unavailableReason(availability);
      if (reason !== null) this.ctx.hub.sendTo(session.clientId, unavailableEvent(session, reason, availability));
      if (reason === 'closed') {
        await pushToVisitor(this.ctx, v, session.sessionId, T.RobotText, textsFor(v.language).closed);
        return session;
      }
      session.state = 'queued';
      session.queuedAt = Date.now();
      await this.ctx.store.chat.updateSession(session);
      await this.queueUpdates.tellNow(session);
      this.broadcastSnapshots();
      const busy = await this.busy(v.mchId);
      const texts = textsFor(v.language);
      await pushToVisitor(this.ctx, v, session.sessionId, T.RobotText, busy ? texts.busy : texts.queued(await this.position(session.sessionId)));
      // routed after the robot told the position (an agent joining at once comes after it)
      this.onRoutingChange();
    } else {
      await this.pushState(v, session);
    }
    return session;
  }

  /**
   * Type 311: an agent accepts a queued visitor. Returns false when the visitor is not queued with
   * one of the agent's merchants.
   */
  async accept(agentId: string, clientId: string): Promise<boolean> {
    // one conditional update: of two agents (on any nodes) accepting at once, one gets the visitor
    const session = await this.ctx.store.chat.claimQueued(clientId, agentId, Date.now(), await agentMerchants(this.ctx, agentId));
    if (!session) return false;
    await this.assigned(session);
    return true;
  }

  /** A queued session was given to its agent (accepted, routed or transferred): everyone is told. */
  async assigned(session: ServiceSession): Promise<void> {
    const agentId = session.agentId ?? '';
    this.queueUpdates.forget(session.sessionId);
    const agent = await agentCard(this.ctx, agentId);
    await pushToVisitor(this.ctx, await this.visitorOfSession(session), session.sessionId, T.SessionEvent, JSON.stringify({ event: 'agent-joined', sessionId: session.sessionId, agent }));
    this.queueUpdates.changed();
    this.broadcastSnapshots();
  }

  /**
   * The agent logged out or stayed away past its grace period: each of its active sessions goes
   * back to the robot (same session id), and its visitor gets a stored `agent-left` event and the
   * robot's word that it may ask for another agent (301) or leave a message (401).
   * @returns the visitors released
   */
  async agentGone(agentId: string): Promise<string[]> {
    const released: string[] = [];
    for (const session of await this.ctx.store.chat.activeSessions(agentId)) {
      session.state = 'robot';
      session.agentId = null;
      session.queuedAt = null;
      session.acceptedAt = null;
      await this.ctx.store.chat.updateSession(session);
      const v = await this.visitorOfSession(session);
      const agent = await agentCard(this.ctx, agentId);
      await pushToVisitor(this.ctx, v, session.sessionId, T.SessionEvent, JSON.stringify({ event: 'agent-left', sessionId: session.sessionId, agent }));
      await pushToVisitor(this.ctx, v, session.sessionId, T.RobotText, textsFor(v.language).agentLeft);
      released.push(session.clientId);
    }
    if (released.length > 0) this.agentsChanged();
    return released;
  }

  /**
   * Ends a session (a 302 of the visitor or of its agent, `by`): stored and pushed `ended` and
   * `rate-invite` (to the visitor and its agent). Its end time is a message-clock time, so every
   * message of the conversation is older (a desk shows its messages up to the end).
   */
  async end(session: ServiceSession, by: 'visitor' | 'agent'): Promise<void> {
    if (session.state === 'ended') return;
    const wasQueued = session.state === 'queued';
    const agentId = session.agentId;
    session.state = 'ended';
    session.endedBy = by;
    session.endedAt = this.ctx.clock.next();
    await this.ctx.store.chat.updateSession(session);
    this.queueUpdates.forget(session.sessionId);
    const v = await this.visitorOfSession(session);
    const alsoTo = agentId ? [agentId] : [];
    await pushToVisitor(this.ctx, v, session.sessionId, T.SessionEvent, JSON.stringify({ event: 'ended', sessionId: session.sessionId }), { alsoTo });
    await pushToVisitor(this.ctx, v, session.sessionId, T.SessionEvent, JSON.stringify({ event: 'rate-invite', sessionId: session.sessionId }));
    if (wasQueued) this.queueUpdates.changed();
    this.broadcastSnapshots();
    this.onRoutingChange();
  }

  /**
   * The visitor rated a session (markScore): its agent hears it live as a session event `rated`
   * (`{ event, sessionId, clientId, score, remark? }`), not stored. Never throws.
   */
  async rated(sessionId: string): Promise<void> {
    try {
      const session = await this.ctx.store.chat.session(sessionId);
      if (!session?.agentId || session.score === null) return;
      const content = { event: 'rated', sessionId, clientId: session.clientId, score: session.score, ...(session.remark ? { remark: session.remark } : {}) };
      this.ctx.hub.sendTo(session.agentId, { type: T.SessionEvent, from: 'system', to: session.agentId, fp: randomUUID(), createTime: Date.now(), dataContent: JSON.stringify(content) });
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * Re-sends the session's current state as a session event (triggerUpdate, repeated 301); a
   * queue position is sent live, not stored.
   */
  async pushState(v: VisitorRef, session: ServiceSession): Promise<void> {
    if (session.state === 'queued') {
      await this.queueUpdates.tellNow(session);
      return;
    }
    let content: Record<string, unknown> = { event: 'created', sessionId: session.sessionId };
    if (session.state === 'active' && session.agentId) {
      content = { event: 'agent-joined', sessionId: session.sessionId, agent: await agentCard(this.ctx, session.agentId) };
    } else if (session.state === 'ended') {
      content = { event: 'ended', sessionId: session.sessionId };
    }
    await pushToVisitor(this.ctx, v, session.sessionId, T.SessionEvent, JSON.stringify(content));
  }

  /**
   * The visitor's service state as a session event (type 300, `event: 'state'`), sent right after
   * the welcome so a reloaded page or a new tab shows the robot, the queue position, the serving
   * agent or the end again. Not stored as a message. Null when the visitor has no session yet.
   */
  async stateMessage(v: Pick<VisitorRef, 'clientId' | 'mchId' | 'platformId'>): Promise<WireMessage | null> {
    const session = await this.ctx.store.chat.latestSession(v.clientId, v.mchId, v.platformId);
    if (!session) return null;
    const content: Record<string, unknown> = { event: 'state', state: session.state, sessionId: session.sessionId };
    if (session.state === 'queued') {
      const position = await this.position(session.sessionId);
      Object.assign(content, { position, busy: await this.busy(session.mchId), etaMs: estimatedWait(await this.availability.waitPerPlace(), position) });
    }
    if (session.state === 'active' && session.agentId) {
      content.agent = await agentCard(this.ctx, session.agentId);
    }
    return { type: T.SessionEvent, from: 'system', to: v.clientId, fp: randomUUID(), sm: Date.now(), dataContent: JSON.stringify(content) };
  }

  /**
   * Sends a visitor's connection its {@link Sessions.stateMessage}, if it has a session, and its
   * merchant's availability (type 320).
   */
  async sendState(peer: Peer): Promise<void> {
    const message = await this.stateMessage({ clientId: peer.userId, mchId: peer.mchId, platformId: peer.platformId });
    if (message) peer.send(message);
    await this.signals.welcome(peer);
  }

  /** A summary for triggerUpdate. */
  async summary(session: ServiceSession): Promise<SessionSummary> {
    const out: SessionSummary = { sessionId: session.sessionId, state: session.state };
    if (session.state === 'queued') out.position = await this.position(session.sessionId);
    if (session.agentId) out.agentId = session.agentId;
    return out;
  }

  /** Agents came or went, or one changed its status: queued visitors learn whether they are busy, agents get snapshots. */
  agentsChanged(): void {
    this.queueUpdates.changed();
    this.broadcastSnapshots();
    this.signals.changed();
    this.onRoutingChange();
  }

  /**
   * A visitor's socket was accepted again (reload, reconnect, another tab): a queued visitor is
   * told its position live on that socket, since positions are not in the history; one the robot
   * serves gets the suggested questions again (the greeting points to them).
   */
  async resumed(v: VisitorRef, send: (message: WireMessage) => void): Promise<void> {
    const session = await this.open(v);
    if (session?.state === 'robot') send(await this.suggested.live(v));
    if (session?.state !== 'queued') return;
    const position = await this.position(session.sessionId);
    if (position > 0) send(queuedEvent(session, position, await this.busy(session.mchId), estimatedWait(await this.availability.waitPerPlace(), position)));
  }

  /** The 310 snapshot for one agent (`shared`: the part built once for this change). */
  snapshotFor(agentId: string, shared?: SharedSnapshot): Promise<WireMessage> {
    return this.snapshots.snapshotFor(agentId, shared);
  }

  /**
   * Sends every online agent its snapshot, coalesced (`SNAPSHOT_COALESCE_MS`, `snapshot-broadcast.ts`):
   * changes that come in a burst (many visitors queueing at once) make one snapshot, not one each.
   */
  broadcastSnapshots(): void {
    this.snapshots.schedule();
  }

  /** Stops a pending snapshot broadcast and the other timers (server shutdown). */
  dispose(): void {
    this.snapshots.dispose();
    this.queueUpdates.dispose();
    this.signals.dispose();
  }

  /** Whether no agent of the merchant is online (its visitors may leave a message). */
  private async busy(mchId: string): Promise<boolean> {
    return (await merchantAgentsOnline(this.ctx, mchId)).length === 0;
  }

  private position(sessionId: string): Promise<number> {
    return this.queueUpdates.positionOf(sessionId);
  }

  /** The visitor of a session, as a reference for pushes. */
  async visitorOfSession(session: ServiceSession): Promise<VisitorRef> {
    const visitor = await this.ctx.store.chat.visitor(session.clientId);
    return {
      clientId: session.clientId,
      name: visitor?.name ?? session.clientId,
      avatar: visitor?.avatar ?? DEFAULT_VISITOR_AVATAR,
      mchId: session.mchId,
      platformId: session.platformId,
      language: visitor?.language ?? 'zh',
    };
  }
}

