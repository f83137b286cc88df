/**
 * The key sessions' storage shapes: one start-up key exchange (protocol §1) and its repository,
 * kept out of `types.ts` for size (re-exported there).
 * @module
 */

/** One start-up key exchange (protocol §1): named by its salt key, found again by its request key. */
export interface KeySession {
  /** Opaque name sent as `X-Salt-Key` and as `t` at connect. */
  saltKey: string;
  /** The client's 32-hex request key. */
  requestKey: string;
  /** The 32 ASCII characters of the AES key. */
  aesKey: string;
  /** The 32 ASCII characters of the user token (`userKey` is its UTF-8 bytes). */
  token: string;
  /** Creation time (ms). */
  createdAt: number;
  /** Last use (ms); the session expires a TTL after it. */
  lastUsed: number;
  /** The identity (client id or `agent:<account>`) the key session is bound to (protocol §3a), or null. */
  boundTo: string | null;
}

/** Key sessions. */
export interface KeySessionRepo {
  /** Stores a new key session (unbound). */
  create(session: Omit<KeySession, 'boundTo'>): void;
  byRequestKey(requestKey: string): KeySession | undefined;
  bySaltKey(saltKey: string): KeySession | undefined;
  touch(saltKey: string, now: number): void;
  /**
   * Deletes the sessions last used before `before`, and the unbound ones (no connect accepted on
   * them) last used before `unboundBefore` (default `before`); returns how many.
   */
  deleteUnusedSince(before: number, unboundBefore?: number): number;
}
