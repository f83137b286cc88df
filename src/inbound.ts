/**
 * Routes one decoded incoming message to the managers that care: delivery acknowledgements,
 * receipts, suggestions, session events, refusals, and chat messages.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { ClientContext } from './client-context.js';
import { asError } from './errors.js';
import type { ErrorSource, ImClientEvents, NoticeLevel } from './events.js';
import type { NoticeKey } from './i18n/index.js';
import { isChatType, parseRefusal, parseSessionEvent, parseSuggestions } from './messages/content.js';
import { toldOf } from './messages/told.js';
import type { MessageList } from './messages/message-list.js';
import { MessageType, type ChatMessage, type FailReason } from './messages/types.js';
import type { ReceiptManager } from './receipts/receipt-manager.js';
import type { SessionState } from './session.js';
import { reduceSessionEvent } from './session-events.js';
import type { Outbox } from './outbox/outbox.js';
import { FrameError } from './socket/frame-encode.js';
import type { DecodedFrame } from './socket/link.js';
import type { Store } from './state/store.js';

/** The notice each refusal reason shows; any other reason shows `sendFailed`. @internal */
export const REFUSAL_NOTICES: Readonly<Record<string, NoticeKey>> = Object.freeze({
  'too-frequent': 'sendTooFrequent',
  blank: 'blankMessage',
  blacklisted: 'blacklisted',
  banned: 'banned',
});

/** What the router needs from the client. @internal */
export interface InboundContext {
  messages: MessageList;
  outbox: Outbox;
  session: Store<SessionState>;
  receipts: ReceiptManager;
  selfId(): string | undefined;
  events: Pick<EventEmitter<ImClientEvents>, 'emit'>;
  notify(key: NoticeKey, level: NoticeLevel): void;
  /** Fails a refused message; false when it stays pending (sent again later: no notice). */
  markFailed(fp: string, reason: FailReason): boolean | void;
  reportError(error: Error, source: ErrorSource): void;
}

/**
 * Routes one incoming message (protocol §4-§5). An echo of a message in the outbox is its
 * acknowledgement; everything else goes by type. Unknown types that look like chat content are
 * kept as messages, never dropped. A chat message is told once (`message`): when it first joins
 * the list, or, one's own, when the server confirms it; what reaches the client again (a resend's
 * acknowledgement, a catch-up page) only updates the list.
 * @param caughtUp - true for a message of the catch-up after a reconnect (a history page)
 * @internal
 */
export function routeInbound(message: ChatMessage, ctx: InboundContext, caughtUp = false): void {
  const fp = message.fp;
  if (fp && ctx.outbox.has(fp)) {
    ctx.outbox.ack(fp);
    if (!ctx.messages.has(fp)) return;
    const stored = ctx.messages.upsert({ ...message, sendState: 'sent', failReason: undefined });
    ctx.events.emit('send state', { fp, state: 'sent', message: stored });
    ctx.events.emit('message', { message: stored, caughtUp });
    return;
  }
  switch (message.type) {
    case MessageType.Receipt: {
      const readFp = message.dataContent ?? '';
      if (ctx.messages.has(readFp)) ctx.messages.patch(readFp, { isRead: 1 });
      ctx.events.emit('receipt', { fp: readFp, message });
      return;
    }
    case MessageType.Suggestions: {
      const questions = parseSuggestions(message.dataContent);
      ctx.session.setState({ suggestions: questions });
      ctx.events.emit('suggestions', { questions, message });
      return;
    }
    case MessageType.SessionEvent: {
      const event = parseSessionEvent(message.dataContent);
      if (!event) return ctx.reportError(new Error('Malformed session event (type 300).'), 'frame');
      ctx.session.setState(reduceSessionEvent(ctx.session.getState(), event));
      if (event.event === 'queued' && event.busy) ctx.notify('serviceBusy', 'warning');
      if (event.event === 'ended') ctx.notify('conversationOver', 'info');
      if (event.event === 'agent-left') ctx.notify('agentLeft', 'warning');
      ctx.events.emit('session', { ...event, message });
      return;
    }
    case MessageType.Refusal: {
      const refusal = parseRefusal(message.dataContent) ?? { reason: 'unknown' };
      // A frame the client keeps no message of (sent now or not at all: an agent's accept, status
      // or transfer) has nothing to fail: its sender tells about it (the `refusal` event, e.g. a
      // transfer's typed reason), never a generic notice.
      const ours = !refusal.fp || ctx.outbox.has(refusal.fp) || ctx.messages.has(refusal.fp);
      // a resent message that met the rate limit stays pending (sent again later): no notice
      if (ours && (!refusal.fp || ctx.markFailed(refusal.fp, refusal.reason) !== false)) ctx.notify(REFUSAL_NOTICES[refusal.reason] ?? 'sendFailed', 'error');
      ctx.events.emit('refusal', { reason: refusal.reason, ...(refusal.fp ? { fp: refusal.fp } : {}), message });
      return;
    }
    default:
      if (!isChatType(message.type)) return;
      const told = toldOf(fp ? ctx.messages.get(fp) : undefined);
      // A burst of texts notifies the store's readers once (one snapshot), not once per text.
      const stored = ctx.messages.upsertCoalesced(message);
      if (!told) ctx.events.emit('message', { message: stored, caughtUp });
      if (message.from !== ctx.selfId()) ctx.receipts.handleIncoming(message);
  }
}

/** What the {@link InboundRouter} needs besides the routing context. @internal */
export interface InboundRouterDeps extends Omit<InboundContext, 'selfId'>, Pick<ClientContext, 'clock'> {
  /** Decodes a raw frame. @throws FrameError when it neither parses nor decrypts */
  decode(data: unknown): DecodedFrame;
}

/**
 * Decodes incoming frames, follows the user id and server time of welcomes and heartbeat
 * replies, emits every message as `socket message`, and routes it with {@link routeInbound}.
 * @internal
 */
export class InboundRouter {
  /** The user id the server gave (`to` of the welcome), once known. */
  userId: string | undefined;
  private readonly ctx: InboundContext;

  /** @param deps - the decoder, the clock and the managers messages go to */
  constructor(private readonly deps: InboundRouterDeps) {
    this.ctx = { ...deps, selfId: () => this.userId };
  }

  /**
   * The highest per-conversation `seq` of any message of others routed (list rows, session
   * events, suggestions): gap-fill asks for what follows it. The own messages' echoes do not count:
   * in a cluster the own node echoes a text at once while another node's earlier message may still
   * be on its way (and lost with the node).
   */
  highestSeq: number | undefined;

  /** Handles one raw frame; a bad frame is an `error` event (source `frame`), never an exception. */
  handleFrame(data: unknown): void {
    let decoded: DecodedFrame;
    try {
      decoded = this.deps.decode(data);
    } catch (e) {
      this.deps.reportError(e instanceof FrameError ? e : asError(e), 'frame');
      return;
    }
    this.handleMessage(decoded.message, decoded.encrypted);
  }

  /**
   * Handles a decoded message of the own socket or, in a follower tab, of the leader tab's:
   * server time and user id from welcomes and heartbeat replies, `socket message`, routing.
   */
  handleMessage(message: ChatMessage, encrypted: boolean): void {
    if (message.type === MessageType.HeartbeatReply || message.type === MessageType.Welcome) {
      if (typeof message.sm === 'number') this.deps.clock.reset(message.sm);
      if (typeof message.to === 'string' && message.to) this.adoptUserId(message.to);
    }
    this.deps.events.emit('socket message', { message, encrypted });
    this.route(message);
  }

  /** The user id the server gave (the welcome's `to`, or the leader tab's); `user` when it changed. */
  adoptUserId(userId: string): void {
    if (userId === this.userId) return;
    this.userId = userId;
    this.deps.events.emit('user', { userId });
  }

  /**
   * Routes a message as if it had arrived on the socket.
   * @param caughtUp - true for a message of the catch-up after a reconnect
   */
  route(message: ChatMessage, caughtUp?: boolean): void {
    if (typeof message.seq === 'number' && (this.highestSeq === undefined || message.seq > this.highestSeq) && message.from !== this.userId) this.highestSeq = message.seq;
    routeInbound(message, this.ctx, caughtUp);
  }
}
