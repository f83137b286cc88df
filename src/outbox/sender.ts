/**
 * Sending: composes outgoing messages, keeps the acknowledged types in the outbox until the
 * server echoes them, resends what is pending after every (re)connect, and marks failures.
 * @module
 */
import type { ClientContext } from '../client-context.js';
import { randomUuid } from '../crypto/random.js';
import { ImError } from '../errors.js';
import { isChatType } from '../messages/chat-type.js';
import { MessageType, type ChatMessage, type SendFailReason, type StoredMessage } from '../messages/types.js';
import type { DurableOutbox } from './durable.js';
import type { OutboxRecord } from './storage.js';
import { Outbox } from './outbox.js';
import type { ResendPacer } from './resend-pacer.js';

/** What to send with `ImClient.send`. */
export interface SendInput {
  /** Message type (default 100, text). */
  type?: number;
  /** The content; always a string on the wire. */
  dataContent: string;
  /** Recipient (default: the agent id of the connect data, or empty: the server routes it). */
  to?: string;
  /** True for a group message (`to` is then the group id). */
  isGroup?: boolean;
  /** Extra wire fields (e.g. `fn`, `fa`). */
  extra?: Record<string, unknown>;
}

/** The socket as the sender sees it. @internal */
export interface SenderSocket {
  /** True while the socket is open. */
  readonly isOpen: boolean;
  /** True while the connection has given up (state `failed`) until something reconnects it. */
  readonly gaveUp: boolean;
  /** Encodes a message into a frame (encrypted when the AES switch is on), to check its size. */
  encode(message: ChatMessage): string;
  /** Sends a message on the open socket: the own one, or the leader tab's (which encodes it). */
  send(message: ChatMessage): boolean;
}

/** What the sender needs from the client. @internal */
export type SenderDeps = Pick<ClientContext, 'messages' | 'events' | 'limits' | 'clock' | 'i18n' | 'notify' | 'selfId' | 'clientId' | 'connectData' | 'timers'> & {
  socket: SenderSocket;
  /** Where pending chat messages are kept across reloads. */
  durable: DurableOutbox;
};

/** Types the server acknowledges by echoing them (protocol §4, Delivery): these wait in the outbox. */
const ACKNOWLEDGED_TYPES: ReadonlySet<number> = new Set([
  MessageType.Text,
  MessageType.Image,
  MessageType.File,
  MessageType.Video,
  MessageType.TransferToHuman,
  MessageType.EndConversation,
]);

/**
 * Sends messages and keeps the delivery bookkeeping ({@link Outbox}). Acknowledged types are
 * `pending` at once (chat types also join the message list), written now when the socket is open
 * and otherwise after the next open; the echo makes them `sent`, a refusal `failed`.
 * @internal
 */
export class MessageSender {
  /** The messages waiting for the server's echo, in composition order. */
  readonly outbox: Outbox;
  /**
   * When each pending message is written (the resend rule), from {@link MessageSender.startPacing}
   * on: until the socket code loads no socket is open, and the first open sends everything pending.
   */
  private pacer: ResendPacer | null = null;

  /** @param deps - the socket, the list, the events and the durable store */
  constructor(private readonly deps: SenderDeps) {
    this.outbox = new Outbox((fp) => {
      deps.durable.drop(fp);
      this.pacer?.settled(fp);
    });
  }

  /**
   * Starts the resend rule (the engine calls it as the socket code loads, with the pacer class
   * that came with it); a second call keeps the first pacer.
   * @param Pacer - the {@link ResendPacer} class
   */
  startPacing(Pacer: typeof ResendPacer): void {
    const { socket, timers } = this.deps;
    this.pacer ??= new Pacer({
      pending: () => this.outbox.pending(),
      isOpen: () => socket.isOpen,
      write: (message) => socket.send(message),
      onResend: (message) => this.unfail(message),
      timers,
    });
  }

  /**
   * Restores the pending messages kept by an earlier page of this visitor (of the current scope;
   * the engine calls it once per scope): they join the list as `pending` and the outbox in
   * composition order, and go out after the next open.
   * @returns the records of files not uploaded yet (for the file sender)
   */
  restore(): Promise<OutboxRecord[]> {
    return this.deps.durable.restore().then((kept) => {
      const { messages, durable } = this.deps;
      const restored: (ChatMessage & { fp: string })[] = [];
      const records = kept.filter((r) => !r.file);
      for (const { fp, message } of records) {
        const held = messages.get(fp);
        if (this.outbox.has(fp)) continue;
        if (held && held.sendState !== 'pending' && held.sendState !== 'failed') {
          durable.drop(fp); // already delivered (in the history, or echoed)
          continue;
        }
        restored.push({ ...message, fp });
      }
      const files = kept.filter((r) => r.file);
      if (restored.length === 0) return files;
      // Messages composed while the store was read come after the restored ones, in the outbox and in the list.
      const all = [...restored, ...(this.outbox.pending() as (ChatMessage & { fp: string })[])];
      all.sort((a, b) => durable.seqOf(a.fp) - durable.seqOf(b.fp));
      this.outbox.clear();
      const chat = all.filter((m) => isChatType(m.type)); // control messages (301, 302) are no rows
      const rows = chat.map((m) => messages.get(m.fp) ?? { ...m, sendState: 'pending' as const });
      for (const m of chat) messages.remove(m.fp);
      messages.upsertMany(rows);
      for (const m of all) {
        this.outbox.add(m);
        const message = messages.get(m.fp);
        if (message && restored.includes(m)) this.deps.events.emit('send state', { fp: m.fp, state: 'pending', message });
      }
      if (this.deps.socket.isOpen) this.resendPending();
      return files;
    });
  }

  /**
   * Composes and sends a message.
   * @throws {@link ImError} `blank` for a blank text (and a `blankMessage` notice)
   */
  send(input: SendInput): StoredMessage {
    return this.dispatch(this.compose(input));
  }

  /**
   * Builds the wire message of an input (a new `fp`, the sender, recipient, merchant and time).
   * @throws {@link ImError} `blank` for a blank text (and a `blankMessage` notice)
   */
  compose(input: SendInput): ChatMessage & { fp: string } {
    const type = input.type ?? MessageType.Text;
    if (typeof input.dataContent !== 'string') throw new TypeError('dataContent must be a string.');
    if ((type === MessageType.Text || type === MessageType.RobotText) && input.dataContent.trim() === '') {
      this.deps.notify('blankMessage', 'warning');
      throw new ImError('blank', this.deps.i18n.t('blankMessage'));
    }
    const { deps } = this;
    const data = deps.connectData();
    return {
      ...input.extra,
      type,
      from: deps.selfId() ?? deps.clientId(),
      to: input.to ?? stringOr(data.kefuId),
      fp: randomUuid(),
      mchId: data.mchId as string | number | undefined,
      dataContent: input.dataContent,
      times: deps.clock.now(),
      uuid: deps.clientId(),
      ...(input.isGroup ? { isGroup: 1 } : {}),
    };
  }

  /**
   * Sends a failed message again with the same `fp` (the server stores one message per `fp`).
   * @throws {@link ImError} `not-found` when the list holds no message with this fp
   */
  retry(fp: string): StoredMessage {
    const stored = this.deps.messages.get(fp);
    if (!stored) throw new ImError('not-found', `No message with fp ${fp}.`);
    if (stored.sendState !== 'failed') return stored;
    const { sendState: _state, failReason: _reason, ...wire } = stored;
    return this.dispatch({ ...wire, fp });
  }

  /** Sends a message now or keeps it in the outbox until the next open. */
  dispatch(wire: ChatMessage & { fp: string }): StoredMessage {
    const { deps } = this;
    const { socket } = deps;
    const frame = socket.encode(wire);
    if (!ACKNOWLEDGED_TYPES.has(wire.type)) {
      // Not acknowledged by the server (e.g. an agent's accept, 311): sent now or not at all.
      const sent = frame.length <= deps.limits.maxFrameSize && socket.isOpen && socket.send(wire);
      return { ...wire, sendState: sent ? 'sent' : 'failed', ...(sent ? {} : { failReason: 'not-open' }) };
    }
    // Chat content goes into the conversation list; control messages (301, 302) only into the outbox.
    const pending: StoredMessage = { ...wire, sendState: 'pending', failReason: undefined };
    const stored = isChatType(wire.type) ? deps.messages.upsert(pending) : pending;
    deps.events.emit('send state', { fp: wire.fp, state: 'pending', message: stored });
    if (frame.length > deps.limits.maxFrameSize) {
      this.markFailed(wire.fp, 'too-large');
      return deps.messages.get(wire.fp) ?? stored;
    }
    this.outbox.add(wire);
    if (isChatType(wire.type)) deps.durable.keep(wire);
    this.pacer?.send(wire);
    // Nothing is trying to connect: say so now; the message goes out after the next open.
    if (!socket.isOpen && socket.gaveUp) this.markFailed(wire.fp, 'network');
    return deps.messages.get(wire.fp) ?? stored;
  }

  /**
   * The message failed: `failed` in the list. A refused or oversized message leaves the outbox
   * (and the durable store); a chat message failed by the network stays and is sent again after
   * the next open, when it turns `pending` again. A resent message refused `too-frequent` is not
   * failed: it is sent again after a pause.
   * @returns false when the message stays pending (no failure to tell the user about)
   */
  markFailed(fp: string, reason: SendFailReason): boolean {
    // a resent message that met the rate limit goes out again after a pause (see ResendPacer)
    if (reason === 'too-frequent' && this.pacer?.retryLater(fp) === true) return false;
    if (reason !== 'network' || !this.deps.messages.has(fp)) this.outbox.fail(fp);
    const { messages, events } = this.deps;
    if (!messages.has(fp)) return true;
    const message = messages.patch(fp, { sendState: 'failed', failReason: reason });
    if (message) events.emit('send state', { fp, state: 'failed', message, reason });
    return true;
  }

  /** Fails every pending message (e.g. the connection gave up) with one `sendFailed` notice. */
  failPending(reason: SendFailReason): void {
    const { messages } = this.deps;
    const pending = this.outbox.pending().filter((m) => m.fp && messages.get(m.fp)?.sendState !== 'failed');
    for (const m of pending) this.markFailed(m.fp as string, reason);
    if (pending.length > 0) this.deps.notify('sendFailed', 'error');
  }

  /**
   * Writes every message of the outbox again, in composition order and paced (after an open; see
   * {@link ResendPacer}); those the network had failed turn `pending` again.
   */
  resendPending(): void {
    this.pacer?.opened();
  }

  /** Cancels the resend timers (the client is destroyed). */
  dispose(): void {
    this.pacer?.dispose();
  }

  /** A message the network had failed turns `pending` again as it goes out. */
  private unfail(m: ChatMessage): void {
    const { messages, events } = this.deps;
    const fp = m.fp as string;
    if (messages.get(fp)?.sendState !== 'failed') return;
    const message = messages.patch(fp, { sendState: 'pending', failReason: undefined });
    if (message) events.emit('send state', { fp, state: 'pending', message });
  }
}

function stringOr(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}
