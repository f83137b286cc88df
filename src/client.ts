/**
 * `ImClient`: composes the managers (HTTP, socket connection, clock, receipts, messages, i18n,
 * state) and routes messages between them. It owns no protocol detail itself.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import { ServerClock } from './clock.js';
import { randomUuid } from './crypto/random.js';
import type { ErrorSource, ConnectionState, ImClientEvents } from './events.js';
import { HttpClient } from './http/http-client.js';
import { PermitApi } from './http/permit-api.js';
import type { MerchantInfo, MessagePage } from './http/types.js';
import { I18n, type I18nKey, type Language } from './i18n/index.js';
import { MessageList } from './messages/message-list.js';
import { isChatType, messageTimeMs } from './messages/content.js';
import { routeInbound, type InboundContext } from './inbound.js';
import { MessageType, type ChatMessage, type FileContent, type StoredMessage } from './messages/types.js';
import {
  DEFAULT_DEEP_LINKS,
  DEFAULT_LIMITS,
  DEFAULT_RECEIPT_OPTIONS,
  fixedDelayPolicy,
  type DeepLinkOptions,
  type ImClientLimits,
  type ImClientOptions,
  type ReconnectPolicy,
  type DocumentLike,
  type WebSocketConstructor,
  type WindowLike,
} from './options.js';
import { ReceiptManager } from './receipts/receipt-manager.js';
import { VisibilityTracker } from './receipts/visibility.js';
import { createSessionStore, type SessionState } from './session.js';
import { Connection } from './socket/connection.js';
import { decodeFrame, encodeFrame, FrameError } from './socket/frame-codec.js';
import { Outbox } from './socket/outbox.js';
import { attachTabs, type TabLink, type TabRole } from './tabs/tab-link.js';
import { runStartup, type KeySession, type StartupResult } from './startup.js';
import { createClientState, type ClientStateStore } from './state/client-state.js';
import { resolveStorage } from './state/storage.js';
import type { Store } from './state/store.js';
import { defaultTimers, type TimerProvider } from './timers.js';
import { Uploader, type UploaderOptions } from './upload/uploader.js';
import type { UploadedFile } from './upload/types.js';

/** What to send with {@link ImClient.send}. */
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

/** An error of a client call, with a machine-readable code. */
export class ImError extends Error {
  /** A short code: `blank`, `destroyed`, `not-started`, `invalid-score`, `not-found`. */
  readonly code: string;
  /**
   * @param code - machine-readable code
   * @param message - human-readable text
   */
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ImError';
    this.code = code;
  }
}


/**
 * The headless kefu chat client.
 *
 * ```ts
 * const client = new ImClient({ baseUrl, socketUrl, socketKey, connectData: { mchId, platformId } });
 * client.on('socket message', ({ message }) => console.log(message));
 * await client.start();
 * client.connect();
 * client.sendText('hello');
 * ```
 */
export class ImClient extends EventEmitter<ImClientEvents> {
  /** Timings and limits in force (spec §9 defaults merged with the options). */
  readonly limits: Readonly<ImClientLimits>;
  /** Deep-link schemes and the public website. */
  readonly deepLinks: Readonly<DeepLinkOptions>;
  /** The HTTP client (envelope and error rules). */
  readonly http: HttpClient;
  /** Typed permit API calls (spec §7). */
  readonly api: PermitApi;
  /** The server clock. */
  readonly clock: ServerClock;
  /** The messages of the conversation, keyed by `fp`. */
  readonly messages = new MessageList();
  /** Persisted client state: language, uuid, paramsData, merchant info, leave-message flag. */
  readonly state: ClientStateStore;
  /** The conversation session: status, queue position, agent, suggestions. */
  readonly session: Store<SessionState>;
  /** Interface texts. */
  readonly i18n: I18n;
  /** Page visibility (always visible without a document). */
  readonly visibility: VisibilityTracker;
  /** Read receipts: immediate when visible, queued while hidden. */
  readonly receipts: ReceiptManager;

  private readonly options: ImClientOptions;
  private readonly timers: TimerProvider;
  private readonly connection: Connection;
  private readonly outbox = new Outbox();
  /** One socket per visitor per browser: the link to the own socket or the leader tab's. */
  private readonly tabs: TabLink;
  private keys: KeySession | null = null;
  private token: { userKey: string; saltKey: string } | null = null;
  private startPromise: Promise<StartupResult> | null = null;
  private currentUserId: string | undefined;
  private connectData: Record<string, unknown>;
  private destroyed = false;
  /** The oldest time seen in history pages (pages may hold types that never join the list). */
  private oldestFetched: number | undefined;
  /** Connects refused with 4001 since the last welcome (the socket opens before the refusal). */
  private refusedInARow = 0;
  private readonly inbound: InboundContext;

  /**
   * @param options - endpoints, socket key, and injectable transports, storage and timers
   */
  constructor(options: ImClientOptions) {
    super();
    if (!options || typeof options.baseUrl !== 'string' || typeof options.socketUrl !== 'string' || typeof options.socketKey !== 'string') {
      throw new TypeError('ImClient needs the string options baseUrl, socketUrl and socketKey.');
    }
    this.options = options;
    this.timers = options.timers ?? defaultTimers;
    this.limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    this.deepLinks = Object.freeze({ ...DEFAULT_DEEP_LINKS, ...options.deepLinks });
    this.connectData = { ...(options.connectData ?? {}) };
    this.state = createClientState({ storage: resolveStorage(options.storage), createId: randomUuid });
    this.session = createSessionStore();
    this.i18n = new I18n(options.language ?? this.state.getStoredLanguage());
    this.clock = new ServerClock({ timers: this.timers, tick: this.limits.clockTick });
    this.http = new HttpClient({
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      timers: this.timers,
      limits: this.limits,
      getLanguage: () => this.i18n.language,
      // A follower tab calls with the leader's key session (bound to the identity by its socket).
      getSession: () => this.tabs?.sharedKeySession ?? { saltKey: this.token?.saltKey, userKey: this.token?.userKey },
      notify: (key, level, serverText) => this.notify(key, level, serverText),
    });
    this.api = new PermitApi(this.http);

    const win = options.window === undefined ? globalWindow() : options.window;
    const doc = options.document === undefined ? globalDocument() : options.document;
    const receiptOptions = { ...DEFAULT_RECEIPT_OPTIONS, ...options.receipts };
    this.visibility = new VisibilityTracker({
      document: doc,
      window: win,
      timers: this.timers,
      debounceDelay: receiptOptions.debounceDelay,
      stateValidationInterval: receiptOptions.stateValidationInterval,
    });
    this.receipts = new ReceiptManager(
      { send: (message) => this.sendFrame(message) },
      {
        selfId: () => this.userId,
        timers: this.timers,
        tracker: this.visibility,
        batchSize: receiptOptions.batchSize,
        autoReadDelay: receiptOptions.autoReadDelay,
      },
    );

    this.connection = new Connection({
      createUrl: () => this.createSocketUrl(),
      WebSocket: options.WebSocket ?? globalWebSocket(),
      timers: this.timers,
      heartbeatInterval: this.limits.heartbeatInterval,
      reconnectPolicy: withCloseCodes(
        options.reconnectPolicy ?? fixedDelayPolicy(this.limits.reconnectDelay, this.limits.maxReconnectAttempts),
        () => this.refusedInARow,
      ),
      network: win,
      heartbeat: () => this.encode({ type: MessageType.Heartbeat, dataContent: '{}', from: this.userId ?? this.clientId }),
      maxFrameSize: this.limits.maxFrameSize,
    });
    this.inbound = {
      messages: this.messages,
      outbox: this.outbox,
      session: this.session,
      receipts: this.receipts,
      selfId: () => this.userId,
      events: this,
      notify: (key, level) => this.notify(key, level),
      markFailed: (fp, reason) => this.markFailed(fp, reason),
      reportError: (error, source) => this.reportError(error, source),
    };
    this.tabs = attachTabs(
      {
        connection: this.connection,
        events: this,
        scope: () => ({ clientId: this.clientId, connectData: this.connectData }),
        writeOwn: (message) => this.connection.state === 'open' && this.connection.send(this.encode(message)),
        deliver: (message, encrypted) => this.onMessage(message, encrypted),
        loggedIn: (reconnected) => this.onOpen(reconnected),
        keySession: () => this.token,
        adoptUserId: (userId) => this.setUserId(userId),
        stateChanged: (ctx) => {
          this.emit('state', ctx);
          if (ctx.newState === 'failed') this.failPending('network');
        },
        lifecycle: doc,
        timers: this.timers,
        reportError: (error) => this.reportError(error, 'socket'),
      },
      options.tabs,
      win !== null,
    );
    this.connection.on('close', ({ code }) => {
      // 4001: the connect check failed, most likely an expired key session: the next attempt
      // runs the key exchange again (docs/protocol.md, close codes).
      if (code === CLOSE_UNAUTHORIZED) {
        this.forgetKeys();
        this.refusedInARow++;
      }
    });
    this.connection.on('frame', ({ data }) => this.onFrame(data));
    this.connection.on('error', ({ error, source }) => this.reportError(error, source));
    this.connection.on('network', ({ online }) => {
      if (online) this.refusedInARow = 0;
      this.emit('network', { online });
    });
  }

  /** The connection state (in a follower tab: the leader tab's). */
  get connectionState(): ConnectionState {
    return this.tabs.state;
  }

  /** This tab's role: `leader` (owns the visitor's socket), `follower` (uses the leader's) or `solo`. */
  get tabRole(): TabRole {
    return this.tabs.role;
  }

  /** False while the browser reports being offline (window `offline` event or `navigator.onLine`). */
  get online(): boolean {
    return this.connection.online;
  }

  /** The user id the server gave (`to` of the welcome), once known. */
  get userId(): string | undefined {
    return this.currentUserId;
  }

  /** This client's id (the uuid kept in storage, the `u` of the connect payload). */
  get clientId(): string {
    return this.state.getState().uuid;
  }

  /** True once the start-up key exchange succeeded. */
  get ready(): boolean {
    return this.keys !== null;
  }

  /** The AES switch (frames are encrypted when on); false until started. */
  get aesSwitch(): boolean {
    return this.keys?.aesSwitch ?? false;
  }

  /** The connect data (`d` of the connect payload). */
  getConnectData(): Readonly<Record<string, unknown>> {
    return this.connectData;
  }

  /**
   * Replaces the connect data used by the next connection attempt (e.g. after decoding an entry link).
   * @param data - the new `d` payload
   */
  setConnectData(data: Record<string, unknown>): void {
    this.connectData = { ...data };
  }

  /**
   * Runs start-up (protocol §1): server time, AES key, user token, AES switch, and the stored
   * language's texts. Failed steps are swallowed (spec §8): they are emitted as `error` events with
   * source `start` and the result says which failed. Calling it again returns the same promise
   * (in flight or done) unless the keys failed to load, in which case it runs again.
   */
  start(): Promise<StartupResult> {
    if (this.destroyed) return Promise.reject(new ImError('destroyed', 'The client was destroyed.'));
    if (this.startPromise) return this.startPromise; // in flight, or done with keys
    const run = async (): Promise<StartupResult> => {
      this.visibility.start();
      const language = this.setLanguage(this.i18n.language).catch((e: unknown) => this.reportError(asError(e), 'start'));
      const [result] = await Promise.all([runStartup(this.api, this.clock, this.timers, (token) => (this.token = token)), language]);
      if (result.session) this.keys = result.session;
      else this.startPromise = null; // the keys failed: the next call tries again
      for (const error of result.errors) this.reportError(error, 'start');
      return result;
    };
    const promise = run();
    this.startPromise = promise;
    return promise;
  }

  /** Opens the socket (starting first if needed). Leaves the `failed` state. */
  connect(): void {
    if (this.destroyed) return;
    this.refusedInARow = 0;
    this.tabs.connect();
  }

  /** Closes the socket without reconnecting. Pending messages stay in the outbox. */
  disconnect(): void {
    this.tabs.disconnect();
  }

  /**
   * Sends a message. Types the server acknowledges (100-103, 301, 302) are `pending` at once (chat
   * types also appear in {@link ImClient.messages}), sent now if the socket is open and otherwise
   * kept in the outbox and sent after the next (re)connect; they become `sent` when the server
   * echoes them and `failed` when it refuses them. Other types are sent at once if the socket is
   * open (`sent`) or not at all (`failed`).
   * @throws {@link ImError} `blank` for a blank text (and a `blankMessage` notice)
   */
  send(input: SendInput): StoredMessage {
    if (this.destroyed) throw new ImError('destroyed', 'The client was destroyed.');
    const type = input.type ?? MessageType.Text;
    if (typeof input.dataContent !== 'string') throw new TypeError('dataContent must be a string.');
    if ((type === MessageType.Text || type === MessageType.RobotText) && input.dataContent.trim() === '') {
      this.notify('blankMessage', 'warning');
      throw new ImError('blank', this.i18n.t('blankMessage'));
    }
    const wire: ChatMessage & { fp: string } = {
      ...input.extra,
      type,
      from: this.userId ?? this.clientId,
      to: input.to ?? stringOr(this.connectData.kefuId),
      fp: randomUuid(),
      mchId: this.connectData.mchId as string | number | undefined,
      dataContent: input.dataContent,
      times: this.clock.now(),
      uuid: this.clientId,
      ...(input.isGroup ? { isGroup: 1 } : {}),
    };
    return this.dispatch(wire);
  }

  /**
   * Sends a text message (type 100).
   * @param text - the text (may hold `face[name]` emoji tokens)
   */
  sendText(text: string, options: Omit<SendInput, 'dataContent' | 'type'> = {}): StoredMessage {
    return this.send({ ...options, type: MessageType.Text, dataContent: text });
  }

  /**
   * Sends an uploaded file as an image (101), file (102) or video (103) message.
   * @param file - the upload result
   * @param kind - which message type to use
   */
  sendFile(file: UploadedFile, kind: 'image' | 'file' | 'video', options: Omit<SendInput, 'dataContent' | 'type'> = {}): StoredMessage {
    const content: FileContent = { name: file.name, size: file.size, url: file.url, mime: file.mime };
    if (kind === 'image') return this.send({ ...options, type: MessageType.Image, dataContent: file.url });
    return this.send({ ...options, type: kind === 'video' ? MessageType.Video : MessageType.File, dataContent: JSON.stringify(content) });
  }

  /**
   * Resends a failed message with the same `fp` (safe: the server stores one message per `fp`).
   * @param fp - the message's fingerprint
   */
  retry(fp: string): StoredMessage {
    const stored = this.messages.get(fp);
    if (!stored) throw new ImError('not-found', `No message with fp ${fp}.`);
    if (stored.sendState !== 'failed') return stored;
    const { sendState: _state, failReason: _reason, ...wire } = stored;
    return this.dispatch({ ...wire, fp });
  }

  /** Asks for a human agent (type 301). */
  transferToHuman(): StoredMessage {
    return this.send({ type: MessageType.TransferToHuman, dataContent: '{}' });
  }

  /** Ends the conversation (type 302). */
  endConversation(): StoredMessage {
    return this.send({ type: MessageType.EndConversation, dataContent: '{}' });
  }

  /**
   * Rates the conversation (markScore). A visitor rates once per conversation; a blacklisted one
   * is refused (the server's message is shown as a notice and the promise rejects with ApiError).
   * @param score - 1 (very dissatisfied) to 5 (very satisfied)
   * @param remark - optional comment
   */
  async rate(score: number, remark?: string): Promise<void> {
    if (!Number.isInteger(score) || score < 1 || score > 5) {
      this.notify('rateRequired', 'warning');
      throw new ImError('invalid-score', this.i18n.t('rateRequired'));
    }
    const { sessionId } = this.session.getState();
    await this.api.markScore({
      clientId: this.clientId,
      mchId: this.connectData.mchId as string | number,
      platformId: this.connectData.platformId as string | number,
      ...(sessionId ? { sessionId } : {}),
      score,
      ...(remark ? { remark } : {}),
    });
    this.session.setState({ rateInvited: false });
  }

  /**
   * Loads the merchant info (`getMerchantById` with the connect data's `mchId` and `platformId`)
   * into {@link ImClient.state} (`merchantInfo`, persisted) and returns it.
   */
  async loadMerchantInfo(): Promise<MerchantInfo> {
    const info = await this.api.getMerchantById({
      mchId: this.connectData.mchId as string | number,
      platformId: this.connectData.platformId as string | number,
    });
    this.state.setMerchantInfo(info as Record<string, unknown>);
    return info;
  }

  /**
   * Loads older history (before the oldest message held or fetched) into
   * {@link ImClient.messages}. Only chat content is added: old session events and suggestions
   * are history, not the current state.
   * @param size - page size (default 20)
   */
  async loadOlder(size = 20): Promise<MessagePage> {
    const before = minDefined(this.messages.oldestTime(), this.oldestFetched);
    const page = await this.fetchPage({ ...(before === undefined ? {} : { before }), size });
    this.oldestFetched = minDefined(this.oldestFetched, ...page.list.map(messageTimeMs));
    this.messages.upsertMany(page.list.filter((m) => isChatType(m.type)));
    return page;
  }

  /**
   * Fetches what was missed while away (history newer than the newest `createTime` held), page by
   * page, and handles it as if it had arrived on the socket: chat messages join the list (and get
   * their receipts), session events and suggestions update the session. Called automatically
   * after every reconnect.
   * @param maxPages - how many pages of 100 at most
   * @returns how many messages were fetched
   */
  async fetchMissed(maxPages = 20): Promise<number> {
    let fetched = 0;
    let after = this.messages.newestTime();
    for (let i = 0; i < maxPages; i++) {
      const page = await this.fetchPage({ ...(after === undefined ? {} : { after }), size: 100 });
      for (const message of page.list) routeInbound(message, this.inbound);
      fetched += page.list.length;
      const newest = page.list.map(messageTimeMs).filter((t): t is number => t !== undefined);
      if (!page.hasMore || newest.length === 0) break;
      after = Math.max(after ?? -Infinity, ...newest);
    }
    return fetched;
  }

  /**
   * Marks a received message read now (read-on-scroll): sends its type-104 receipt once.
   * @param message - the message that scrolled into view
   */
  markRead(message: ChatMessage): void {
    this.receipts.markRead(message);
    if (message.fp && this.messages.has(message.fp)) this.messages.patch(message.fp, { isRead: 1 });
  }

  /**
   * Switches the interface language (loading its texts lazily) and persists it.
   * @param language - a supported language code (unknown codes fall back to zh)
   */
  async setLanguage(language: string): Promise<Language> {
    const lang = await this.i18n.setLanguage(language);
    this.state.setState({ language: lang });
    this.emit('language', { language: lang });
    return lang;
  }

  /**
   * Translates an interface text key into the current language.
   * @param key - the text key
   * @param params - `{name}` interpolation values
   */
  t(key: I18nKey, params?: Record<string, string | number>): string {
    return this.i18n.t(key, params);
  }

  /**
   * Creates an upload queue bound to this client's upload endpoints and limits.
   * @param options - count, size and type limits (spec §5: default unlimited count and size, images only)
   */
  createUploader(options: Partial<Omit<UploaderOptions, 'transport'>> = {}): Uploader {
    return new Uploader({
      chunkSize: this.limits.chunkSize,
      translate: (key: I18nKey) => this.i18n.t(key),
      ...options,
      transport: this.api,
    });
  }

  /** Stops everything: no reconnect, every timer and listener cleared. The client cannot be reused. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.tabs.destroy();
    this.connection.destroy();
    this.http.destroy();
    this.receipts.destroy();
    this.visibility.destroy();
    this.clock.destroy();
    this.state.destroy();
    this.removeAllListeners();
  }

  private dispatch(wire: ChatMessage & { fp: string }): StoredMessage {
    const frame = this.encode(wire);
    if (!ACKNOWLEDGED_TYPES.has(wire.type)) {
      // Not acknowledged by the server (e.g. an agent's accept, 311): sent now or not at all.
      const sent = frame.length <= this.limits.maxFrameSize && this.tabs.isOpen && this.tabs.send(wire);
      return { ...wire, sendState: sent ? 'sent' : 'failed', ...(sent ? {} : { failReason: 'not-open' }) };
    }
    // Chat content goes into the conversation list; control messages (301, 302) only into the outbox.
    const pending: StoredMessage = { ...wire, sendState: 'pending', failReason: undefined };
    const stored = isChatType(wire.type) ? this.messages.upsert(pending) : pending;
    this.emit('send state', { fp: wire.fp, state: 'pending', message: stored });
    if (frame.length > this.limits.maxFrameSize) {
      this.markFailed(wire.fp, 'too-large');
      return this.messages.get(wire.fp) ?? stored;
    }
    this.outbox.add(wire);
    if (this.tabs.isOpen) this.tabs.send(wire);
    return stored;
  }

  private forgetKeys(): void {
    this.keys = null;
    this.token = null;
    this.startPromise = null;
  }

  private markFailed(fp: string, reason: string): void {
    this.outbox.fail(fp);
    if (!this.messages.has(fp)) return;
    const message = this.messages.patch(fp, { sendState: 'failed', failReason: reason });
    if (message) this.emit('send state', { fp, state: 'failed', message, reason });
  }

  private failPending(reason: string): void {
    const pending = this.outbox.pending();
    for (const m of pending) if (m.fp) this.markFailed(m.fp, reason);
    if (pending.length > 0) this.notify('sendFailed', 'error');
  }

  private encode(message: ChatMessage): string {
    return encodeFrame(message, this.keys?.aesSwitch ? this.keys.userKey : undefined);
  }

  private sendFrame(message: ChatMessage): boolean {
    return this.tabs.isOpen && this.tabs.send(message);
  }

  private async createSocketUrl(): Promise<string> {
    await this.start();
    if (!this.keys) throw new ImError('not-started', 'Start-up keys are not loaded; cannot connect.');
    // RSA, HMAC and the connect parameters load at the first connect, not at start-up.
    const { buildConnectParams, buildSocketUrl } = await import('./socket/connect-params.js');
    const { params } = await buildConnectParams({
      socketKey: this.options.socketKey,
      clientId: this.clientId,
      saltKey: this.keys.saltKey,
      data: this.connectData,
    });
    return buildSocketUrl(this.options.socketUrl, params);
  }

  private onOpen(reconnected: boolean): void {
    this.emit('socket login', { reconnected });
    for (const m of this.outbox.pending()) this.tabs.send(m);
    // Visitors catch up through findMsgForCus / clientGroupMsgList; those are visitor calls, and the
    // documents give an agent (connect data role 'agent') no history call to catch up with.
    if (reconnected && this.connectData.role !== 'agent') {
      this.fetchMissed().catch((e: unknown) => this.reportError(asError(e), 'http'));
    }
  }

  private onFrame(data: unknown): void {
    let message: ChatMessage;
    let encrypted: boolean;
    try {
      ({ message, encrypted } = decodeFrame(data, this.keys?.userKey));
    } catch (e) {
      this.reportError(e instanceof FrameError ? e : asError(e), 'frame');
      return;
    }
    if (message.type === MessageType.Welcome) this.refusedInARow = 0; // the connect check passed
    this.onMessage(message, encrypted);
  }

  /** Handles a decoded message of the own socket or, in a follower tab, of the leader's. */
  private onMessage(message: ChatMessage, encrypted: boolean): void {
    if (message.type === MessageType.HeartbeatReply || message.type === MessageType.Welcome) {
      if (typeof message.sm === 'number') this.clock.reset(message.sm);
      if (typeof message.to === 'string' && message.to) this.setUserId(message.to);
    }
    this.emit('socket message', { message, encrypted });
    routeInbound(message, this.inbound);
  }

  private setUserId(userId: string): void {
    if (userId === this.currentUserId) return;
    this.currentUserId = userId;
    this.emit('user', { userId });
  }

  private fetchPage(q: { before?: number; after?: number; size: number }): Promise<MessagePage> {
    const groupId = this.connectData.groupId;
    if (groupId !== undefined && groupId !== 0 && groupId !== '0' && groupId !== '') {
      return this.api.clientGroupMsgList({ clientId: this.clientId, groupId: groupId as string | number, ...q });
    }
    return this.api.findMsgForCus({
      clientId: this.clientId,
      mchId: this.connectData.mchId as string | number,
      platformId: this.connectData.platformId as string | number,
      ...q,
    });
  }

  private notify(key: I18nKey, level: 'success' | 'info' | 'warning' | 'error', serverText?: string): void {
    this.emit('notice', { key, text: serverText || this.i18n.t(key), level, duration: this.limits.noticeDuration });
  }

  private reportError(error: Error, source: ErrorSource): void {
    this.emit('error', { error, source });
  }
}

/** Close code of a refused connect check (protocol §3). */
const CLOSE_UNAUTHORIZED = 4001;
/** Close code of a banned visitor: never reconnect (docs/protocol.md). */
const CLOSE_BANNED = 4003;

/**
 * Applies the close codes to a reconnect policy: after 4003 (banned) the client never reconnects.
 * A refused connect (4001) opens the socket before the server closes it, and every open resets the
 * transport's attempt counter; so after 4001 the policy is given the number of refusals in a row
 * instead, and a wrong socket key gives up after `maxReconnectAttempts` like any failed attempt.
 */
function withCloseCodes(policy: ReconnectPolicy, refusedInARow: () => number): ReconnectPolicy {
  return (ctx) => {
    if (ctx.closeCode === CLOSE_BANNED) return null;
    if (ctx.closeCode === CLOSE_UNAUTHORIZED) return policy({ ...ctx, attempt: Math.max(ctx.attempt, refusedInARow()) });
    return policy(ctx);
  };
}

/** Types the server acknowledges by echoing them (protocol §4, Delivery): these wait in the outbox. */
const ACKNOWLEDGED_TYPES: ReadonlySet<number> = new Set([
  MessageType.Text,
  MessageType.Image,
  MessageType.File,
  MessageType.Video,
  MessageType.TransferToHuman,
  MessageType.EndConversation,
]);

/** The smallest defined number, or undefined. */
function minDefined(...values: (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length === 0 ? undefined : Math.min(...defined);
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function stringOr(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}

function globalWindow(): WindowLike | null {
  return typeof window === 'undefined' ? null : window;
}

function globalDocument(): DocumentLike | null {
  return typeof document === 'undefined' ? null : document;
}

function globalWebSocket(): WebSocketConstructor {
  const ctor = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (ctor) return ctor;
  return class MissingWebSocket {
    constructor() {
      throw new Error('No WebSocket available: pass the `WebSocket` option (e.g. the `ws` package in Node).');
    }
  } as unknown as WebSocketConstructor;
}
