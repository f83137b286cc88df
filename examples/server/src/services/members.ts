/**
 * Verified identity (protocol §3b): a merchant vouches for its member with a signed token; the
 * member gets one stable visitor id (`vm-<uuid>`), the same on every device; an anonymous visitor
 * that proves its id (§3a secret) and logs in is merged into the member and its id retired.
 * Merchant secrets come from the configuration (`MERCHANT_SECRETS`, the demo secret) and the
 * store (sealed, added with the admin command); several per merchant are all valid (rotation).
 *
 * Member ids are drawn at random (not derived from the member id), so nothing about `sub` can be
 * read from them, and a deleted member (`services/privacy.ts`) comes back with a new, empty one.
 * The prefix `vm-` is reserved (group aliases, `m-<16 hex>`, are another thing): an anonymous connect naming such an id is refused (4004).
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { IdentityConfig } from '../identity-config.js';
import { verifyIdentityToken, type TokenCheck, type VerifiedMember } from '../identity/identity-token.js';
import {
  checkMerchantId,
  checkMerchantSecret,
  DEMO_MERCHANT_SECRET,
  newMerchantSecret,
  sealSecret,
  unsealSecret,
} from '../identity/merchant-secrets.js';
import { hashSecret } from '../identity/secrets.js';
import { DEFAULT_AGENT_MERCHANT } from '../agents/merchants.js';
import type { Member, MergedRows } from '../store/member-types.js';
import type { Store } from '../store/types.js';

/** The prefix of every member visitor id. */
export const MEMBER_ID_PREFIX = 'vm-';

/** The close reason of an anonymous visitor's other sockets after a merge (4004: the id is retired). */
export const MERGED_REASON = 'merged';

/** Whether `clientId` has the form of a member visitor id (reserved: only a valid token may name one). */
export function isMemberId(clientId: string): boolean {
  return clientId.startsWith(MEMBER_ID_PREFIX);
}

/** A stored merchant secret as the admin command lists it (never the secret itself). */
export interface ListedSecret {
  /** The merchant. */
  mchId: string;
  /** The id that names it (`remove`). */
  secretId: string;
  /** When it was added (ms). */
  createdAt: number;
  /** False when it no longer opens under the current sealing key. */
  readable: boolean;
}

/** What the service needs. */
export interface MembersDeps {
  /** Storage. */
  store: Store;
  /** `MERCHANT_SECRETS` and the demo secret. */
  config: IdentityConfig;
  /** The key that seals stored secrets (`identity/merchant-secrets.ts`). */
  sealingKey: Buffer;
  /** Closes a user's sockets in the whole cluster (the retired id's other tabs). */
  disconnect?(userId: string, code: number, reason: string): unknown;
  /** Told after a merge (agents' queue snapshots are sent again: a queued visitor may have a new id). */
  changed?(): void;
  /** The wall clock. */
  now?: () => number;
}

/** The verified-identity service. */
export class Members {
  private readonly now: () => number;

  /** @param deps - store, configuration, sealing key */
  constructor(private readonly deps: MembersDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Every valid secret of `mchId`: the configured ones, the stored ones, then the public demo one
   * (the demo merchant, on loopback, without `MERCHANT_SECRETS` and without stored secrets).
   */
  async secretsOf(mchId: string): Promise<string[]> {
    const { config, store, sealingKey } = this.deps;
    const secrets = config.merchantSecrets.filter((s) => s.mchId === mchId).map((s) => s.secret);
    const storedSecrets = await store.members.merchantSecrets(mchId);
    for (const stored of storedSecrets) {
      try {
        secrets.push(unsealSecret(sealingKey, stored.sealed));
      } catch {
        // sealed under another key: `merchant secret list` shows it as unreadable
      }
    }
    // secrets added with the admin command replace the public demo secret (like stored agents the demo agent)
    if (config.demoMerchantSecret && mchId === DEFAULT_AGENT_MERCHANT && storedSecrets.length === 0) secrets.push(DEMO_MERCHANT_SECRET);
    return secrets;
  }

  /** Whether the public demo secret is valid now (the start-up output prints it and the demo link then). */
  async demoSecretActive(): Promise<boolean> {
    return this.deps.config.demoMerchantSecret && (await this.deps.store.members.merchantSecrets(DEFAULT_AGENT_MERCHANT)).length === 0;
  }

  /** Verifies a connect's identity token for merchant `mchId` ({@link verifyIdentityToken}). */
  async verify(token: string, mchId: string): Promise<TokenCheck> {
    return verifyIdentityToken(token, mchId, await this.secretsOf(mchId), this.now());
  }

  /** The member of a verified token: its stored row, or a new one with a new id (the same for two connects at once). */
  memberFor(verified: VerifiedMember): Promise<Member> {
    const now = this.now();
    return this.deps.store.members.addMember({
      mchId: verified.mchId,
      sub: verified.sub,
      clientId: `${MEMBER_ID_PREFIX}${randomUUID()}`,
      email: verified.email ?? null,
      createdAt: now,
      verifiedAt: now,
    });
  }

  /**
   * Merges the anonymous visitor `from` (its secret checked by the caller) into the member visitor
   * `into` (protocol §3b.4): everything re-owned in one transaction, `from` retired (its secret
   * refused from now on), its key sessions ended but `keepSaltKey` (now bound to `into`), and its
   * other sockets closed with 4004 `merged`.
   */
  async merge(from: string, into: string, keepSaltKey: string): Promise<MergedRows> {
    const moved = await this.deps.store.members.mergeVisitor(from, into, keepSaltKey, { idHash: hashSecret(from), at: this.now() });
    await this.deps.disconnect?.(from, 4004, MERGED_REASON);
    this.deps.changed?.();
    return moved;
  }

  /**
   * Adds a secret for `mchId`, sealed in the store (a random one when `secret` is undefined).
   * @returns the secret's id and the secret (to hand to the merchant once).
   * @throws MerchantSecretsError for a bad merchant id or secret.
   */
  async addSecret(mchId: string, secret: string = newMerchantSecret()): Promise<{ secretId: string; secret: string }> {
    checkMerchantId(mchId);
    checkMerchantSecret(secret);
    const secretId = randomUUID().slice(0, 8);
    await this.deps.store.members.putMerchantSecret({ mchId, secretId, sealed: sealSecret(this.deps.sealingKey, secret), createdAt: this.now() });
    return { secretId, secret };
  }

  /** Removes a stored secret; false when there was none. */
  removeSecret(mchId: string, secretId: string): Promise<boolean> {
    return this.deps.store.members.removeMerchantSecret(mchId, secretId);
  }

  /** The stored secrets (of `mchId`, or all), without their values. */
  async listSecrets(mchId?: string): Promise<ListedSecret[]> {
    return (await this.deps.store.members.merchantSecrets(mchId)).map((s) => {
      let readable = true;
      try {
        unsealSecret(this.deps.sealingKey, s.sealed);
      } catch {
        readable = false;
      }
      return { mchId: s.mchId, secretId: s.secretId, createdAt: s.createdAt, readable };
    });
  }
}
