/**
 * The socket transport: connection state machine, heartbeat, reconnect and network awareness
 * (spec §4 "Socket connection"). Knows nothing about message semantics.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import type { ConnectionState } from '../events.js';
import { DEFAULT_LIMITS, type ReconnectPolicy, type WebSocketConstructor, type WebSocketLike } from '../options.js';
import type { Store } from '../state/store.js';
import { Disposables, type Disposer, type ListenerTarget, type TimerProvider } from '../timers.js';
import type { CloseCode } from './close-code.js';
import { createConnectionStore, type ConnectionSnapshot } from './connection-snapshot.js';
import { ReconnectSchedule } from './reconnect-schedule.js';
import { ABNORMAL_CLOSE, SocketSlot, toError } from './socket-slot.js';

/** The network source: the window, for its `online`/`offline` events and `navigator.onLine`. */
export interface NetworkTarget extends ListenerTarget {
  /** The window's navigator. */
  navigator?: {
    /** `false` when the browser is offline; read once, when the connection is created. */
    onLine?: boolean;
  };
}

/** Options of {@link Connection}. */
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
  /** Close codes after which the connection never reconnects by itself (e.g. 4003). */
  isTerminalClose?: (code: number) => boolean;
  /** The window, for `online`/`offline` events; null or absent: always online. */
  network?: NetworkTarget | null;
  /** The encoded heartbeat frame, or null to skip this beat. */
  heartbeat: () => string | null;
  /** Largest frame {@link Connection.send} accepts, in UTF-8 bytes (default 64 KiB). */
  maxFrameSize?: number;
  /**
   * The snapshot store to write (default: a new one). A client creates it before its socket code
   * loads, so that a UI can subscribe at once.
   */
  store?: Store<ConnectionSnapshot>;
  /** Whether the network is up at the start (default: the window's `navigator.onLine`). */
  online?: boolean;
}

/** Where a {@link Connection} error comes from: building the URL or opening, or the open socket. */
export type ConnectionErrorSource = 'connect' | 'socket';

/** Events of {@link Connection}: one context object per event. */
export interface ConnectionEvents {
  /** The state changed. */
  state: (ctx: { newState: ConnectionState; oldState: ConnectionState }) => void;
  /** A socket opened; `reconnected` is true when an earlier socket of this connection had opened. */
  open: (ctx: { reconnected: boolean }) => void;
  /** A raw incoming frame (`event.data`), to decode with the frame codec. */
  frame: (ctx: { data: unknown }) => void;
  /** A socket closed (by the server, the network, an error, or {@link Connection.close}). */
  close: (ctx: { code: CloseCode; reason: string }) => void;
  /** Something failed; never thrown. */
  error: (ctx: { error: Error; source: ConnectionErrorSource }) => void;
  /** The browser went offline or online. */
  network: (ctx: { online: boolean }) => void;
}

/** The close code a socket is given when the client closes it. */
const CLIENT_CLOSE = 1000;
/** The close reason of a socket that did not answer a liveness check. */
const LIVENESS_TIMEOUT = 'liveness timeout';
/** The close reason of a socket closed for the back/forward cache. */
const PAGE_HIDDEN = 'page hidden';

const always = (): boolean => true;
const never = (): boolean => false;

/**
 * The socket transport (socket.io's Manager idea): one socket at a time, the heartbeat, the
 * reconnect schedule and the online/offline rules of spec §4.
 *
 * States: `closed` (initial, and after {@link Connection.close}), `connecting` (an attempt started
 * by {@link Connection.connect}), `open`, `reconnecting` (the socket dropped: waiting for the next
 * attempt, for an attempt in flight, or for the network to come back) and `failed`: either shown
 * after `failAfterAttempts` attempts in a row while attempts go on, or final ({@link Connection.halted}:
 * the policy gave up, or a terminal close code). A halted connection is left by
 * {@link Connection.connect} and {@link Connection.reconnect}, and, unless the close code was
 * terminal, by {@link Connection.wake} and the `online` event.
 *
 * Page lifecycle (driven by `PageLifecycle`): {@link Connection.wake} tries at once,
 * {@link Connection.probe} checks that an open socket still answers, {@link Connection.suspend} and
 * {@link Connection.resume} close and reopen around the back/forward cache. {@link Connection.store}
 * holds the snapshot a UI renders.
 */
export class Connection extends EventEmitter<ConnectionEvents> {
  private readonly options: ConnectionOptions;
  private readonly disposables: Disposables;
  private readonly maxFrameSize: number;
  private readonly reconnects: ReconnectSchedule;
  /** The snapshot of this connection (the client adds the user id). */
  readonly store: Store<ConnectionSnapshot>;
  private currentState: ConnectionState = 'closed';
  private isOnline: boolean;
  private readonly slot: SocketSlot;
  /** Bumped by every attempt, close() and destroy(): a stale attempt's callbacks do nothing. */
  private generation = 0;
  private inFlight = false;
  private everOpened = false;
  private destroyed = false;
  private stopHeartbeatTimer: Disposer | null = null;
  private cancelLiveness: Disposer | null = null;
  private lastCloseCode: number | null = null;
  private lastReason = '';
  /** No reconnect by itself: a terminal close code, or the policy gave up. */
  private isHalted = false;
  /** The last close had a terminal code: only connect()/reconnect() try again. */
  private terminal = false;
  /** In the back/forward cache: the socket is closed on purpose until {@link Connection.resume}. */
  private suspended = false;
  private reconnected = false;

  /**
   * Listens to the network target at once (no socket is opened until {@link Connection.connect}).
   * @param options - the transport's dependencies and timings
   */
  constructor(options: ConnectionOptions) {
    super();
    this.options = options;
    this.disposables = new Disposables(options.timers);
    this.maxFrameSize = options.maxFrameSize ?? DEFAULT_LIMITS.maxFrameSize;
    this.reconnects = new ReconnectSchedule(options.timers, this.disposables, options.reconnectPolicy);
    const network = options.network ?? null;
    this.isOnline = options.online ?? network?.navigator?.onLine !== false;
    this.store = options.store ?? createConnectionStore(this.isOnline);
    if (this.store.getState().online !== this.isOnline) this.store.setState({ online: this.isOnline });
    this.slot = new SocketSlot(
      {
        open: (socket) => this.handleOpen(socket),
        frame: (data) => {
          this.clearLiveness(); // any frame proves the socket alive
          this.guard(() => this.emit('frame', { data }));
        },
        close: (code, reason) => this.handleDrop(code, reason),
        error: (error) => this.report(error, this.currentState === 'open' ? 'socket' : 'connect'),
      },
      () => !this.destroyed,
    );
    if (network) {
      this.disposables.listen(network, 'offline', () => this.handleOffline());
      this.disposables.listen(network, 'online', () => this.handleOnline());
    }
  }

  /** The current state. */
  get state(): ConnectionState {
    return this.currentState;
  }

  /** False between the window's `offline` and `online` events. */
  get online(): boolean {
    return this.isOnline;
  }

  /** Reconnect attempts in a row since the last open (0 while open). */
  get attempts(): number {
    return this.reconnects.attempt;
  }

  /** True when the connection will not reconnect by itself (terminal close, or the policy gave up). */
  get halted(): boolean {
    return this.isHalted;
  }

  /**
   * Opens the socket. From `closed` or `failed` this starts a fresh attempt (state `connecting`);
   * from `reconnecting` it skips the wait and tries at once. A no-op while `connecting` or
   * `open`, while an attempt is in flight, and after {@link Connection.destroy}. Never throws:
   * failures are `error` events and lead to the reconnect schedule.
   */
  connect(): void {
    if (this.destroyed || this.inFlight) return;
    const state = this.currentState;
    if (state === 'open' || state === 'connecting') return;
    if (state === 'closed' || state === 'failed') {
      this.reconnects.reset();
      this.isHalted = false;
      this.terminal = false;
      this.suspended = false;
      this.setState('connecting');
    }
    this.startAttempt();
  }

  /**
   * Tries at once, from any state but `open`, with a fresh backoff (attempt 0). Leaves `failed`,
   * even after a "never reconnect" close: this is the user's explicit wish (a "reconnect now"
   * button). A no-op while an attempt is in flight and after {@link Connection.destroy}.
   */
  reconnect(): void {
    if (this.destroyed || this.inFlight || this.currentState === 'open') return;
    this.reconnects.restart();
    this.isHalted = false;
    this.terminal = false;
    this.suspended = false;
    this.connect();
  }

  /**
   * A sign that the user is back (the page visible, focused, shown or resumed): while waiting to
   * reconnect (`reconnecting` or `failed`), try at once with a fresh backoff. Does nothing while
   * open, connecting, closed by the user, offline, in the back/forward cache, after a terminal
   * close code, or while an attempt is in flight.
   */
  wake(): void {
    if (this.destroyed || this.inFlight || this.suspended || this.terminal || !this.isOnline) return;
    const state = this.currentState;
    if (state !== 'reconnecting' && state !== 'failed') return;
    this.reconnects.restart();
    this.isHalted = false;
    this.startAttempt();
  }

  /**
   * Checks that an open socket still carries frames (a socket can be half dead after a sleep):
   * sends a heartbeat now and, when no frame at all arrives within `timeoutMs`, drops the socket
   * (close code 1006, reason `liveness timeout`) and reconnects at once. A no-op unless open, or
   * while a check is already running.
   * @param timeoutMs - how long to wait for any incoming frame
   */
  probe(timeoutMs: number): void {
    if (this.destroyed || this.currentState !== 'open' || this.cancelLiveness) return;
    const frame = this.heartbeatFrame();
    if (frame === null || !this.send(frame)) return;
    const socket = this.slot.current;
    const cancel = this.disposables.timeout(() => {
      if (this.cancelLiveness !== cancel) return;
      this.cancelLiveness = null;
      if (this.slot.current !== socket || this.currentState !== 'open') return;
      this.slot.drop(CLIENT_CLOSE, LIVENESS_TIMEOUT);
      this.stopHeartbeat();
      this.noteClose(ABNORMAL_CLOSE, LIVENESS_TIMEOUT);
      this.guard(() => this.emit('close', { code: ABNORMAL_CLOSE, reason: LIVENESS_TIMEOUT }));
      if (this.destroyed || this.slot.current || this.inFlight || this.currentState !== 'open') return;
      this.reconnects.reset();
      this.reconnects.markDown();
      this.setState('reconnecting');
      if ((this.currentState as ConnectionState) === 'reconnecting' && !this.inFlight) this.startAttempt();
    }, Math.max(0, timeoutMs));
    this.cancelLiveness = cancel;
  }

  /**
   * The page is going into the back/forward cache (`pagehide` with `persisted`): closes the socket
   * cleanly (1000) so the page may be cached, and schedules nothing until {@link Connection.resume}.
   * State `reconnecting`. A no-op when closed by the user or destroyed.
   */
  suspend(): void {
    if (this.destroyed || this.currentState === 'closed' || this.suspended) return;
    this.suspended = true;
    this.generation++;
    this.inFlight = false;
    this.reconnects.clear();
    this.stopHeartbeat();
    const closed = this.slot.drop(CLIENT_CLOSE, PAGE_HIDDEN);
    if (closed) this.noteClose(CLIENT_CLOSE, PAGE_HIDDEN);
    this.setState('reconnecting');
    if (closed) this.guard(() => this.emit('close', { code: CLIENT_CLOSE, reason: PAGE_HIDDEN }));
    this.publish();
  }

  /**
   * The page came back from the back/forward cache (`pageshow` with `persisted`): reconnects at
   * once (the `open` event then says `reconnected`, and the client fetches what was missed).
   */
  resume(): void {
    if (this.destroyed || !this.suspended) return;
    this.suspended = false;
    const state = this.currentState;
    if (state !== 'reconnecting' && state !== 'failed') return;
    this.reconnects.restart();
    this.startAttempt();
  }

  /**
   * Sends a text frame while the socket is open.
   * @returns true when handed to the socket; false when not open, when the frame is larger than
   * `maxFrameSize` (also an `error` event) or when the socket threw (also an `error` event)
   */
  send(text: string): boolean {
    if (this.currentState !== 'open') return false;
    return this.slot.send(text, this.maxFrameSize, (error) => this.report(error, 'socket'));
  }

  /**
   * Disconnects by the user's wish: closes the socket, stops the heartbeat, cancels any scheduled
   * reconnect; state `closed`. {@link Connection.connect} may be called again.
   */
  close(): void {
    if (this.destroyed) return;
    this.generation++;
    this.inFlight = false;
    this.suspended = false;
    this.reconnects.reset();
    this.stopHeartbeat();
    const closed = this.slot.drop(CLIENT_CLOSE, 'client close');
    if (closed) this.noteClose(CLIENT_CLOSE, 'client close');
    this.setState('closed');
    if (closed) this.guard(() => this.emit('close', { code: CLIENT_CLOSE, reason: 'client close' }));
  }

  /**
   * Ends the connection for good: reconnects are forbidden, every timer and network listener is
   * removed, the socket is closed and every event listener is removed.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.generation++;
    this.inFlight = false;
    this.reconnects.clear();
    this.stopHeartbeatTimer = null;
    this.cancelLiveness = null;
    this.disposables.dispose();
    this.slot.drop(CLIENT_CLOSE, 'destroyed');
    this.setState('closed');
    this.removeAllListeners();
  }

  /** Starts one attempt: fresh URL, new socket. Failures go to {@link Connection.attemptFailed}. */
  private startAttempt(): void {
    this.reconnects.clear();
    this.publish();
    this.slot.drop(CLIENT_CLOSE, 'replaced');
    this.inFlight = true;
    const generation = ++this.generation;
    void this.open(generation);
  }

  private async open(generation: number): Promise<void> {
    let url: string;
    try {
      url = await this.options.createUrl();
      if (typeof url !== 'string') throw new TypeError(`createUrl must resolve to a string, got ${typeof url}.`);
    } catch (error) {
      if (generation !== this.generation) return;
      this.report(toError(error, 'Could not build the socket URL'), 'connect');
      this.attemptFailed(undefined, 'connect');
      return;
    }
    if (generation !== this.generation) return;
    let socket: WebSocketLike;
    try {
      socket = new this.options.WebSocket(url);
    } catch (error) {
      this.report(toError(error, 'Could not create the WebSocket'), 'connect');
      this.attemptFailed(undefined, 'connect');
      return;
    }
    this.slot.attach(socket);
  }

  private handleOpen(socket: WebSocketLike): void {
    this.inFlight = false;
    this.reconnects.reset();
    this.isHalted = false;
    this.terminal = false;
    const reconnected = this.everOpened;
    this.everOpened = true;
    this.reconnected = reconnected;
    this.setState('open');
    if (this.slot.current !== socket || this.currentState !== 'open') return;
    this.guard(() => this.emit('open', { reconnected }));
    if (this.slot.current !== socket || this.currentState !== 'open') return;
    this.startHeartbeat();
  }

  /** The current socket closed or errored: stop the heartbeat and schedule a reconnect. */
  private handleDrop(code: number, reason: string): void {
    this.slot.drop(CLIENT_CLOSE, reason);
    this.inFlight = false;
    this.stopHeartbeat();
    this.noteClose(code, reason);
    this.guard(() => this.emit('close', { code, reason }));
    if (this.destroyed || this.slot.current || this.inFlight || this.currentState === 'closed') return;
    this.attemptFailed(code, reason || 'close');
  }

  /** Remembers the last close for the snapshot and the policy. */
  private noteClose(code: number, reason: string): void {
    this.lastCloseCode = code;
    this.lastReason = reason;
    this.publish();
  }

  /** An attempt (or an open socket) ended: schedule the next attempt, or give up. */
  private attemptFailed(closeCode: number | undefined, reason: string): void {
    this.inFlight = false;
    // closed: an error listener called close() meanwhile.
    if (this.destroyed || this.reconnects.pending || this.currentState === 'closed' || this.suspended) return;
    this.reconnects.markDown();
    const terminal = closeCode !== undefined && (this.options.isTerminalClose ?? never)(closeCode);
    if (!this.isOnline && !terminal) {
      // No reconnect while offline: the `online` event starts the next attempt.
      this.setState('reconnecting');
      this.publish();
      return;
    }
    let delay: number | null;
    try {
      delay = this.reconnects.nextDelay({
        ...(closeCode === undefined ? {} : { closeCode }),
        reason: closeCode === undefined ? reason : this.lastReason || reason,
        visible: (this.options.isVisible ?? always)(),
        online: this.isOnline,
      });
    } catch (error) {
      this.report(toError(error, 'Reconnect policy failed'), 'connect');
      delay = null;
    }
    // A terminal close: the policy is still told (it may report it), but never reconnects.
    if (terminal) this.terminal = true;
    if (delay === null || terminal) {
      this.giveUp();
      return;
    }
    const failAfter = this.options.failAfterAttempts ?? Infinity;
    const next = this.reconnects.attempt > failAfter ? 'failed' : 'reconnecting';
    this.setState(next);
    if (this.destroyed || this.currentState !== next || this.inFlight || this.reconnects.pending) return;
    this.reconnects.schedule(delay, () => this.startAttempt());
    this.publish();
  }

  /** No more attempts by itself: state `failed`, halted. */
  private giveUp(): void {
    this.isHalted = true;
    this.reconnects.clear();
    this.setState('failed');
    this.publish();
  }

  private handleOffline(): void {
    if (this.destroyed) return;
    this.isOnline = false;
    this.stopHeartbeat();
    this.reconnects.clear();
    const state = this.currentState;
    const active = state === 'open' || state === 'connecting' || state === 'reconnecting';
    if (active) {
      this.generation++;
      this.inFlight = false;
      const closed = this.slot.drop(CLIENT_CLOSE, 'offline');
      if (closed) this.noteClose(CLIENT_CLOSE, 'offline');
      this.reconnects.markDown();
      this.setState('reconnecting');
      if (closed) this.guard(() => this.emit('close', { code: CLIENT_CLOSE, reason: 'offline' }));
    }
    this.publish();
    this.guard(() => this.emit('network', { online: false }));
  }

  private handleOnline(): void {
    if (this.destroyed) return;
    this.isOnline = true;
    this.publish();
    this.guard(() => this.emit('network', { online: true }));
    if (this.destroyed || this.inFlight || this.suspended || this.terminal) return;
    const state = this.currentState;
    if (state !== 'reconnecting' && state !== 'failed') return;
    this.reconnects.restart();
    this.isHalted = false;
    this.setState('reconnecting');
    if (this.currentState === 'reconnecting' && !this.inFlight) this.startAttempt();
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    this.stopHeartbeatTimer = this.disposables.interval(() => {
      if (this.currentState !== 'open') return;
      const frame = this.heartbeatFrame();
      if (frame !== null) this.send(frame);
    }, this.options.heartbeatInterval);
  }

  /** The heartbeat frame, or null to skip (a throwing `heartbeat()` is reported). */
  private heartbeatFrame(): string | null {
    try {
      return this.options.heartbeat();
    } catch (error) {
      this.report(toError(error, 'Heartbeat failed'), 'socket');
      return null;
    }
  }

  private stopHeartbeat(): void {
    const stop = this.stopHeartbeatTimer;
    this.stopHeartbeatTimer = null;
    stop?.();
    this.clearLiveness();
  }

  private clearLiveness(): void {
    const cancel = this.cancelLiveness;
    this.cancelLiveness = null;
    cancel?.();
  }

  /** Writes the current fields into {@link Connection.store} (listeners run only on a change). */
  private publish(): void {
    if (this.destroyed) return;
    const state = this.currentState;
    this.guard(() =>
      this.store.setState({
        state,
        online: this.isOnline,
        attempt: this.reconnects.attempt,
        nextAttemptAt: this.reconnects.nextAttemptAt,
        lastCloseCode: this.lastCloseCode,
        failed: state === 'failed',
        halted: this.isHalted,
        loggedIn: state === 'open',
        reconnected: this.reconnected,
      }),
    );
  }

  private setState(newState: ConnectionState): void {
    const oldState = this.currentState;
    if (oldState === newState) return;
    this.currentState = newState;
    this.publish();
    this.guard(() => this.emit('state', { newState, oldState }));
  }

  /** Runs an emit so that a throwing listener never breaks the socket handler. */
  private guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.report(toError(error, 'Listener failed'), 'socket');
    }
  }

  private report(error: Error, source: ConnectionErrorSource): void {
    try {
      this.emit('error', { error, source });
    } catch {
      // An error listener that throws has nowhere left to report to.
    }
  }
}
