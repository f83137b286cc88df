/**
 * `ImClient`: the SDK's public face. It composes the managers (HTTP, the engine of socket, sending
 * and history, clock, receipts, messages, i18n, state, drafts) and owns no protocol detail itself.
 * @module
 */
import { ServerClock } from './clock.js';
import { randomUuid } from './crypto/random.js';
import type { ClientContext } from './client-context.js';
import { Engine } from './engine.js';
import { asError, ImError } from './errors.js';
import type { IdentityInput } from './identity-switch.js';
import type { HistoryPager } from './messages/history.js';
import { outboxScope } from './outbox/durable.js';
import type { FileKind } from './outbox/file-message.js';
import type { SendInput } from './outbox/sender.js';
import type { ErrorSource, ConnectionState, ImClientEvents, NoticeLevel } from './events.js';
import { HttpClient, type RequestOptions } from './http/http-client.js';
import { PERMIT_PATH, PermitApi } from './http/permit-api.js';
import type { MerchantInfo, MessagePage } from './http/types.js';
import { I18n, type I18nKey, type Language, type NoticeKey } from './i18n/index.js';
import { lazy } from './lazy.js';
import { MessageList } from './messages/message-list.js';
import { MessageType, type ChatMessage, type StoredMessage } from './messages/types.js';
import { DEFAULT_DEEP_LINKS, DEFAULT_LIMITS, type DeepLinkOptions, type ImClientLimits, type ImClientOptions } from './options.js';
import { globalDocument, globalWindow } from './platform.js';
import { createReadTracking } from './receipts/read-tracking.js';
import { RECEIPTABLE_TYPES } from './receipts/receipt.js';
import type { ReceiptManager } from './receipts/receipt-manager.js';
import type { VisibilityTracker } from './receipts/visibility.js';
import type { AvailabilityStore } from './presence/availability.js';
import { INITIAL_AVAILABILITY } from './presence/types.js';
import { createSessionStore, type SessionState } from './session.js';
import type { ConnectionSnapshot, ReadonlyStore } from './socket/connection-snapshot.js';
import type { StartupResult } from './startup.js';
import { createClientState, type ClientStateStore } from './state/client-state.js';
import { Drafts } from './state/drafts.js';
import { resolveStorage } from './state/storage.js';
import { Emitter } from './state/emitter.js';
import { createStore, type Store } from './state/store.js';
import type { TabRole } from './tabs/tab-link.js';
import { defaultTimers, flushableDefer, type FlushableDefer } from './timers.js';
import { createTyping, type Typing } from './typing/typing.js';
import { UnreadStore } from './unread/unread-store.js';
import type { UploadedFile } from './upload/types.js';

export { ImError } from './errors.js';

// Rating, the merchant info and switching the visitor (identify, reset) are calls a page makes
// later, if at all: their code loads on first use.
const loadConversationCalls = lazy(() => import('./conversation.js'));
export type { SendInput } from './outbox/sender.js';

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
export class ImClient extends Emitter<ImClientEvents> {
  /** Timings and limits in force (spec §9 defaults merged with the options). */
  readonly limits: Readonly<ImClientLimits>;
  /** Deep-link schemes and the public website. */
  readonly deepLinks: Readonly<DeepLinkOptions>;
  /** The HTTP client (envelope and error rules). */
  readonly http: HttpClient;
  /**
   * Typed permit API calls (spec §7). A visitor's calls that speak for it (history, rating,
   * questions, leaving a message, group members, uploads) need the key session bound by the
   * socket's welcome (protocol §3a): made while a connect is under way (after `socket login` too),
   * they wait for the welcome (`connectionStore`'s `welcomed`), at most `limits.requestTimeout`;
   * made while not connecting, or while the connection shows `failed`, they go at once (and a
   * session never welcomed gets `ApiError` 4003).
   */
  readonly api: PermitApi;
  /** The server clock. */
  readonly clock: ServerClock;
  /**
   * The messages of the conversation, keyed by `fp`. Incoming frames that arrive together (in one
   * network chunk, or in tasks queued before a zero-delay timer runs) notify its subscribers once.
   */
  readonly messages: MessageList;
  /** History paging of {@link ImClient.messages}, with the paging state (`hasMore`, `loading`) to subscribe to. */
  readonly history: HistoryPager;
  /** Persisted client state: language, uuid, paramsData, merchant info, leave-message flag. */
  readonly state: ClientStateStore;
  /** Composer drafts per conversation, kept in storage so they survive a reload. */
  readonly drafts: Drafts;
  /** The conversation session: status, queue position, agent, suggestions. */
  readonly session: Store<SessionState>;
  /** Interface texts. */
  readonly i18n: I18n;
  /** Page visibility (always visible without a document). */
  readonly visibility: VisibilityTracker;
  /** Read receipts: immediate when visible, queued while hidden. */
  readonly receipts: ReceiptManager;
  /** The connection snapshot (state, online, attempt, next attempt time, last close code, user id) for UIs. */
  readonly connectionStore: ReadonlyStore<ConnectionSnapshot>;
  /** Typing signals both ways (type 105): who is typing per conversation, and the composer's calls (loaded on first use). */
  readonly typing: Typing;
  /** Unread counts per conversation (what arrived while the page was hidden and is not read yet). */
  readonly unread: UnreadStore;

  private readonly engine: Engine;
  private readonly ctx: ClientContext;
  private availabilityStore: AvailabilityStore | undefined;
  /** Loads the availability room once; a failed load (a lost chunk) is tried again on the next call. */
  private readonly loadAvailability = lazy(async () => {
    const { createAvailabilityStore } = await import('./presence/availability.js');
    const parts = { createStore, signalType: MessageType.Availability, path: `${PERMIT_PATH}/getAvailability`, initial: INITIAL_AVAILABILITY };
    const store = createAvailabilityStore(this, parts);
    if (this.destroyed) store.destroy();
    else this.availabilityStore = store;
    return store;
  });
  private connectData: Record<string, unknown>;
  private destroyed = false;
  /** The message list's end of a burst of frames: a zero-delay timer of the client's timers. */
  private readonly burstEnd: FlushableDefer;

  /** @param options - endpoints, socket key, and injectable transports, storage and timers */
  constructor(options: ImClientOptions) {
    super();
    if (!options || typeof options.baseUrl !== 'string' || typeof options.socketUrl !== 'string' || typeof options.socketKey !== 'string') {
      throw new TypeError('ImClient needs the string options baseUrl, socketUrl and socketKey.');
    }
    const timers = options.timers ?? defaultTimers;
    this.burstEnd = flushableDefer(timers);
    // a burst of incoming frames ends with a zero-delay timer: a browser hands each WebSocket frame
    // to a task of its own, and a re-render (and unread recount) per frame costs O(messages held)
    // (destroy() ends an open burst at once: no timer of the client outlives it)
    this.messages = new MessageList({ endBurst: this.burstEnd.defer });
    const limits = (this.limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits }));
    this.deepLinks = Object.freeze({ ...DEFAULT_DEEP_LINKS, ...options.deepLinks });
    this.connectData = { ...(options.connectData ?? {}) };
    const storage = resolveStorage(options.storage);
    this.state = createClientState({ storage, createId: randomUuid });
    this.drafts = new Drafts(storage, () => outboxScope(this.clientId, this.connectData));
    this.session = createSessionStore();
    this.i18n = new I18n(options.language ?? this.state.getStoredLanguage());
    this.clock = new ServerClock({ timers, tick: limits.clockTick });
    const notify = (key: NoticeKey, level: NoticeLevel, text?: string): void => this.notify(key, level, text);
    const ready = (path: string, opts: RequestOptions): Promise<void> | undefined => this.engine.callReady(path, opts);
    this.http = new HttpClient({ ...options, timers, limits, getLanguage: () => this.i18n.language, getSession: () => this.engine.httpSession(), notify, ready });
    this.api = new PermitApi(this.http);
    const { messages, session, i18n, clock, api } = this;
    const ctx: ClientContext = (this.ctx = {
      ...{ messages, session, i18n, clock, api, limits, timers, events: this },
      ...{ selfId: () => this.userId, clientId: () => this.clientId, connectData: () => this.connectData, notify },
      reportError: (error, source) => this.reportError(error, source),
    });
    const window = options.window === undefined ? globalWindow() : options.window;
    const document = options.document === undefined ? globalDocument() : options.document;
    const socket = { send: (message: ChatMessage) => this.engine.sendNow(message) };
    const tracking = createReadTracking({ ...options, document, window, timers, socket, selfId: ctx.selfId });
    ({ visibility: this.visibility, receipts: this.receipts } = tracking);
    this.engine = new Engine(ctx, options, {
      ...{ receipts: this.receipts, network: window, document, start: () => this.start() },
      ...{ state: this.state, createId: randomUuid, clientEvents: this, journal: storage },
    });
    this.history = this.engine.history;
    this.connectionStore = this.engine.connectionStore;
    this.typing = createTyping(this, timers);
    const { visibility, receipts } = this;
    this.unread = new UnreadStore({ messages, visibility, autoReadDelay: receipts.autoReadDelay, types: RECEIPTABLE_TYPES, selfId: ctx.selfId, timers });
  }

  /** The connection state (in a follower tab: the leader tab's). */
  get connectionState(): ConnectionState { return this.engine.connectionState; }
  /** This tab's role: `leader` (owns the visitor's socket), `follower` (uses the leader's) or `solo`. */
  get tabRole(): TabRole { return this.engine.tabRole; }
  /** False while the browser reports being offline (window `offline` event or `navigator.onLine`). */
  get online(): boolean { return this.engine.connectionStore.getState().online; }
  /** The user id the server gave (`to` of the welcome), once known. */
  get userId(): string | undefined { return this.engine.userId; }
  /** This client's id (the uuid kept in storage, the `u` of the connect payload). */
  get clientId(): string { return this.state.getState().uuid; }
  /** True once the start-up key exchange succeeded. */
  get ready(): boolean { return this.engine.keys.keys !== null; }
  /** The AES switch (frames are encrypted when on); false until started. */
  get aesSwitch(): boolean { return this.engine.keys.keys?.aesSwitch ?? false; }

  /** The connect data (`d` of the connect payload). */
  getConnectData(): Readonly<Record<string, unknown>> { return this.connectData; }

  /**
   * Replaces the connect data used by the next connection attempt (e.g. after decoding an entry link).
   * @param data - the new `d` payload
   */
  setConnectData(data: Record<string, unknown>): void { this.connectData = { ...data }; }

  /**
   * Runs start-up (protocol §1): server time, AES key, user token, AES switch, and the stored
   * language's texts. Failed steps are swallowed (spec §8): they are emitted as `error` events with
   * source `start` and the result says which failed. Calling it again returns the same promise
   * (in flight or done) unless the keys failed to load, in which case it runs again.
   */
  start(): Promise<StartupResult> {
    if (this.destroyed) return Promise.reject(new ImError('destroyed', 'The client was destroyed.'));
    return this.engine.keys.load(
      () => {
        this.visibility.start();
        const language = this.setLanguage(this.i18n.language).catch((e: unknown) => this.reportError(e, 'start'));
        // the socket code loads alongside the keys: a connect follows start-up
        const socket = this.engine.loadSocket().catch((e: unknown) => this.reportError(e, 'start'));
        return Promise.all([language, socket, this.engine.restore().catch((e: unknown) => this.reportError(e, 'send'))]);
      },
      (errors) => errors.forEach((error) => this.reportError(error, 'start')),
    );
  }

  /** Opens the socket (starting first if needed). Leaves the `failed` state. */
  connect(): void {
    if (this.destroyed) return;
    this.engine.connect();
  }

  /**
   * Reconnects now with a fresh backoff, from any state but open (a "reconnect now" button): leaves
   * `failed`, even after a "never reconnect" close, and skips a scheduled wait.
   */
  reconnect(): void {
    if (this.destroyed) return;
    this.engine.reconnectNow();
  }

  /** Closes the socket without reconnecting. Pending messages stay in the outbox. */
  disconnect(): void { this.engine.disconnect(); }

  /**
   * Sends a message: acknowledged types (100-103, 301, 302) are `pending` until the server's echo
   * (`sent`) or refusal (`failed`), kept in the outbox while the socket is down (chat types across
   * a reload too); other types are sent now if the socket is open, else `failed`.
   * @throws {@link ImError} `blank` for a blank text (and a `blankMessage` notice)
   */
  send(input: SendInput): StoredMessage {
    if (this.destroyed) throw new ImError('destroyed', 'The client was destroyed.');
    return this.engine.sender.send(input);
  }

  /**
   * Sends a text message (type 100).
   * @param text - the text (may hold `face[name]` emoji tokens)
   */
  sendText(text: string, options: Omit<SendInput, 'dataContent' | 'type'> = {}): StoredMessage {
    return this.send({ ...options, type: MessageType.Text, dataContent: text });
  }

  /**
   * Sends a file as an image (101), file (102) or video (103) message: an upload result at once;
   * a picked file (a Blob) is pending at once, uploaded, then sent, and kept for a reload until
   * then (under `outboxFileCap`; over it, the message shows failed `too-large-to-keep` after a reload).
   * @param file - the upload result, or the picked file
   * @param kind - which message type to use
   * @param options - recipient and extra fields; `name` for a Blob without one
   */
  sendFile(file: UploadedFile | Blob, kind: FileKind, options: Omit<SendInput, 'dataContent' | 'type'> & { name?: string } = {}): StoredMessage {
    if (this.destroyed) throw new ImError('destroyed', 'The client was destroyed.');
    return this.engine.sendFile(file, kind, options);
  }

  /**
   * Resends a failed message with the same `fp` (safe: the server stores one message per `fp`).
   * @param fp - the message's fingerprint
   */
  retry(fp: string): StoredMessage { return this.engine.retry(fp); }

  /**
   * The availability store (business hours, agents available, the queue's position and estimated
   * wait, the answer when nobody can come), loaded on first use and the same afterwards. Load it
   * before asking for a human so that its events are not missed.
   */
  availability(): Promise<AvailabilityStore> {
    return this.loadAvailability();
  }

  /**
   * Makes this client the merchant's verified member (protocol §3b) without a reload: from now on
   * every connect carries the member's identity token, the socket reconnects at once and the
   * member's history loads (it holds the anonymous conversation, which the server merges in).
   * @param token - the identity token (a JWT its backend signed), or a function that returns a fresh one (like the `getIdentityToken` option)
   */
  identify(token: IdentityInput): Promise<void> {
    return loadConversationCalls().then((m) => m.identify(this, this.engine, token));
  }

  /**
   * The member logged out on the merchant's site: closes the socket, forgets the identity token,
   * the client id's secret (protocol §3a), the drafts and the durable outbox of that identity on
   * this device, and starts again as a new anonymous visitor (a new client id; reconnects if it was
   * connecting). Stores are cleared in place (event `identity`).
   */
  reset(): Promise<void> {
    return loadConversationCalls().then((m) => m.reset(this, this.engine));
  }

  /** Asks for a human agent (type 301). */
  transferToHuman(): StoredMessage { return this.send({ type: MessageType.TransferToHuman, dataContent: '{}' }); }

  /** Ends the conversation (type 302). */
  endConversation(): StoredMessage { return this.send({ type: MessageType.EndConversation, dataContent: '{}' }); }

  /**
   * Rates the conversation (markScore). A visitor rates once per conversation; a blacklisted one
   * is refused (the server's message is shown as a notice and the promise rejects with ApiError).
   * @param score - 1 (very dissatisfied) to 5 (very satisfied)
   * @param remark - optional comment
   */
  rate(score: number, remark?: string): Promise<void> { return loadConversationCalls().then((calls) => calls.rateConversation(this.ctx, score, remark)); }

  /**
   * Loads the merchant info (`getMerchantById` with the connect data's `mchId` and `platformId`)
   * into {@link ImClient.state} (`merchantInfo`, persisted) and returns it.
   */
  loadMerchantInfo(): Promise<MerchantInfo> { return loadConversationCalls().then((calls) => calls.loadMerchantInfo(this.ctx, this.state)); }

  /**
   * Loads the page of history before the oldest message held into {@link ImClient.messages}
   * (chat content only); see {@link HistoryPager.loadOlder}.
   * @param size - page size (default 20)
   */
  loadOlder(size = 20): Promise<MessagePage> { return this.history.loadOlder(size); }

  /**
   * Fetches what was missed while away and handles it as if it had arrived on the socket (see
   * {@link HistoryPager.fetchMissed}). Called automatically after every reconnect.
   * @param maxPages - how many pages of 100 at most
   * @returns how many messages were fetched
   */
  fetchMissed(maxPages = 20): Promise<number> { return this.history.fetchMissed(maxPages); }

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
  t(key: I18nKey, params?: Record<string, string | number>): string { return this.i18n.t(key, params); }

  /** Stops everything: no reconnect, every timer and listener cleared. The client cannot be reused. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const part of [this.engine, this.http, this.receipts, this.visibility, this.clock, this.state, this.typing, this.unread]) part.destroy();
    this.availabilityStore?.destroy();
    this.burstEnd.flush();
    this.removeAllListeners();
  }

  private notify(key: NoticeKey, level: NoticeLevel, serverText?: string): void {
    this.emit('notice', { key, text: serverText || this.i18n.t(key), level, duration: this.limits.noticeDuration });
  }

  private reportError(error: unknown, source: ErrorSource): void {
    this.emit('error', { error: asError(error), source });
  }
}
