/**
 * Key sessions (protocol §1), identity binding (protocol §3a) and who may act for whom (protocol
 * §3a.3): a key session is made once per request key and expires a TTL after its last use; it is
 * bound to the first identity accepted on it and speaks only for that one; an unseen client id is
 * claimed once with a secret, stored only as its hash; a bound visitor may name only itself, an
 * agent only the visitors whose conversations with its merchants were assigned to it.
 * @module
 */

import { randomBytes } from 'node:crypto';
import { randomAscii } from '../crypto.js';
import { hashSecret, secretMatches } from '../identity/secrets.js';
import { ApiError, Code } from '../http/envelope.js';
import { tooManyRequests } from '../http/errors.js';
import type { KeySession, Store } from '../store/types.js';

/** Touch a session's lastUsed at most this often (ms; a quarter of a shorter TTL). */
const TOUCH_EVERY = 60_000;

/**
 * What a connect's secret says about a client id (protocol §3a.1): the id is `unclaimed` (the
 * connect claims it), the secret `matches` its stored hash, or it does not (`mismatch`).
 */
export type ClaimCheck = 'unclaimed' | 'matches' | 'mismatch';

/** The role an identity (`clientId` or `agent:<account>`) speaks as. */
export function roleOf(identity: string): 'visitor' | 'agent' {
  return identity.startsWith('agent:') ? 'agent' : 'visitor';
}

/** The identity service. */
export class Identity {
  /** How long an unbound key session lives after its last use (at most {@link ttlMs}). */
  private readonly unboundTtlMs: number;

  /**
   * @param store - storage
   * @param ttlMs - a key session expires this long after its last use
   * @param now - the wall clock
   * @param agentMerchants - the merchants an agent works for
   * @param unboundTtlMs - a key session no connect was accepted on expires this long after its
   *   last use (default and at most `ttlMs`)
   */
  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly agentMerchants: (agentId: string) => Promise<readonly string[]> = async () => [],
    unboundTtlMs: number = ttlMs,
  ) {
    this.unboundTtlMs = Math.min(unboundTtlMs, ttlMs);
  }

  /** A key session's TTL: the shorter one while no connect bound it. */
  private ttlOf(session: KeySession): number {
    return session.boundTo === null ? this.unboundTtlMs : this.ttlMs;
  }

  /** Whether a key session has expired: its TTL after its last use. */
  private expired(session: KeySession, now: number): boolean {
    return session.lastUsed + this.ttlOf(session) < now;
  }

  /**
   * The key session of a request key, created on first use. `mayCreate` decides whether a new
   * one may be created now (the per-address limit); when it may not, nothing is created and the
   * call is refused as too many requests (HTTP 413).
   */
  async sessionFor(requestKey: string, mayCreate: () => boolean | Promise<boolean>): Promise<KeySession> {
    const now = this.now();
    const existing = await this.store.keys.byRequestKey(requestKey);
    if (existing && !this.expired(existing, now)) return existing;
    try {
      return await this.store.transaction((tx) => this.create(tx, requestKey, now, mayCreate));
    } catch (error) {
      // two first calls with one request key at once (on two nodes): the other one created it
      const made = await this.store.keys.byRequestKey(requestKey);
      if (made && !(error instanceof ApiError)) return made;
      throw error;
    }
  }

  /**
   * The live key session named by a salt key (its last use moved on, at most once a minute).
   * @throws ApiError 1002 when missing, unknown or expired.
   */
  async requireLive(saltKey: string): Promise<KeySession> {
    const session = await this.live(saltKey);
    if (!session) throw new ApiError(Code.BadSalt, 'Unknown or expired salt key: restart the key exchange');
    return session;
  }

  /**
   * The live key session named by a salt key (its last use moved on, at most once a minute or a
   * quarter of the TTL), or undefined when missing, unknown or expired.
   */
  async live(saltKey: string): Promise<KeySession | undefined> {
    const session = saltKey === '' ? undefined : await this.store.keys.bySaltKey(saltKey);
    const now = this.now();
    if (!session || this.expired(session, now)) return undefined;
    if (now - session.lastUsed > Math.min(TOUCH_EVERY, this.ttlOf(session) / 4)) await this.store.keys.touch(session.saltKey, now);
    return session;
  }

  /**
   * How often an open socket keeps its key session alive ({@link keep}): a quarter of the TTL, at
   * most every 15 minutes. A visitor's tab open all day, its socket up, its HTTP calls rare, keeps
   * a key session whose calls (an image sent, older pages) still work.
   */
  get keepEvery(): number {
    return Math.min(this.ttlMs / 4, 15 * 60_000);
  }

  /**
   * Keeps a key session alive: its last use moves on, as a call with it would (see {@link live}).
   * An expired or unknown one is left as it is.
   */
  async keep(saltKey: string): Promise<void> {
    await this.live(saltKey);
  }

  /**
   * Binds the key session `saltKey` to `identity` (protocol §3a): the first accepted identity
   * binds it, the same one again is fine.
   * @returns false when it is bound to another identity
   */
  bind(saltKey: string, identity: string): Promise<boolean> {
    return this.store.identity.bindKeySession(saltKey, identity);
  }

  /**
   * Whether `secret` proves client id `clientId` ({@link ClaimCheck}); the comparison takes constant
   * time. An id deleted on request (`services/privacy.ts`) is a `mismatch` for a while, so that a
   * client still holding it is refused (4004) and starts as a new visitor instead of claiming it again.
   */
  async checkClaim(clientId: string, secret: unknown): Promise<ClaimCheck> {
    const storedHash = await this.store.identity.secretHash(clientId);
    if (storedHash === undefined) return (await this.store.privacy.isDeleted(hashSecret(clientId))) ? 'mismatch' : 'unclaimed';
    return secretMatches(secret, storedHash) ? 'matches' : 'mismatch';
  }

  /** Whether visitor id `clientId` was deleted on request or retired by a merge (its tombstone is kept for a while). */
  isDeletedId(clientId: string): Promise<boolean> {
    return this.store.privacy.isDeleted(hashSecret(clientId));
  }

  /**
   * Claims the unclaimed client id `clientId` with `secret` (only its hash is stored, before any
   * welcome carries the secret). Of two connects claiming one id at once, one wins.
   * @returns false when it was claimed already
   */
  claim(clientId: string, secret: string): Promise<boolean> {
    return this.store.identity.claim(clientId, hashSecret(secret));
  }

  /** Whether a salt key names a stored key session (expired or not): the rate limiter's key. */
  async knows(saltKey: string): Promise<boolean> {
    return saltKey !== '' && (await this.store.keys.bySaltKey(saltKey)) !== undefined;
  }

  /**
   * The rule of protocol §3a.3: whether `identity` may name visitor `clientId` (in its
   * conversation with merchant `mchId`, when the call names one). A visitor names only itself; an
   * agent a visitor whose conversation with one of its merchants (with `mchId`, which must be one
   * of them) was assigned to it.
   */
  async mayActFor(identity: string, clientId: string, mchId?: string): Promise<boolean> {
    if (roleOf(identity) === 'visitor') return clientId === identity;
    const merchants = await this.agentMerchants(identity);
    const scope = mchId === undefined ? merchants : merchants.filter((m) => m === mchId);
    return clientId !== '' && scope.length > 0 && (await this.store.identity.assigned(identity, clientId, scope));
  }

  /** The merchants an identity works for: an agent's (docs/protocol.md §7), none for a visitor. */
  merchantsOf(identity: string): Promise<readonly string[]> {
    return roleOf(identity) === 'agent' ? this.agentMerchants(identity) : Promise.resolve([]);
  }

  /** Forgets key sessions unused for their TTL (housekeeping); returns how many. */
  purgeUnused(): Promise<number> {
    const now = this.now();
    return this.store.keys.deleteUnusedSince(now - this.ttlMs, now - this.unboundTtlMs);
  }

  private async create(tx: Store, requestKey: string, now: number, mayCreate: () => boolean | Promise<boolean>): Promise<KeySession> {
    await tx.keys.deleteUnusedSince(now - this.ttlMs, now - this.unboundTtlMs);
    const again = await tx.keys.byRequestKey(requestKey);
    if (again) return again;
    if (!(await mayCreate())) throw tooManyRequests();
    const session: KeySession = {
      saltKey: randomBytes(18).toString('base64url'),
      requestKey,
      aesKey: randomAscii(32),
      token: randomAscii(32),
      createdAt: now,
      lastUsed: now,
      boundTo: null,
    };
    await tx.keys.create(session);
    return session;
  }
}
