/**
 * The identity's storage shapes (protocol §3a): agents kept in the store and the repository of
 * secret hashes, key-session bindings, upload usage and agent tokens, kept out of `types.ts` for
 * size (re-exported there).
 * @module
 */

/** An agent account kept in the store (added with the admin command). */
export interface StoredAgent {
  /** Login name. */
  account: string;
  /** Display name. */
  name: string;
  /** `scrypt$N$r$p$salt$hash` (see `agents/password.ts`). */
  passwordHash: string;
  /** The merchants it works for (at least one; see `agents/merchants.ts`). */
  merchants: readonly string[];
  /** When it was added (ms). */
  createdAt: number;
}

/**
 * Identity binding (protocol §3a): visitors' secret hashes, key-session bindings, agents in the
 * store and per-identity upload usage.
 */
export interface IdentityRepo {
  /** The stored secret hash of a visitor, or undefined when it is unclaimed (or unknown). */
  secretHash(clientId: string): string | undefined;
  /** Stores the hash for an existing, unclaimed visitor; false when it was already claimed. */
  claim(clientId: string, secretHash: string): boolean;
  /** Binds a key session to `identity`; false when it is bound to another identity. */
  bindKeySession(saltKey: string, identity: string): boolean;
  /** Whether a conversation of `clientId` with one of the merchants `mchIds` was ever assigned to `agentId`. */
  assigned(agentId: string, clientId: string, mchIds: readonly string[]): boolean;
  /** Bytes uploaded by `identity` on `day` (`YYYY-MM-DD`, UTC). */
  uploadBytes(identity: string, day: string): number;
  /** Adds (or, negative, refunds) uploaded bytes. */
  addUploadBytes(identity: string, day: string, bytes: number): void;
  agent(account: string): StoredAgent | undefined;
  agents(): StoredAgent[];
  putAgent(agent: StoredAgent): void;
  /** False when there was no such agent. */
  removeAgent(account: string): boolean;
  /** Keeps an agent session token's hash until `expiresAt` (ms). */
  putAgentToken(tokenHash: string, account: string, now: number, expiresAt: number): void;
  /** The account of an unexpired token hash (its expiry moved to `expiresAt`), or undefined. */
  useAgentToken(tokenHash: string, now: number, expiresAt: number): string | undefined;
  /** Forgets a token hash (logout); false when it was not kept. */
  revokeAgentToken(tokenHash: string): boolean;
  /** Forgets every token of `account` ("log out everywhere"); answers how many there were. */
  revokeAgentTokensOf(account: string): number;
}
