/**
 * The typing room (type 105, protocol §5a), loaded on first use: one {@link TypingSender} per
 * conversation this user types in, and the indicators of the other side in the store (expired 6 s
 * after the last `typing`, cleared at once by `paused` or by a message from the typing party).
 * Typing frames never enter the message list or the outbox (`client.send` keeps an unacknowledged
 * type out of both); everything is forgotten when the socket closes and when the room is destroyed.
 * @module
 * @internal
 */
import type { ConnectionState } from '../events.js';
import type { ChatMessage, SendState } from '../messages/types.js';
import type { Store } from '../state/store.js';
import type { Disposer, TimerProvider } from '../timers.js';
import { TimerBag, TypingSender, type TypingContent } from './sender.js';
import type { TypingClient, TypingIndicator, TypingSnapshot } from './types.js';

/** The wire type of typing signals (`MessageType.Typing`; a literal here keeps the room free of start-up code). */
const TYPING = 105;
/** Receipts (104) say nothing about typing; any other message from the typing party ends it. */
const RECEIPT = 104;

/** A receiver treats `typing` as expired this long after the last one (ms). */
export const TYPING_EXPIRY_MS = 6_000;
/** The longest draft a preview carries (characters). */
export const PREVIEW_MAX_CHARS = 200;

/** Reads a typing frame's content; undefined when it is not one. */
function readContent(dataContent: unknown): TypingContent | undefined {
  try {
    const parsed = JSON.parse(String(dataContent)) as Partial<TypingContent> | null;
    const state = parsed?.state;
    if (state !== 'typing' && state !== 'paused') return undefined;
    return typeof parsed?.preview === 'string' ? { state, preview: parsed.preview } : { state };
  } catch {
    return undefined;
  }
}

/** The typing room of one client. @internal */
export class TypingRoom {
  private readonly bag: TimerBag;
  private readonly senders = new Map<string, TypingSender>();
  private readonly expiries = new Map<string, Disposer>();

  /**
   * @param client - the client's public calls
   * @param timers - the client's timer provider
   * @param store - `client.typing.store`
   */
  constructor(
    private readonly client: TypingClient,
    private readonly timers: TimerProvider,
    private readonly store: Store<TypingSnapshot>,
  ) {
    this.bag = new TimerBag(timers);
    const onFrame = ({ message }: { message: ChatMessage }): void => this.hear(message);
    // every sent message (chat, transfer, end) says paused: the composer was used
    const onSend = ({ state, message }: { state: SendState; message: ChatMessage }): void => {
      if (state === 'pending') this.blur(this.agent ? message.to : undefined);
    };
    const onState = ({ newState }: { newState: ConnectionState }): void => {
      if (newState !== 'open') this.forgetAll();
    };
    client.on('socket message', onFrame);
    client.on('send state', onSend);
    client.on('state', onState);
    this.bag.add(() => {
      client.off('socket message', onFrame);
      client.off('send state', onSend);
      client.off('state', onState);
    });
  }

  /** See `Typing.input`. */
  input(draft: string | undefined, to?: string): void {
    const key = this.targetKey(to);
    let sender = this.senders.get(key);
    if (!sender) {
      sender = new TypingSender({
        bag: this.bag,
        now: () => this.timers.now(),
        previewOf: (text) => this.previewOf(text),
        send: (content) => this.client.send({ type: TYPING, dataContent: JSON.stringify(content), ...(to ? { to } : {}) }),
      });
      this.senders.set(key, sender);
    }
    sender.input(draft);
  }

  /** See `Typing.blur`. */
  blur(to?: string): void {
    this.senders.get(this.targetKey(to))?.pause();
  }

  /** Stops every timer and listener. */
  destroy(): void {
    this.bag.dispose();
    this.senders.clear();
    this.expiries.clear();
  }

  private get agent(): boolean {
    return this.client.getConnectData()['role'] === 'agent';
  }

  private targetKey(to: string | undefined): string {
    return this.agent ? (to ?? '') : '';
  }

  /** A visitor's draft goes out only when its merchant has sneak peek on (`getMerchantById` says `sneakPeek`). */
  private previewOf(draft: string | undefined): string | undefined {
    if (draft === undefined || this.agent || this.client.state.getState().merchantInfo?.['sneakPeek'] !== true) return undefined;
    return Array.from(draft).slice(0, PREVIEW_MAX_CHARS).join('');
  }

  /** An incoming frame: a typing signal, or a message that ends its sender's typing. */
  private hear(message: ChatMessage): void {
    // a conversation is named by its visitor: the sender for an agent, the addressee for a visitor
    const key = String((this.agent ? message.from : message.to) ?? '');
    if (message.type !== TYPING) {
      if (message.type !== RECEIPT && this.indicator(key)?.from === message.from) this.stop(key);
      return;
    }
    const content = readContent(message.dataContent);
    if (!content || key === '' || message.from === this.client.userId) return;
    if (content.state === 'paused') return this.stop(key);
    const was = this.indicator(key);
    const indicator: TypingIndicator = {
      typing: true,
      from: String(message.from ?? ''),
      who: String(message.fn ?? ''),
      since: was?.typing ? was.since : this.timers.now(),
      ...(content.preview !== undefined && this.agent ? { preview: content.preview } : {}),
    };
    this.put(key, indicator);
    this.expiries.get(key)?.();
    this.expiries.set(key, this.bag.timeout(() => this.stop(key), TYPING_EXPIRY_MS));
  }

  private indicator(key: string): TypingIndicator | undefined {
    return this.store.getState().conversations[key];
  }

  private put(key: string, indicator: TypingIndicator | undefined): void {
    const { [key]: _old, ...rest } = this.store.getState().conversations;
    this.store.setState({ conversations: indicator ? { ...rest, [key]: indicator } : rest });
    this.client.emit('typing', { conversationId: key, indicator: indicator ?? null });
  }

  private stop(key: string): void {
    this.expiries.get(key)?.();
    this.expiries.delete(key);
    if (this.indicator(key)) this.put(key, undefined);
  }

  /** The socket closed: nothing said is pending any more and nobody is heard typing. */
  private forgetAll(): void {
    for (const sender of this.senders.values()) sender.reset();
    this.senders.clear();
    for (const key of Object.keys(this.store.getState().conversations)) this.stop(key);
  }
}
