/**
 * The storage shapes of verified identity (protocol §3b, `services/members.ts`): a merchant's
 * member and its stable visitor id, the merge of an anonymous visitor into a member, and merchant
 * secrets kept sealed. Kept out of `types.ts` for size.
 * @module
 */

import type { DeletedRows, Tombstone } from './privacy-types.js';

/** A merchant's member (the token's `mch` and `sub`) and the visitor id it has on every device. */
export interface Member {
  /** The merchant. */
  mchId: string;
  /** The merchant's member id (the token's `sub`, 1-128 characters). */
  sub: string;
  /** The member's stable visitor id (`vm-<uuid>`, see `services/members.ts`). */
  clientId: string;
  /** The e-mail address of the latest token that carried one, or null. */
  email: string | null;
  /** When the member first connected verified (ms). */
  createdAt: number;
  /** When it last connected verified (ms). */
  verifiedAt: number;
}

/** A merchant secret as stored: sealed (AES-256-GCM under the server's sealing key), never in clear. */
export interface SealedMerchantSecret {
  /** The merchant. */
  mchId: string;
  /** A short id that names the secret in the admin command (`list`, `remove`); not secret. */
  secretId: string;
  /** `base64(nonce || ciphertext || tag)` of the secret's text (see `identity/merchant-secrets.ts`). */
  sealed: string;
  /** When it was added (ms). */
  createdAt: number;
}

/** What a merge re-owned: rows by table (key sessions ended count too). */
export type MergedRows = DeletedRows;

/** Members, the merge (protocol §3b.4) and sealed merchant secrets. */
export interface MemberRepo {
  /** The member `(mchId, sub)`, or undefined when it never connected verified. */
  member(mchId: string, sub: string): Member | undefined;
  /** The member whose stable visitor id is `clientId`, or undefined. */
  memberByClientId(clientId: string): Member | undefined;
  /**
   * Stores `member` unless `(mchId, sub)` is stored already, and answers the stored one: two
   * connects of one new member at once (on two nodes) get the same visitor id. A stored member's
   * `verifiedAt` (and `email`, when `member.email` is not null) are brought up to date.
   */
  addMember(member: Member): Member;
  /**
   * Merges the anonymous visitor `from` into the member visitor `into`, atomically (protocol
   * §3b.4): messages (renumbered after the member's own, in their order), sessions (with ratings;
   * an open one of `from` where `into` has one open too is ended first), complaints, left
   * messages, uploads, uploaded files, upload usage, group memberships and reads, arrivals are
   * re-owned; key sessions bound to `from` are forgotten except `keepSaltKey`, which is bound to
   * `into`; the visitor row of `from` is deleted and `tombstone` (its id's hash) kept, so that its
   * secret is refused (4004) from now on.
   */
  mergeVisitor(from: string, into: string, keepSaltKey: string, tombstone: Tombstone): MergedRows;
  /** Deletes the member row of visitor id `clientId` (a privacy deletion); false when there was none. */
  deleteMemberOf(clientId: string): boolean;
  /** Keeps a sealed merchant secret (replaces one of the same id). */
  putMerchantSecret(secret: SealedMerchantSecret): void;
  /** The sealed secrets of `mchId`, oldest first; of every merchant when `mchId` is undefined. */
  merchantSecrets(mchId?: string): SealedMerchantSecret[];
  /** Forgets a merchant secret; false when there was none. */
  removeMerchantSecret(mchId: string, secretId: string): boolean;
}
