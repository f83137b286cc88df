/**
 * Client options with the spec's §9 defaults, in one place.
 * @module
 */
import type { OutboxStorage } from './outbox/storage.js';
import type { TabOptions } from './tabs/tab-link.js';
import type { ListenerTarget, TimerProvider } from './timers.js';

/** The parts of `window` the client uses: events (online/offline, focus/blur, activity) and `navigator.onLine`. */
export interface WindowLike extends ListenerTarget {
  /** The navigator; `onLine` false means offline. */
  navigator?: {
    /** False when the browser is offline. */
    onLine?: boolean;
  };
}

/** The parts of `document` the client uses: `visibilitychange` and the visibility state. */
export interface DocumentLike extends ListenerTarget {
  /** `'visible'` or `'hidden'`. */
  readonly visibilityState?: string;
  /** True when hidden (read when `visibilityState` is absent). */
  readonly hidden?: boolean;
}

/** The key/value storage the client persists its state in (localStorage-compatible). */
export interface StorageLike {
  /** Returns the stored value or null. */
  getItem(key: string): string | null;
  /** Stores a value. */
  setItem(key: string, value: string): void;
  /** Removes a value. */
  removeItem(key: string): void;
}

/**
 * A socket event handler. Declared through a method so that its parameter is checked
 * bivariantly: the browser's and the `ws` package's handlers (typed with their own `Event`,
 * `MessageEvent` and `CloseEvent`) are accepted as they are.
 */
export type SocketEventHandler<E> = {
  /** Handles one event. */
  bivarianceHack(event: E): void;
}['bivarianceHack'];

/** The WebSocket instance shape the SDK uses (browser WebSocket or the `ws` package). */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** Sends a text frame. */
  send(data: string): void;
  /** Closes the socket. */
  close(code?: number, reason?: string): void;
  /** Open handler. */
  onopen: SocketEventHandler<unknown> | null;
  /** Message handler; `event.data` is the frame. */
  onmessage: SocketEventHandler<{ data: unknown }> | null;
  /** Close handler. */
  onclose: SocketEventHandler<{ code: number; reason: string }> | null;
  /** Error handler. */
  onerror: SocketEventHandler<unknown> | null;
}

/** A WebSocket constructor (e.g. `globalThis.WebSocket` or `import { WebSocket } from 'ws'`). */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** Context given to a {@link ReconnectPolicy} (LiveKit's `ReconnectContext`, plus the page's state). */
export interface ReconnectContext {
  /**
   * 1 for the first retry after a close, 2 for the next, ... reset when a connection opens and by
   * an immediate attempt (`reconnect()`, `online`, the page becoming visible or resumed).
   */
  attempt: number;
  /** Milliseconds since the connection was lost (since the first failed attempt of this run). */
  elapsedMs: number;
  /** The close code of the socket that closed, when known (see `CloseCode`). */
  closeCode?: number;
  /** Why the last attempt ended: the close reason, `error`, or `connect` when the URL or socket could not be made. */
  reason: string;
  /** Whether the page is visible (always true without a document). */
  visible: boolean;
  /** Whether the browser reports being online. */
  online: boolean;
}

/** The function form of a {@link ReconnectPolicy}: the delay before the next attempt, ms, or `null` to stop. */
export type ReconnectDelayFn = (ctx: ReconnectContext) => number | null;

/** The object form of a {@link ReconnectPolicy}, as LiveKit's `ReconnectPolicy`. */
export interface ReconnectPolicyObject {
  /**
   * The delay before the next reconnect attempt, ms, or `null` to stop retrying (the connection
   * then stays `failed` until `connect()`/`reconnect()`, `online`, or the page waking up).
   */
  nextRetryDelayInMs(ctx: ReconnectContext): number | null;
}

/**
 * Decides the delay before the next reconnect attempt, or `null` to stop: a function, or an object
 * with `nextRetryDelayInMs` (LiveKit's shape). The default is `DefaultReconnectPolicy`: it never
 * stops by itself.
 */
export type ReconnectPolicy = ReconnectDelayFn | ReconnectPolicyObject;

/** Custom-scheme and website settings for the deep-link helpers (spec §7). */
export interface DeepLinkOptions {
  /** Scheme of the production app, e.g. `kefuapp`. */
  scheme: string;
  /** Scheme of the test build of the app. */
  testScheme: string;
  /** Scheme of the UAT build of the app. */
  uatScheme: string;
  /** The product's public website: where open-app falls back after 3 s. */
  website: string;
  /** A user-agent fragment that identifies the product's own in-app browser. */
  inAppUserAgent: string;
}

/** Read-receipt manager settings (spec §9). */
export interface ReceiptOptions {
  /** Delay before an automatic read, ms. */
  autoReadDelay: number;
  /** Batch size for receipt processing. */
  batchSize: number;
  /** Debounce of visibility changes, ms. */
  debounceDelay: number;
  /** Interval of the check against the real document state, ms. */
  stateValidationInterval: number;
}

/** Every timing and limit of spec §9, with the spec's values as defaults. */
export interface ImClientLimits {
  /** Default request timeout, ms (50 000). */
  requestTimeout: number;
  /** Upload and translate timeout, ms (90 000). */
  longRequestTimeout: number;
  /** The 413 notice is shown at most once per this many ms (3 000). */
  throttleNoticeInterval: number;
  /** Delay before the timeout notice, ms (500). */
  timeoutNoticeDelay: number;
  /** Default notice (toast) duration, ms (2 000). */
  noticeDuration: number;
  /** Heartbeat interval, ms (20 000). */
  heartbeatInterval: number;
  /** Delay before reconnecting, ms (5 000). */
  reconnectDelay: number;
  /**
   * Reconnect attempts in a row before the `failed` state (10). With the default policy `failed`
   * is shown from then on, but attempts go on in a slower phase.
   */
  maxReconnectAttempts: number;
  /** Server clock tick, ms (1 000). */
  clockTick: number;
  /** Delay before open-app falls back to the website, ms (3 000). */
  openAppFallbackDelay: number;
  /** Scroll-to-bottom threshold in px (400). */
  scrollBottomThreshold: number;
  /** Scroll-to-bottom retry interval, ms (100). */
  scrollRetryInterval: number;
  /** Complaint limits: images (5). */
  complaintMaxImages: number;
  /** Complaint limits: videos (1). */
  complaintMaxVideos: number;
  /** Chunk size for chunked uploads, bytes (8 MiB). */
  chunkSize: number;
  /** Largest outgoing frame, bytes (64 KiB, the server's frame limit). */
  maxFrameSize: number;
  /** Translation default target locale ('en-US'). */
  translateLocale: string;
  /**
   * A page visible again after being hidden (or frozen) longer than `heartbeatInterval` sends a
   * heartbeat at once and reconnects when no frame answers within this many ms (5 000).
   */
  livenessTimeout: number;
}

/** Options of {@link ImClient}. */
export interface ImClientOptions {
  /** Host root of the IM server, e.g. `https://im.example.com`. Permit calls go to `<baseUrl>/im`. */
  baseUrl: string;
  /** WebSocket endpoint, e.g. `wss://im.example.com/ws`. */
  socketUrl: string;
  /** `"<publicKey>,<secret>"`: RSA public key (base64 DER SPKI) and HMAC secret (protocol §3). */
  socketKey: string;
  /** Connect data sent as `d` in the connect payload (default `{}`). */
  connectData?: Record<string, unknown>;
  /** Initial interface language; defaults to the stored language, else `zh`. */
  language?: string;
  /** The WebSocket constructor; defaults to `globalThis.WebSocket` (pass `ws` in Node 20). */
  WebSocket?: WebSocketConstructor;
  /** The fetch function; defaults to `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Storage for the client state; defaults to `localStorage` when usable, else memory. */
  storage?: StorageLike;
  /** Timer functions; defaults to `globalThis` timers looked up at call time. */
  timers?: TimerProvider;
  /** The window (online/offline, focus/blur, postMessage); defaults to `globalThis.window` if any. */
  window?: WindowLike | null;
  /** The document (visibility); defaults to `globalThis.document` if any. */
  document?: DocumentLike | null;
  /**
   * Reconnect policy. The default (`DefaultReconnectPolicy`) waits `reconnectDelay` for
   * `maxReconnectAttempts` attempts, then goes on with a jittered backoff capped at 10 s while
   * visible and 60 s while hidden, and never stops by itself; `fixedDelayPolicy` gives up instead.
   */
  reconnectPolicy?: ReconnectPolicy;
  /** Overrides of the spec's timings and limits. */
  limits?: Partial<ImClientLimits>;
  /** Overrides of the read-receipt settings. */
  receipts?: Partial<ReceiptOptions>;
  /** Deep-link schemes and the public website. */
  deepLinks?: Partial<DeepLinkOptions>;
  /**
   * Where pending messages are kept across reloads; defaults to IndexedDB when the platform has
   * it, else memory (lost with the client).
   */
  outboxStorage?: OutboxStorage | null;
  /** Total bytes of picked files the outbox keeps for an upload after a reload (default 20 MB). */
  outboxFileCap?: number;
  /**
   * One socket per visitor per browser (docs/tabs.md): the tabs of one identity elect a leader
   * with Web Locks and share its socket over a `BroadcastChannel`. Default: on in a page (a
   * window) where both APIs exist, off elsewhere (Node); `false` turns it off, options inject the
   * APIs. Where either API is missing, every tab uses its own socket.
   */
  tabs?: boolean | TabOptions;
  /**
   * Verified identity (protocol §3b): returns the merchant's identity token (an HS256 JWT its
   * backend signs for the logged-in member), or `null`/`undefined` while nobody is logged in. Called
   * before a connect, again before the token's `exp` (read from its payload, never verified by the
   * SDK), and once after the server refused a token (close code 4006); a second refusal in a row
   * stops the client (halt reason `identity-token-refused`, event `identity token refused`). A
   * rejection (e.g. the merchant's backend is unreachable) fails that attempt: the reconnect
   * policy tries again. `client.identify()` and `client.reset()` change it on a running client.
   */
  getIdentityToken?: IdentityTokenSource;
}

/**
 * Where the SDK gets the merchant's identity token of the logged-in member (protocol §3b): the JWT,
 * or `null`/`undefined` for an anonymous visitor.
 */
export type IdentityTokenSource = () => Promise<string | null | undefined>;

/** The default of {@link ImClientOptions.outboxFileCap}: 20 MB. */
export const DEFAULT_OUTBOX_FILE_CAP = 20 * 1024 * 1024;

/** The spec's §9 timings and limits. */
export const DEFAULT_LIMITS: Readonly<ImClientLimits> = Object.freeze({
  requestTimeout: 50_000,
  longRequestTimeout: 90_000,
  throttleNoticeInterval: 3_000,
  timeoutNoticeDelay: 500,
  noticeDuration: 2_000,
  heartbeatInterval: 20_000,
  reconnectDelay: 5_000,
  maxReconnectAttempts: 10,
  clockTick: 1_000,
  openAppFallbackDelay: 3_000,
  scrollBottomThreshold: 400,
  scrollRetryInterval: 100,
  complaintMaxImages: 5,
  complaintMaxVideos: 1,
  chunkSize: 8 * 1024 * 1024,
  maxFrameSize: 64 * 1024,
  translateLocale: 'en-US',
  livenessTimeout: 5_000,
});

/** The spec's §9 receipt-manager defaults. */
export const DEFAULT_RECEIPT_OPTIONS: Readonly<ReceiptOptions> = Object.freeze({
  autoReadDelay: 1_000,
  batchSize: 10,
  debounceDelay: 100,
  stateValidationInterval: 5_000,
});

/** Default deep-link settings (override them with your product's schemes and website). */
export const DEFAULT_DEEP_LINKS: Readonly<DeepLinkOptions> = Object.freeze({
  scheme: 'kefuim',
  testScheme: 'kefuimtest',
  uatScheme: 'kefuimuat',
  website: 'https://kefu-im.dev',
  inAppUserAgent: 'KefuIM',
});

/**
 * The default reconnect policy: `delay` ms before each attempt, `null` after `max` attempts.
 * @param delay - delay before each attempt, ms
 * @param max - attempts in a row before giving up
 */
export function fixedDelayPolicy(delay: number, max: number): ReconnectDelayFn {
  return ({ attempt }) => (attempt > max ? null : delay);
}
