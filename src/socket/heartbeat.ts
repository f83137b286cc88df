/**
 * The heartbeat and the liveness check of a {@link Connection}'s open socket (spec §4: a
 * heartbeat every 20 s; a page back from sleep checks that its socket still answers).
 * @module
 * @internal
 */
import type { Disposables, Disposer } from '../timers.js';

/** What a {@link Heartbeat} needs from its connection. @internal */
export interface HeartbeatDeps {
  /** The connection's registry (destroy clears the timers). */
  disposables: Disposables;
  /** Heartbeat interval, ms. */
  interval: number;
  /** The encoded heartbeat frame, or null to skip this beat (a failure is reported by the connection). */
  frame(): string | null;
  /** Writes a frame on the open socket; false when it was not written. */
  send(frame: string): boolean;
  /** Whether the socket is open now. */
  isOpen(): boolean;
}

/**
 * One interval that sends the heartbeat frame while the socket is open, and at most one liveness
 * check: a heartbeat sent now, and a timer that declares the socket dead unless a frame arrives
 * first ({@link Heartbeat.alive}).
 * @internal
 */
export class Heartbeat {
  private stopBeat: Disposer | null = null;
  private cancelCheck: Disposer | null = null;

  /** @param deps - the timers, the frame and the socket */
  constructor(private readonly deps: HeartbeatDeps) {}

  /** True while a liveness check waits for a frame. */
  get checking(): boolean {
    return this.cancelCheck !== null;
  }

  /** Starts beating (the socket just opened); replaces a running interval. */
  start(): void {
    this.stop();
    const { deps } = this;
    this.stopBeat = deps.disposables.interval(() => {
      if (!deps.isOpen()) return;
      const frame = deps.frame();
      if (frame !== null) deps.send(frame);
    }, deps.interval);
  }

  /** Stops beating and ends a running liveness check (the socket dropped or was closed). */
  stop(): void {
    const stop = this.stopBeat;
    this.stopBeat = null;
    stop?.();
    this.alive();
  }

  /** A frame arrived: the socket is alive, a running liveness check ends. */
  alive(): void {
    const cancel = this.cancelCheck;
    this.cancelCheck = null;
    cancel?.();
  }

  /**
   * Sends a heartbeat now and calls `dead` when no frame arrives within `timeoutMs`. Nothing when
   * a check is already running or the heartbeat could not be sent.
   * @param timeoutMs - how long to wait for any incoming frame
   * @param dead - the socket did not answer
   */
  check(timeoutMs: number, dead: () => void): void {
    if (this.cancelCheck) return;
    const frame = this.deps.frame();
    if (frame === null || !this.deps.send(frame)) return;
    const cancel = this.deps.disposables.timeout(() => {
      if (this.cancelCheck !== cancel) return;
      this.cancelCheck = null;
      dead();
    }, Math.max(0, timeoutMs));
    this.cancelCheck = cancel;
  }
}
