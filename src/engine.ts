/**
 * The messaging engine of a client (LiveKit's engine to its `Room`): the socket link, sending
 * (texts, files, the durable outbox), inbound routing and history paging, wired to each other.
 * It reports back through the client's events (`ClientContext.events`).
 * @module
 * @internal
 */
import type { ClientContext } from './client-context.js';
import { asError } from './errors.js';
import { InboundRouter } from './inbound.js';
import { HistoryPager } from './messages/history.js';
import type { StoredMessage } from './messages/types.js';
import { DEFAULT_OUTBOX_FILE_CAP, type ImClientOptions, type WindowLike } from './options.js';
import { DurableOutbox, outboxScope } from './outbox/durable.js';
import type { FileSender } from './outbox/file-sender.js';
import { sendFile, type FileKind, type FileSendInput, type StagedFile } from './outbox/file-message.js';
import { MessageSender } from './outbox/sender.js';
import { resolveOutboxStorage } from './outbox/storage.js';
import { globalWebSocket } from './platform.js';
import type { ReceiptManager } from './receipts/receipt-manager.js';
import { SocketLink } from './socket/link.js';
import type { UploadedFile } from './upload/types.js';

/** What the engine needs besides the client context. @internal */
export interface EngineHooks {
  /** The read-receipt manager incoming messages go to. */
  receipts: ReceiptManager;
  /** The window, for the network events. */
  network: WindowLike | null;
  /** Runs start-up (the key exchange) if it has not run. */
  start(): Promise<unknown>;
}

/** The socket link, the senders, the router and the history of one client. @internal */
export class Engine {
  /** Connection, key session, close codes. */
  readonly link: SocketLink;
  /** Texts and control messages; the outbox. */
  readonly sender: MessageSender;
  /** Incoming frames to the managers. */
  readonly router: InboundRouter;
  /** Older pages and missed messages. */
  readonly history: HistoryPager;
  private readonly durable: DurableOutbox;
  /** Uploads of picked files, once loaded. */
  private files: FileSender | null = null;
  private loadingFiles: Promise<FileSender> | null = null;
  private destroyed = false;

  /**
   * @param ctx - the client context
   * @param options - the client options (transports, policy, outbox storage)
   * @param hooks - receipts, window and start-up
   */
  constructor(
    private readonly ctx: ClientContext,
    options: ImClientOptions,
    hooks: EngineHooks,
  ) {
    const WebSocket = options.WebSocket ?? globalWebSocket();
    this.link = new SocketLink({ ...options, ...ctx, WebSocket, network: hooks.network, start: hooks.start });
    const durable = new DurableOutbox({
      storage: resolveOutboxStorage(options.outboxStorage),
      scope: () => outboxScope(ctx.clientId(), ctx.connectData()),
      now: () => Date.now(),
      fileCap: options.outboxFileCap ?? DEFAULT_OUTBOX_FILE_CAP,
      onError: (error) => ctx.reportError(error, 'send'),
    });
    this.sender = new MessageSender({ ...ctx, socket: this.link, durable });
    this.durable = durable;
    this.router = new InboundRouter({
      ...ctx,
      outbox: this.sender.outbox,
      receipts: hooks.receipts,
      decode: (data) => this.link.decode(data),
      markFailed: (fp, reason) => this.sender.markFailed(fp, reason),
    });
    this.history = new HistoryPager({ ...ctx, route: (message) => this.router.route(message) });

    const { connection } = this.link;
    const { events } = ctx;
    connection.on('state', (change) => {
      events.emit('state', change);
      if (change.newState === 'failed') this.sender.failPending('network');
    });
    connection.on('open', ({ reconnected }) => this.onOpen(reconnected));
    connection.on('frame', ({ data }) => this.router.handleFrame(data));
    connection.on('error', ({ error, source }) => ctx.reportError(error, source));
    connection.on('network', ({ online }) => events.emit('network', { online }));
  }

  /** Restores the outbox of an earlier page of this visitor: texts, then files. */
  async restore(): Promise<void> {
    const files = await this.sender.restore();
    if (files.length > 0) (await this.fileSender()).restore(files);
  }

  /** Sends an uploaded file's message, or stages a picked file and uploads it (the uploader loads on demand). */
  sendFile(file: UploadedFile | Blob, kind: FileKind, input: FileSendInput): StoredMessage {
    const upload = (staged: StagedFile): void => {
      this.fileSender().then((files) => files.upload(staged), (e: unknown) => this.ctx.reportError(asError(e), 'upload'));
    };
    return sendFile({ ...this.ctx, sender: this.sender, durable: this.durable }, file, kind, input, upload);
  }

  /** Retries a failed message: a file's upload, or a send (reconnecting a connection that gave up). */
  retry(fp: string): ReturnType<MessageSender['retry']> {
    if (this.files?.has(fp)) return this.files.retry(fp);
    const held = this.ctx.messages.get(fp);
    if (held?.failReason === 'too-large-to-keep') return held; // the bytes are gone: the file must be picked again
    if (this.link.gaveUp) this.link.connect(); // a retry is a reason to try the network again
    return this.sender.retry(fp);
  }

  /** Stops the connection and the uploads. */
  destroy(): void {
    this.destroyed = true;
    this.link.connection.destroy();
    this.files?.dispose();
  }

  private fileSender(): Promise<FileSender> {
    this.loadingFiles ??= import('./outbox/file-sender.js').then(({ FileSender }) => {
      this.files = new FileSender({ ...this.ctx, sender: this.sender, durable: this.durable });
      if (this.destroyed) this.files.dispose();
      return this.files;
    });
    return this.loadingFiles;
  }

  private onOpen(reconnected: boolean): void {
    this.ctx.events.emit('socket login', { reconnected });
    this.sender.resendPending();
    // Visitors catch up through findMsgForCus / clientGroupMsgList; those are visitor calls, and the
    // documents give an agent (connect data role 'agent') no history call to catch up with.
    if (reconnected && this.ctx.connectData().role !== 'agent') {
      this.history.fetchMissed().catch((e: unknown) => this.ctx.reportError(asError(e), 'http'));
    }
  }
}
