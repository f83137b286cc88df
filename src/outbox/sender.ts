/**
 * Sending: composes outgoing messages, keeps the acknowledged types in the outbox until the
 * server echoes them, resends what is pending after every (re)connect, and marks failures.
 * @module
 */
import type { ClientContext } from '../client-context.js';
import { randomUuid } from '../crypto/random.js';
import { ImError } from '../errors.js';
import { isChatType } from '../messages/content.js';
import { MessageType, type ChatMessage, type FileContent, type StoredMessage } from '../messages/types.js';
import type { UploadedFile } from '../upload/types.js';
import { Outbox } from './outbox.js';

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
  /** Encodes a message into a frame (encrypted when the AES switch is on). */
  encode(message: ChatMessage): string;
  /** Writes a frame on the open socket. */
  write(frame: string): boolean;
}

/** What the sender needs from the client. @internal */
export type SenderDeps = Pick<ClientContext, 'messages' | 'events' | 'limits' | 'clock' | 'i18n' | 'notify' | 'selfId' | 'clientId' | 'connectData'> & {
  socket: SenderSocket;
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
  readonly outbox = new Outbox();

  /** @param deps - the socket, the list and the events */
  constructor(private readonly deps: SenderDeps) {}

  /**
   * Composes and sends a message.
   * @throws {@link ImError} `blank` for a blank text (and a `blankMessage` notice)
   */
  send(input: SendInput): StoredMessage {
    const type = input.type ?? MessageType.Text;
    if (typeof input.dataContent !== 'string') throw new TypeError('dataContent must be a string.');
    if ((type === MessageType.Text || type === MessageType.RobotText) && input.dataContent.trim() === '') {
      this.deps.notify('blankMessage', 'warning');
      throw new ImError('blank', this.deps.i18n.t('blankMessage'));
    }
    const { deps } = this;
    const data = deps.connectData();
    return this.dispatch({
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
    });
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

  /**
   * The message of an uploaded file: an image (101, the URL), a file (102) or a video (103, the
   * JSON {@link FileContent}).
   */
  static fileInput(file: UploadedFile, kind: 'image' | 'file' | 'video'): SendInput {
    if (kind === 'image') return { type: MessageType.Image, dataContent: file.url };
    const content: FileContent = { name: file.name, size: file.size, url: file.url, mime: file.mime };
    return { type: kind === 'video' ? MessageType.Video : MessageType.File, dataContent: JSON.stringify(content) };
  }

  /** Sends a message now or keeps it in the outbox until the next open. */
  dispatch(wire: ChatMessage & { fp: string }): StoredMessage {
    const { deps } = this;
    const { socket } = deps;
    const frame = socket.encode(wire);
    if (!ACKNOWLEDGED_TYPES.has(wire.type)) {
      // Not acknowledged by the server (e.g. an agent's accept, 311): sent now or not at all.
      const sent = frame.length <= deps.limits.maxFrameSize && socket.isOpen && socket.write(frame);
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
    if (socket.isOpen) socket.write(frame);
    return stored;
  }

  /** The message will not be delivered: out of the outbox, `failed` in the list. */
  markFailed(fp: string, reason: string): void {
    this.outbox.fail(fp);
    const { messages, events } = this.deps;
    if (!messages.has(fp)) return;
    const message = messages.patch(fp, { sendState: 'failed', failReason: reason });
    if (message) events.emit('send state', { fp, state: 'failed', message, reason });
  }

  /** Fails every pending message (e.g. the connection gave up) with one `sendFailed` notice. */
  failPending(reason: string): void {
    const pending = this.outbox.pending();
    for (const m of pending) if (m.fp) this.markFailed(m.fp, reason);
    if (pending.length > 0) this.deps.notify('sendFailed', 'error');
  }

  /** Writes every pending message again, in composition order (after an open). */
  resendPending(): void {
    const { socket } = this.deps;
    for (const m of this.outbox.pending()) socket.write(socket.encode(m));
  }
}

function stringOr(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}
