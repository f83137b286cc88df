/**
 * The connection snapshot: everything a UI shows about the socket, in one store of the SDK
 * (`client.connectionStore`), so no binding assembles it from events.
 * @module
 */
import type { ConnectionState } from '../events.js';
import { createStore, type Store } from '../state/store.js';
import type { CloseCode } from '../codes.js';

/**
 * Why the client stopped reconnecting by itself (the snapshot's `haltReason`):
 * - `banned`: the server closed with 4003; only `connect()` or `reconnect()` try again;
 * - `too-many-connections`: 4005, the identity has too many sockets open elsewhere (other tabs,
 *   windows or devices); the page coming back, the network coming back, `connect()` or
 *   `reconnect()` try again;
 * - `identity-refused`: 4004 even for a fresh identity;
 * - `identity-token-refused`: 4006 twice in a row (the member's identity token, protocol §3b);
 * - `unauthorized`: 4001 `maxReconnectAttempts` times in a row, with fresh keys each time;
 * - `gave-up`: the reconnect policy returned `null`.
 */
export type HaltReason = 'banned' | 'too-many-connections' | 'identity-refused' | 'identity-token-refused' | 'unauthorized' | 'gave-up';

/** What `client.connectionStore` holds. A new object after every change. */
export interface ConnectionSnapshot {
  /** `closed`, `connecting`, `open`, `reconnecting` or `failed` (failed is shown, not final: attempts go on). */
  readonly state: ConnectionState;
  /** False while the browser reports being offline. */
  readonly online: boolean;
  /** Reconnect attempts in a row since the connection was lost (0 while open). */
  readonly attempt: number;
  /** When the next reconnect attempt starts, ms since the epoch (local clock), or null when none is scheduled. */
  readonly nextAttemptAt: number | null;
  /** The close code of the last socket that closed, or null before any close. */
  readonly lastCloseCode: CloseCode | null;
  /** True in the `failed` state: the first phase of reconnects is over (or the server said never reconnect). */
  readonly failed: boolean;
  /**
   * True when the client will not reconnect by itself: the server closed with a "never reconnect"
   * code (4003), refused the connect for good (4005, 4004 twice, 4001 past the limit) or the
   * reconnect policy gave up. `connect()` and `reconnect()` leave it; so do the page and the
   * network coming back, except after 4003. `haltReason` says why.
   */
  readonly halted: boolean;
  /** Why the client halted (see {@link HaltReason}), or null while it is not halted. */
  readonly haltReason: HaltReason | null;
  /** True while the socket is open: the server accepted the connect. */
  readonly loggedIn: boolean;
  /**
   * True once the server's welcome came on the open socket: from then on the key session speaks
   * for this client (protocol §3a) and visitor-scoped calls (`client.api`: history, rating,
   * questions, uploads) may go; false again when the socket closes. Between the socket opening
   * (`socket login`, `loggedIn`) and the welcome such calls wait (see `ImClient.api`).
   */
  readonly welcomed: boolean;
  /** Whether the latest open was a reconnect (false before any open). */
  readonly reconnected: boolean;
  /** The user id the server gave in its welcome, once known. */
  readonly userId: string | undefined;
  /**
   * True when the last welcome said the user id is a merchant's verified member (protocol §3b:
   * `{"verified":true}`); false (or absent, before any welcome) for an anonymous visitor, and again
   * after `reset()`.
   */
  readonly verified?: boolean;
}

/** A store that can be read and subscribed to, not written (`useSyncExternalStore`-ready). */
export type ReadonlyStore<T extends object> = Pick<Store<T>, 'getState' | 'getSnapshot' | 'subscribe'>;

/** The snapshot of a connection that never started. */
export const INITIAL_CONNECTION_SNAPSHOT: ConnectionSnapshot = Object.freeze({
  state: 'closed',
  online: true,
  attempt: 0,
  nextAttemptAt: null,
  lastCloseCode: null,
  failed: false,
  halted: false,
  haltReason: null,
  loggedIn: false,
  welcomed: false,
  reconnected: false,
  userId: undefined,
});

/**
 * Creates the store of a connection snapshot.
 * @param online - the initial online flag
 * @internal
 */
export function createConnectionStore(online: boolean): Store<ConnectionSnapshot> {
  return createStore<ConnectionSnapshot>({ ...INITIAL_CONNECTION_SNAPSHOT, online });
}
