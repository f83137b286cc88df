/**
 * Agent session tokens: after a password login the agent's welcome carries a fresh token, and the
 * desk reconnects (a reload, another day) with `d = { role: "agent", account, token }` instead of
 * the password, which it never stores. Tokens are 32 secure random bytes (base64url); only their
 * SHA-256 is stored (like client secrets, see `identity/secrets.ts`: a 256-bit random value needs
 * no slow hash). A token expires `AGENT_SESSION_TTL_MS` after its last use, is revoked by the
 * agent's logout (type 312; with `everywhere`, every token of the account) and by removing the account.
 * @module
 */

import { timingSafeEqual } from 'node:crypto';
import { hashSecret, newClientSecret } from '../identity/secrets.js';
import type { Store } from '../store/types.js';

/** Longest token text looked at (a real one has 43 characters). */
const MAX_TOKEN_LENGTH = 256;

/** Issues, checks and revokes agent session tokens. */
export class AgentTokens {
  /**
   * @param store - where token hashes live
   * @param ttlMs - life after the last use
   * @param now - the clock (injectable for tests)
   */
  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new token for `account`; only its hash is kept. */
  async issue(account: string): Promise<string> {
    const token = newClientSecret();
    const now = this.now();
    await this.store.identity.putAgentToken(hashSecret(token), account, now, now + this.ttlMs);
    return token;
  }

  /**
   * Whether `token` is a live token of `account` (its life is then extended). The stored account
   * is compared in constant time; a non-string or oversized token fails without a lookup.
   */
  async verify(account: string, token: unknown): Promise<boolean> {
    if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) return false;
    const now = this.now();
    const owner = await this.store.identity.useAgentToken(hashSecret(token), now, now + this.ttlMs);
    if (owner === undefined) return false;
    const a = Buffer.from(hashSecret(owner), 'hex');
    const b = Buffer.from(hashSecret(account), 'hex');
    return timingSafeEqual(a, b);
  }

  /** Forgets `token` (logout); false when it was not live. */
  revoke(token: string): Promise<boolean> {
    return this.store.identity.revokeAgentToken(hashSecret(token));
  }

  /** Forgets every token of `account` ("log out everywhere"); answers how many were live. */
  revokeAll(account: string): Promise<number> {
    return this.store.identity.revokeAgentTokensOf(account);
  }
}
