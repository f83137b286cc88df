/**
 * Leader election between the tabs of one browser with the Web Locks API: the tab holding an
 * exclusive lock is the leader (it keeps the lock by holding a promise that only resolves when it
 * resigns); every other tab waits in the lock's queue and is granted it, at once, when the
 * leader's tab closes or crashes (the browser releases the locks of a dead tab).
 *
 * The lock manager is injected (`navigator.locks` in a browser, a fake in unit tests); without
 * one, or when the browser refuses the request (opaque origins, some sandboxed frames), the role
 * is `solo`: the tab works alone, as if it were the only one.
 * @module
 */

/** A tab's role: `leader` (owns the socket), `follower` (talks through the leader), `solo` (no coordination). */
export type TabRole = 'leader' | 'follower' | 'solo';

/** The options of a Web Locks request that the election uses. */
export interface LockRequestOptionsLike {
  /** Always `'exclusive'` here. */
  mode?: 'exclusive' | 'shared';
  /** Grant the lock only if it is free now; otherwise the callback gets `null`. */
  ifAvailable?: boolean;
  /** Aborts a request still waiting in the queue. */
  signal?: AbortSignal;
}

/** The part of the Web Locks `LockManager` (`navigator.locks`) the election uses. */
export interface LockManagerLike {
  /**
   * Requests a lock; the callback runs when it is granted (or with `null` for an unavailable
   * `ifAvailable` request) and the lock is held until the callback's promise settles.
   */
  request(name: string, options: LockRequestOptionsLike, callback: (lock: unknown) => unknown): Promise<unknown>;
}

/** Options of {@link LeaderElection}. */
export interface LeaderElectionOptions {
  /** The lock name: scope it by identity (see `tabScopeName`). */
  name: string;
  /** The lock manager, or null for none (role `solo`). */
  locks: LockManagerLike | null;
  /** Told every role change (after {@link LeaderElection.start}, at least once). */
  onRole: (role: TabRole) => void;
  /** Told when the lock manager failed (the role then falls back to `solo`). */
  onError?: (error: Error) => void;
}

/**
 * One tab's candidacy. Call {@link LeaderElection.start} once; {@link LeaderElection.role} is
 * `null` until the first answer (a free lock is granted within a task), then `leader`,
 * `follower` (waiting in the queue) or `solo`. A follower becomes leader when the lock is
 * granted to it. {@link LeaderElection.destroy} resigns: it releases the lock or leaves the queue.
 */
export class LeaderElection {
  private currentRole: TabRole | null = null;
  private started = false;
  private destroyed = false;
  private release: (() => void) | null = null;
  private readonly abort: AbortController | null = typeof AbortController === 'function' ? new AbortController() : null;

  /** @param options - the lock name and manager, and the role listener */
  constructor(private readonly options: LeaderElectionOptions) {}

  /** The role, or null while the first answer is awaited (or before {@link LeaderElection.start}). */
  get role(): TabRole | null {
    return this.currentRole;
  }

  /** Enters the election: asks for the lock if it is free, else queues for it. */
  start(): void {
    if (this.started || this.destroyed) return;
    this.started = true;
    const { locks, name } = this.options;
    if (!locks || typeof locks.request !== 'function') {
      this.setRole('solo');
      return;
    }
    this.request(locks, name, { mode: 'exclusive', ifAvailable: true }, (lock) => {
      if (lock) return this.lead();
      // Someone leads: follow, and queue for the lock (granted when the leader's tab goes away).
      this.setRole('follower');
      this.request(locks, name, { mode: 'exclusive', ...(this.abort ? { signal: this.abort.signal } : {}) }, () => this.lead());
      return undefined;
    });
  }

  /** Resigns: releases the lock (another tab is granted it at once) or leaves the queue. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.release?.();
    this.release = null;
    this.abort?.abort();
  }

  /** Holds the lock until {@link LeaderElection.destroy}: the returned promise settles only then. */
  private lead(): Promise<void> | undefined {
    if (this.destroyed) return undefined; // granted after resigning: let it go at once
    const held = new Promise<void>((resolve) => (this.release = resolve));
    this.setRole('leader');
    return held;
  }

  private request(locks: LockManagerLike, name: string, options: LockRequestOptionsLike, callback: (lock: unknown) => unknown): void {
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(locks.request(name, options, callback));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.catch((error: unknown) => {
      if (this.destroyed) return; // the abort of our own queued request
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      if (this.currentRole !== 'leader') this.setRole('solo');
    });
  }

  private setRole(role: TabRole): void {
    if (this.destroyed || this.currentRole === role) return;
    this.currentRole = role;
    this.options.onRole(role);
  }
}
