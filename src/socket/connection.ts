/**
 * The socket transport: connection state machine, heartbeat, reconnect and network awareness
 * (spec §4 "Socket connection"). Knows nothing about message semantics. The state, the socket,
 * the heartbeat and the close handling live in {@link ConnectionCore}; this file holds the
 * commands a client and the page lifecycle give.
 * @module
 */
import { CloseCode } from '../codes.js';
import type { ConnectionState } from '../events.js';
import { CLIENT_CLOSE, ConnectionCore } from './connection-core.js';

export type { ConnectionErrorSource, ConnectionEvents, ConnectionOptions, NetworkTarget } from './connection-types.js';

/** The close reason of a socket that did not answer a liveness check. */
const LIVENESS_TIMEOUT = 'liveness timeout';
/** The close reason of a socket closed for the back/forward cache. */
const PAGE_HIDDEN = 'page hidden';

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
export class Connection extends ConnectionCore {
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
      this.unhalt();
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
    this.unhalt();
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
    this.haltReason = null;
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
    if (this.destroyed || this.currentState !== 'open') return;
    const socket = this.slot.current;
    this.heartbeat.check(timeoutMs, () => {
      if (this.slot.current !== socket || this.currentState !== 'open') return;
      this.dropSocket(CloseCode.Abnormal, LIVENESS_TIMEOUT);
      if (this.destroyed || this.slot.current || this.inFlight || this.currentState !== 'open') return;
      this.reconnects.reset();
      this.reconnects.markDown();
      this.setState('reconnecting');
      if ((this.currentState as ConnectionState) === 'reconnecting' && !this.inFlight) this.startAttempt();
    });
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
    this.reconnects.clear();
    this.dropSocket(CLIENT_CLOSE, PAGE_HIDDEN, 'reconnecting');
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
   * Disconnects by the user's wish: closes the socket, stops the heartbeat, cancels any scheduled
   * reconnect; state `closed`. {@link Connection.connect} may be called again.
   */
  close(): void {
    if (this.destroyed) return;
    this.generation++;
    this.suspended = false;
    this.reconnects.reset();
    this.dropSocket(CLIENT_CLOSE, 'client close', 'closed');
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
    this.heartbeat.stop();
    this.disposables.dispose();
    this.slot.drop(CLIENT_CLOSE, 'destroyed');
    this.setState('closed');
    this.removeAllListeners();
  }
}
