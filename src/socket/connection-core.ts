/**
 * The state and the socket of a {@link Connection} (centrifuge's transport side): the snapshot,
 * the one socket and its heartbeat, and the close handling: what happens when a socket drops or
 * an attempt fails (the next attempt, waiting for the network, or a halt with its reason).
 * {@link Connection} adds the commands (connect, reconnect, wake, probe, suspend, resume, send,
 * close, destroy).
 * @module
 * @internal
 */
import { Emitter } from '../state/emitter.js';
import { CloseCode } from '../codes.js';
import type { ConnectionState } from '../events.js';
import { DEFAULT_LIMITS, type WebSocketLike } from '../options.js';
import type { Store } from '../state/store.js';
import { Disposables } from '../timers.js';
import { createConnectionStore, type ConnectionSnapshot, type HaltReason } from './connection-snapshot.js';
import type { ConnectionErrorSource, ConnectionEvents, ConnectionOptions } from './connection-types.js';
import { Heartbeat } from './heartbeat.js';
import { ReconnectSchedule } from './reconnect-schedule.js';
import { SocketSlot, toError } from './socket-slot.js';

/** The close code a socket is given when the client closes it. @internal */
export const CLIENT_CLOSE = CloseCode.Normal;

const always = (): boolean => true;
const never = (): boolean => false;

/**
 * The state, the socket, the heartbeat and the close handling of a connection; the commands are
 * {@link Connection}'s. Nothing here starts an attempt by itself but a scheduled reconnect and the
 * network coming back.
 * @internal
 */
export abstract class ConnectionCore extends Emitter<ConnectionEvents> {
  private readonly options: ConnectionOptions;
  protected readonly disposables: Disposables;
  private readonly maxFrameSize: number;
  protected readonly reconnects: ReconnectSchedule;
  protected readonly heartbeat: Heartbeat;
  /** The snapshot of this connection (the client adds the user id). */
  readonly store: Store<ConnectionSnapshot>;
  protected currentState: ConnectionState = 'closed';
  protected isOnline: boolean;
  protected readonly slot: SocketSlot;
  /** Bumped by every attempt, close() and destroy(): a stale attempt's callbacks do nothing. */
  protected generation = 0;
  protected inFlight = false;
  private everOpened = false;
  protected destroyed = false;
  private lastCloseCode: number | null = null;
  private lastReason = '';
  /** Why the connection does not reconnect by itself (a terminal close code, or the policy gave up); null otherwise. */
  protected haltReason: HaltReason | null = null;
  /** The last close had a terminal code: only connect()/reconnect() try again. */
  protected terminal = false;
  /** In the back/forward cache: the socket is closed on purpose until `resume()`. */
  protected suspended = false;
  private reconnected = false;

  /**
   * Listens to the network target at once (no socket is opened until `connect()`).
   * @param options - the transport's dependencies and timings
   */
  constructor(options: ConnectionOptions) {
    super();
    this.options = options;
    this.disposables = new Disposables(options.timers);
    this.maxFrameSize = options.maxFrameSize ?? DEFAULT_LIMITS.maxFrameSize;
    this.reconnects = new ReconnectSchedule(options.timers, this.disposables, options.reconnectPolicy);
    this.heartbeat = new Heartbeat({
      disposables: this.disposables,
      interval: options.heartbeatInterval,
      frame: () => this.heartbeatFrame(),
      send: (frame) => this.send(frame),
      isOpen: () => this.currentState === 'open',
    });
    const network = options.network ?? null;
    this.isOnline = options.online ?? network?.navigator?.onLine !== false;
    this.store = options.store ?? createConnectionStore(this.isOnline);
    if (this.store.getState().online !== this.isOnline) this.store.setState({ online: this.isOnline });
    this.slot = new SocketSlot(
      {
        open: (socket) => this.handleOpen(socket),
        frame: (data) => {
          this.heartbeat.alive(); // any frame proves the socket alive
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
    return this.haltReason !== null;
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
   * The one way a socket goes away while this connection lives: the attempt in flight is over,
   * the heartbeat stops, the socket (if any) is detached and closed, the close is noted for the
   * snapshot and told to the `close` listeners; `state`, when given, is entered before they hear.
   * @param code - the close code to report (the server's, or the client's own)
   * @param reason - the close reason
   * @param state - the state to enter before the `close` event (none: the caller decides after)
   */
  protected dropSocket(code: number, reason: string, state?: ConnectionState): void {
    this.inFlight = false;
    this.heartbeat.stop();
    const closed = this.slot.drop(CLIENT_CLOSE, reason);
    if (closed) this.noteClose(code, reason);
    if (state) this.setState(state);
    if (closed) this.guard(() => this.emit('close', { code, reason }));
  }

  /** Starts one attempt: fresh URL, new socket. Failures go to {@link ConnectionCore.attemptFailed}. */
  protected startAttempt(): void {
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
    this.unhalt();
    const reconnected = this.everOpened;
    this.everOpened = true;
    this.reconnected = reconnected;
    this.setState('open');
    if (this.slot.current !== socket || this.currentState !== 'open') return;
    this.guard(() => this.emit('open', { reconnected }));
    if (this.slot.current !== socket || this.currentState !== 'open') return;
    this.heartbeat.start();
  }

  /** The current socket closed or errored: stop the heartbeat and schedule a reconnect. */
  private handleDrop(code: number, reason: string): void {
    this.dropSocket(code, reason);
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
    const delay = this.nextDelay(closeCode, reason);
    // A terminal close: the policy is still told (it may report it), but never reconnects.
    if (terminal) this.terminal = true;
    if (delay === null || terminal) {
      this.giveUp(closeCode);
      return;
    }
    const failAfter = this.options.failAfterAttempts ?? Infinity;
    const next = this.reconnects.attempt > failAfter ? 'failed' : 'reconnecting';
    this.setState(next);
    if (this.destroyed || this.currentState !== next || this.inFlight || this.reconnects.pending) return;
    this.reconnects.schedule(delay, () => this.startAttempt());
    this.publish();
  }

  /** The policy's delay before the next attempt, or null to give up (a throwing policy is reported and gives up). */
  private nextDelay(closeCode: number | undefined, reason: string): number | null {
    try {
      return this.reconnects.nextDelay({
        ...(closeCode === undefined ? {} : { closeCode }),
        reason: closeCode === undefined ? reason : this.lastReason || reason,
        visible: (this.options.isVisible ?? always)(),
        online: this.isOnline,
      });
    } catch (error) {
      this.report(toError(error, 'Reconnect policy failed'), 'connect');
      return null;
    }
  }

  /** No more attempts by itself: state `failed`, halted (the reason from the last close code). */
  private giveUp(closeCode: number | undefined): void {
    this.haltReason = this.options.haltReason?.(closeCode) ?? 'gave-up';
    this.reconnects.clear();
    this.setState('failed');
    this.publish();
  }

  /** Attempts by itself again (an explicit connect, or a socket opened). */
  protected unhalt(): void {
    this.haltReason = null;
    this.terminal = false;
  }

  private handleOffline(): void {
    if (this.destroyed) return;
    this.isOnline = false;
    this.heartbeat.stop();
    this.reconnects.clear();
    const state = this.currentState;
    if (state === 'open' || state === 'connecting' || state === 'reconnecting') {
      this.generation++;
      this.reconnects.markDown();
      this.dropSocket(CLIENT_CLOSE, 'offline', 'reconnecting');
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
    this.haltReason = null;
    this.setState('reconnecting');
    if (this.currentState === 'reconnecting' && !this.inFlight) this.startAttempt();
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

  /** Writes the current fields into {@link ConnectionCore.store} (listeners run only on a change). */
  protected publish(): void {
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
        halted: this.haltReason !== null,
        haltReason: this.haltReason,
        loggedIn: state === 'open',
        welcomed: state === 'open' && this.store.getState().welcomed,
        reconnected: this.reconnected,
      }),
    );
  }

  protected setState(newState: ConnectionState): void {
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
