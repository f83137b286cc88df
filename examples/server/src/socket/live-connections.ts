/**
 * The admitted connections of this node: how many are open, the idle sweep, and the drain.
 * @module
 */

import { IDLE_CLOSE, SERVICE_RESTART_CLOSE } from './close-codes.js';

/** What the registry needs of a connection (a {@link Connection} has it). */
export interface LiveConnection {
  /** When its last frame arrived (ms). */
  readonly lastFrame: number;
  /** Closes it with a code and reason. */
  close(code: number, reason: string): void;
  /** Drops it at once. */
  terminate(): void;
  /** Resolves once the work it has queued has run (a drain waits for it before the store closes). */
  idle?(): Promise<void>;
}

/**
 * Waits for `work` to settle, at most `ms`.
 * @param work - what to wait for (its rejections are ignored)
 * @param ms - the longest wait
 */
export function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const deadline = setTimeout(resolve, ms);
    work.then(
      () => (clearTimeout(deadline), resolve()),
      () => (clearTimeout(deadline), resolve()),
    );
  });
}

/** How long a drain waits for closes to complete before it drops the rest. */
export const DRAIN_GRACE_MS = 1000;

/** The admitted connections of this node. */
export class LiveConnections<C extends LiveConnection = LiveConnection> {
  private readonly live = new Set<C>();

  /** How many are open. */
  get size(): number {
    return this.live.size;
  }

  /** Adds an admitted connection. */
  add(connection: C): void {
    this.live.add(connection);
  }

  /** Removes a closed connection. */
  delete(connection: C): void {
    this.live.delete(connection);
  }

  /** Closes every connection with no frame since `now - idleMs` with 4002. */
  closeIdle(now: number, idleMs: number): void {
    const limit = now - idleMs;
    for (const connection of this.live) if (connection.lastFrame < limit) connection.close(IDLE_CLOSE, 'idle timeout');
  }

  /**
   * Runs {@link LiveConnections.closeIdle} every `min(30 s, idleMs)` (the timer does not keep the
   * process alive).
   * @returns the disposer that stops it
   */
  sweepIdle(idleMs: number, now: () => number = Date.now): () => void {
    const timer = setInterval(() => this.closeIdle(now(), idleMs), Math.min(30_000, idleMs));
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Closes every connection with 1012 (service restart: clients reconnect at once, to another
   * node behind a balancer) and resolves once all are gone and the work they had queued has run
   * (it may still use the store, which closes next); after {@link DRAIN_GRACE_MS} the rest are
   * dropped and, after another grace, their work is no longer waited for.
   */
  async drain(graceMs = DRAIN_GRACE_MS): Promise<void> {
    const draining = [...this.live];
    for (const connection of draining) connection.close(SERVICE_RESTART_CLOSE, 'service restart');
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(() => {
        for (const connection of this.live) connection.terminate();
        resolve();
      }, graceMs);
      const check = (): void => {
        if (this.live.size === 0) {
          clearTimeout(deadline);
          resolve();
        } else setTimeout(check, 10);
      };
      check();
    });
    await settledWithin(Promise.allSettled(draining.map((connection) => connection.idle?.())), graceMs);
  }
}
