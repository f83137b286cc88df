/**
 * The options and events of a `Connection`: what the transport needs and what it tells.
 * @module
 */
import type { CloseCode } from '../codes.js';
import type { ConnectionState } from '../events.js';
import type { ReconnectPolicy, WebSocketConstructor } from '../options.js';
import type { Store } from '../state/store.js';
import type { ListenerTarget, TimerProvider } from '../timers.js';
import type { ConnectionSnapshot, HaltReason } from './connection-snapshot.js';

/** The network source: the window, for its `online`/`offline` events and `navigator.onLine`. */
export interface NetworkTarget extends ListenerTarget {
  /** The window's navigator. */
  navigator?: {
    /** `false` when the browser is offline; read once, when the connection is created. */
    onLine?: boolean;
  };
}

/** Options of `Connection`. */
export interface ConnectionOptions {
  /** Builds the socket URL; called before every attempt, so connect params are fresh each time. */
  createUrl: () => Promise<string>;
  /** The WebSocket constructor. */
  WebSocket: WebSocketConstructor;
  /** Timer functions. */
  timers: TimerProvider;
  /** Heartbeat interval, ms (spec §9: 20 000). */
  heartbeatInterval: number;
  /** Decides the delay before each reconnect attempt, or null to give up (state `failed`, halted). */
  reconnectPolicy: ReconnectPolicy;
  /**
   * Attempts in a row after which the state shows `failed` while attempts go on (spec §9: 10);
   * default: never (only a policy's `null` leads to `failed`).
   */
  failAfterAttempts?: number;
  /** Whether the page is visible, for the policy's context (default: always). */
  isVisible?: () => boolean;
  /**
   * Close codes after which the connection never reconnects by itself, not even when the page or
   * the network comes back (e.g. 4003); default: none.
   */
  isTerminalClose?: (code: number) => boolean;
  /**
   * Why the connection halted, from the close code of its last attempt (undefined when the
   * attempt failed before a socket closed); default: always `gave-up`.
   */
  haltReason?: (closeCode: number | undefined) => HaltReason;
  /** The window, for `online`/`offline` events; null or absent: always online. */
  network?: NetworkTarget | null;
  /** The encoded heartbeat frame, or null to skip this beat. */
  heartbeat: () => string | null;
  /** Largest frame `Connection.send` accepts, in UTF-8 bytes (default 64 KiB). */
  maxFrameSize?: number;
  /**
   * The snapshot store to write (default: a new one). A client creates it before its socket code
   * loads, so that a UI can subscribe at once.
   */
  store?: Store<ConnectionSnapshot>;
  /** Whether the network is up at the start (default: the window's `navigator.onLine`). */
  online?: boolean;
}

/** Where a `Connection` error comes from: building the URL or opening, or the open socket. */
export type ConnectionErrorSource = 'connect' | 'socket';

/** Events of `Connection`: one context object per event. */
export interface ConnectionEvents {
  /** The state changed. */
  state: (ctx: { newState: ConnectionState; oldState: ConnectionState }) => void;
  /** A socket opened; `reconnected` is true when an earlier socket of this connection had opened. */
  open: (ctx: { reconnected: boolean }) => void;
  /** A raw incoming frame (`event.data`), to decode with the frame codec. */
  frame: (ctx: { data: unknown }) => void;
  /** A socket closed (by the server, the network, an error, or `Connection.close`). */
  close: (ctx: { code: CloseCode; reason: string }) => void;
  /** Something failed; never thrown. */
  error: (ctx: { error: Error; source: ConnectionErrorSource }) => void;
  /** The browser went offline or online. */
  network: (ctx: { online: boolean }) => void;
}
