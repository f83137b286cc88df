/**
 * The messaging engine of a client (LiveKit's engine to its `Room`): sending (texts, files, the
 * durable outbox), history paging and the socket stack (`socket/stack.ts`: connection, inbound
 * routing, tabs, page lifecycle; loaded with the first start or connect), wired to each other.
 * It reports back through the client's events (`ClientContext.events`).
 * @module
 * @internal
 */
import type { ClientContext } from './client-context.js';
import { asError } from './errors.js';
import type { ConnectionState } from './events.js';
import type { IdentityDeps } from './identity.js';
import { KeyRing } from './key-ring.js';
import { lazy } from './lazy.js';
import { HistoryPager, type CatchUpMark } from './messages/history.js';
import type { ChatMessage, StoredMessage } from './messages/types.js';
import type { TabEvents, TabRole } from './tabs/tab-link.js';
import { INITIAL_SESSION } from './session.js';
import { DEFAULT_OUTBOX_FILE_CAP, type DocumentLike, type ImClientOptions, type StorageLike, type WindowLike } from './options.js';
import { DurableOutbox, outboxScope } from './outbox/durable.js';
import { DRAFTS_KEY_PREFIX } from './state/drafts.js';
import type { FileSender } from './outbox/file-sender.js';
import { sendFile, type FileKind, type FileSendInput, type StagedFile } from './outbox/file-message.js';
import { MessageSender, type SenderSocket } from './outbox/sender.js';
import { resolveOutboxStorage } from './outbox/storage.js';
import type { RequestOptions } from './http/http-client.js';
import type { ReceiptManager } from './receipts/receipt-manager.js';
import { createConnectionStore, type ConnectionSnapshot } from './socket/connection-snapshot.js';
import { watchNetwork } from './socket/network-watch.js';
import type { SocketStack } from './socket/stack.js';
import { WelcomeGate } from './socket/welcome-gate.js';
import type { Store } from './state/store.js';
import type { Disposer } from './timers.js';
import type { UploadedFile } from './upload/types.js';

/** What the engine needs besides the client context. @internal */
export interface EngineHooks {
  /** The read-receipt manager incoming messages go to. */
  receipts: ReceiptManager;
  /** The window, for the network events. */
  network: WindowLike | null;
  /** The client's events (the leader tab forwards `socket message` and `user` to the others). */
  clientEvents: TabEvents;
  /** The document: visibility (the reconnect policy waits longer while hidden) and the Page Lifecycle events; null without one. */
  document: DocumentLike | null;
  /** Runs start-up (the key exchange) if it has not run. */
  start(): Promise<unknown>;
  /** The persisted client state holding the client id and its secret (protocol §3a). */
  state: IdentityDeps['state'];
  /** Makes a new client id. */
  createId(): string;
  /** The client's synchronous storage: the outbox notes pending texts in it at once (a journal). */
  journal?: StorageLike;
}

/**
 * The senders, the history and the socket stack of one client. The socket stack (connection,
 * inbound router, tab link, page lifecycle) loads with the first {@link Engine.loadSocket} (the
 * client's `start()`, or a `connect()`); until then the socket is closed and nothing is sent.
 * @internal
 */
export class Engine {
  /** The key session (filled by start-up). */
  readonly keys: KeyRing;
  /** The connection snapshot (state, online, attempts, user id), from construction on. */
  readonly connectionStore: Store<ConnectionSnapshot>;
  /** Texts and control messages; the outbox. */
  readonly sender: MessageSender;
  /** Older pages and missed messages. */
  readonly history: HistoryPager;
  /** The socket link, the tab link and the page lifecycle, once loaded. */
  private stack: SocketStack | null = null;
  private readonly loadStack = lazy(() =>
    import('./socket/stack.js').then(
      (socketCode) => this.stack ?? this.buildStack(socketCode),
      (e: unknown) => {
        throw asError(e);
      },
    ),
  );
  /** Follows the window's network events until the socket stack takes over. */
  private stopNetworkWatch: Disposer;
  /** The durable outbox (pending messages across reloads). @internal */
  readonly durable: DurableOutbox;
  /**
   * A reconnect opened: fetch what was missed, from this mark (taken when the socket opened, before
   * the echoes of resent texts and new messages arrive), once the welcome says the connect was accepted.
   */
  private catchUpOnWelcome: CatchUpMark | null = null;
  /** The visitor's calls wait for the welcome that binds the key session (protocol §3a). */
  private readonly welcome: WelcomeGate;
  /** The visitor scope whose outbox was restored, and that restore. */
  /** @internal */
  restoredScope: string | null = null;
  private restoring: Promise<void> | null = null;
  /** True from connect() until disconnect(): a welcome is coming, sooner or later. @internal */
  connectWanted = false;
  /** Uploads of picked files, once loaded. */
  private files: FileSender | null = null;
  /** Loads the uploads of picked files once (again after a failed load: a chunk the network lost). */
  private readonly fileSender = lazy(() =>
    import('./outbox/file-sender.js').then(({ FileSender }) => {
      this.files = new FileSender({ ...this.ctx, sender: this.sender, durable: this.durable });
      if (this.destroyed) this.files.dispose();
      return this.files;
    }),
  );
  private destroyed = false;
  /** @internal */
  readonly hooks: EngineHooks;
  /** The client options (the identity switch reads the outbox storage from them). @internal */
  readonly options: ImClientOptions;

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
    this.keys = new KeyRing({ api: ctx.api, clock: ctx.clock, timers: ctx.timers });
    const store = (this.connectionStore = createConnectionStore(hooks.network?.navigator?.onLine !== false));
    this.stopNetworkWatch = watchNetwork(hooks.network, store, (online) => ctx.events.emit('network', { online }));
    const durable = new DurableOutbox({
      storage: resolveOutboxStorage(options.outboxStorage),
      scope: () => outboxScope(ctx.clientId(), ctx.connectData()),
      now: () => Date.now(),
      fileCap: options.outboxFileCap ?? DEFAULT_OUTBOX_FILE_CAP,
      onError: (error) => ctx.reportError(error, 'send'),
      journal: hooks.journal,
    });
    // The sender writes through the tab link: the own socket, or the leader tab's in a follower.
    const socket: SenderSocket = {
      get isOpen() {
        return stack()?.tabs.isOpen ?? false;
      },
      get gaveUp() {
        const own = stack();
        return own !== null && own.tabs.role !== 'follower' && own.link.gaveUp;
      },
      encode: (message) => this.keys.encode(message),
      send: (message) => stack()?.tabs.send(message) ?? false,
    };
    const stack = (): SocketStack | null => this.stack;
    this.sender = new MessageSender({ ...ctx, socket, durable });
    this.durable = durable;
    this.history = new HistoryPager({
      ...ctx,
      // missed messages are routed like live ones (told as caught up): the router is part of the socket code
      route: (message) => this.requireStack().router.route(message, true),
      seenSeq: () => this.stack?.router.highestSeq,
      ready: () => this.loadSocket().then(() => this.welcome.callsReady()),
    });
    this.welcome = new WelcomeGate({
      saltKey: () => this.keys.token?.saltKey,
      exempt: () => ctx.connectData().role === 'agent' || (this.tabRole === 'follower' && (this.stack?.tabs.sharedKeySession ?? null) !== null),
      expecting: () => this.connectWanted && !(this.stack?.link.connection.halted ?? false) && !this.destroyed,
    });

    this.hooks = hooks;
    this.options = options;
  }

  /** The effective connection state (in a follower tab the leader's); `connecting` while the socket code loads for a connect. */
  get connectionState(): ConnectionState {
    return this.stack?.tabs.state ?? (this.connectWanted ? 'connecting' : 'closed');
  }

  /** This tab's role (`solo` until the socket stack has loaded). */
  get tabRole(): TabRole {
    return this.stack?.tabs.role ?? 'solo';
  }

  /** The user id the server gave (`to` of the welcome), once known. */
  get userId(): string | undefined {
    return this.stack?.router.userId;
  }

  /** The socket stack, once loaded (for tests and benches that drive the connection). */
  get socketStack(): SocketStack | null {
    return this.stack;
  }

  /**
   * Loads the socket stack (connection, tab link, page lifecycle) once: the client's `start()`
   * and `connect()` call it. Resolves with the stack; a failed load (e.g. a chunk the network
   * lost) rejects and may be tried again.
   */
  loadSocket(): Promise<SocketStack> {
    return this.loadStack();
  }

  /** The key session of HTTP calls: in a follower tab the leader's (bound to the identity by its socket). */
  httpSession(): { saltKey?: string; userKey?: string } {
    const own = this.keys.token;
    return this.stack?.tabs.sharedKeySession ?? { saltKey: own?.saltKey, userKey: own?.userKey };
  }

  /** Sends a message now if a socket (the own one or the leader tab's) is open; false otherwise. */
  sendNow(message: ChatMessage): boolean {
    const tabs = this.stack?.tabs;
    return tabs !== undefined && tabs.isOpen && tabs.send(message);
  }

  /** Opens the socket: this tab's own, or the leader tab's when another tab leads. */
  connect(): void {
    this.connectWanted = true;
    this.restore().catch((e: unknown) => this.ctx.reportError(e, 'send'));
    this.withStack((stack) => {
      if (!this.connectWanted) return; // disconnected while the socket code loaded
      stack.link.closeCodes.reset();
      stack.tabs.connect();
    });
  }

  /** Closes the socket without reconnecting; visitor calls stop waiting for a welcome. */
  disconnect(): void {
    this.connectWanted = false;
    this.stack?.tabs.disconnect();
    this.welcome.release();
  }

  /** Tries now with a fresh backoff (a user action); a follower tab leaves that to the leader. */
  reconnectNow(): void {
    this.withStack((stack) => {
      if (stack.tabs.role !== 'follower') stack.link.reconnectNow();
    });
  }

  /**
   * Restores the outbox of an earlier page of this visitor, once per visitor scope (client id,
   * merchant, platform, group; called at start-up and again at connect, when the connect data may
   * have changed): texts at once (they go out when the
   * socket opens), then files, whose uploads start after the welcome: an upload needs a key
   * session bound to this visitor (protocol §3a).
   */
  restore(): Promise<void> {
    // once per visitor scope: start-up may run before the connect data names the conversation
    const scope = outboxScope(this.ctx.clientId(), this.ctx.connectData());
    if (scope === this.restoredScope) return this.restoring ?? Promise.resolve();
    this.restoredScope = scope;
    this.restoring = this.restoreScope();
    return this.restoring;
  }

  private async restoreScope(): Promise<void> {
    const files = await this.sender.restore();
    if (files.length === 0) return;
    // not awaited: start-up (which the connect waits for) must not wait for the welcome
    void this.welcome
      .welcomed()
      .then(() => (this.destroyed ? undefined : this.fileSender()))
      .then((sender) => sender?.restore(files))
      .catch((e: unknown) => this.ctx.reportError(e, 'upload'));
  }

  /** Sends an uploaded file's message, or stages a picked file and uploads it (the uploader loads on demand). */
  sendFile(file: UploadedFile | Blob, kind: FileKind, input: FileSendInput): StoredMessage {
    const upload = (staged: StagedFile): void => {
      this.fileSender().then((files) => files.upload(staged), (e: unknown) => this.ctx.reportError(e, 'upload'));
    };
    return sendFile({ ...this.ctx, sender: this.sender, durable: this.durable }, file, kind, input, upload);
  }

  /** Retries a failed message: a file's upload, or a send (reconnecting a connection that gave up). */
  retry(fp: string): ReturnType<MessageSender['retry']> {
    if (this.files?.has(fp)) return this.files.retry(fp);
    const held = this.ctx.messages.get(fp);
    if (held?.failReason === 'too-large-to-keep') return held; // the bytes are gone: the file must be picked again
    if (!(this.stack?.tabs.isOpen ?? false)) this.reconnectNow(); // a retry is a reason to try the network again, now
    return this.sender.retry(fp);
  }

  /** Stops the connection and the uploads. */
  destroy(): void {
    this.destroyed = true;
    this.welcome.release();
    this.stopNetworkWatch();
    this.stack?.destroy();
    this.files?.dispose();
    this.sender.dispose();
  }

  /** Runs `use` with the socket stack: now when loaded, else once loaded (not after destroy). */
  private withStack(use: (stack: SocketStack) => void): void {
    if (this.stack) return use(this.stack);
    this.loadSocket().then(
      (stack) => {
        if (!this.destroyed) use(stack);
      },
      (e: unknown) => this.ctx.reportError(e, 'connect'),
    );
  }

  private requireStack(): SocketStack {
    if (!this.stack) throw new Error('The socket code has not loaded.');
    return this.stack;
  }

  private buildStack({ createSocketStack: create, ResendPacer }: typeof import('./socket/stack.js')): SocketStack {
    const { ctx, hooks } = this;
    this.stopNetworkWatch(); // the connection follows the network from now on
    this.sender.startPacing(ResendPacer); // nothing is written before the socket code loads
    const stack = create({
      ...{ ctx, options: this.options, network: hooks.network, document: hooks.document, clientEvents: hooks.clientEvents },
      ...{ keys: this.keys, store: this.connectionStore, start: hooks.start },
      ...{ outbox: this.sender.outbox, receipts: hooks.receipts, markFailed: (fp, reason) => this.sender.markFailed(fp, reason) },
      ...{ state: hooks.state, createId: hooks.createId, identityReset: () => this.forgetConversation(), forgetIdentity: (id) => this.forgetIdentity(id) },
      followIdentity: (c) => import('./identity-switch.js').then((m) => m.follow(this, c)),
      onWelcome: (message) => this.onWelcome(message),
      loggedIn: (reconnected) => this.onOpen(reconnected),
      halted: () => {
        this.sender.failPending('network');
        this.welcome.release();
      },
    });
    this.stack = stack;
    if (this.destroyed) stack.destroy();
    return stack;
  }

  private onOpen(reconnected: boolean): void {
    this.ctx.events.emit('socket login', { reconnected });
    this.sender.resendPending();
    // Visitors catch up through findMsgForCus / clientGroupMsgList; those are visitor calls, and the
    // documents give an agent (connect data role 'agent') no history call to catch up with. The
    // catch-up waits for the welcome: only an accepted connect binds the key session to this
    // visitor (protocol §3a), and a refused one (4001, 4004) has nothing to catch up.
    // a follower is in once the leader's socket is open (its key session is then shared)
    if (this.tabRole === 'follower') this.welcome.release();
    const catchUp = reconnected && this.ctx.connectData().role !== 'agent' ? this.history.heldMark() : null;
    // A follower tab uses the leader's socket, welcomed long ago, and its bound key session.
    if (catchUp && this.tabRole === 'follower') this.fetchMissed(catchUp);
    else this.catchUpOnWelcome = catchUp;
  }

  private onWelcome(message: ChatMessage): void {
    this.welcome.bind();
    this.connectionStore.setState(typeof message.to === 'string' && message.to !== '' ? { welcomed: true, userId: message.to } : { welcomed: true });
    this.welcome.release();
    if (this.catchUpOnWelcome) this.fetchMissed(this.catchUpOnWelcome);
    this.catchUpOnWelcome = null;
  }

  /** Fetches what was missed after `from` (an error is reported, never thrown). */
  private fetchMissed(from: CatchUpMark): void {
    this.history.fetchMissed(undefined, from).catch((e: unknown) => this.ctx.reportError(e, 'http'));
  }

  /**
   * Makes a call that speaks for this visitor (see the socket stack's `callReady`), made while a
   * connect is wanted, wait for the welcome; nothing to wait for otherwise.
   * @param path - the call's path
   * @param opts - its options
   */
  callReady(path: string, opts: RequestOptions): Promise<void> | undefined {
    if (this.connectWanted) return this.loadSocket().then((stack) => stack.callReady(path, opts, () => this.welcome.callsReady()));
  }

  /**
   * Forgets on this device the drafts and the durable outbox of a client id that is not ours any
   * more (the server refused it: 4004).
   * @param clientId - the refused id
   * @internal
   */
  forgetIdentity(clientId: string): Promise<void> {
    const scope = outboxScope(clientId, this.ctx.connectData());
    try {
      this.hooks.journal?.removeItem(DRAFTS_KEY_PREFIX + scope);
    } catch {
      // an unavailable storage holds no draft
    }
    return this.durable.forget(scope);
  }

  /**
   * A refused identity was replaced (4004), or `identify()`/`reset()` switched the visitor: the
   * conversation held is not ours any more (told with the `identityReset` notice unless `quiet`).
   * @internal
   */
  forgetConversation(quiet?: boolean): void {
    this.sender.outbox.clear();
    this.ctx.messages.clear();
    this.history.reset();
    this.ctx.session.setState({ ...INITIAL_SESSION });
    const router = this.stack?.router;
    if (router) {
      router.userId = undefined;
      router.highestSeq = undefined;
    }
    this.keys.forget(); // a fresh key session for the fresh identity
    if (!quiet) this.ctx.notify('identityReset', 'warning');
  }
}
