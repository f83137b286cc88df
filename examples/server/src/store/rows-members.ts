/**
 * Rows of verified identity (`member_visitors`, `merchant_secrets`) and their mappers, shared by
 * both stores.
 * @module
 */

import type { Member, SealedMerchantSecret } from './member-types.js';

/** A `member_visitors` row. */
export interface MemberVisitorRow {
  mch_id: string;
  sub: string;
  client_id: string;
  email: string | null;
  created_at: number;
  verified_at: number;
}

/** A `merchant_secrets` row. */
export interface MerchantSecretRow {
  mch_id: string;
  secret_id: string;
  sealed: string;
  created_at: number;
}

/** The row's member. */
export function toMemberVisitor(row: MemberVisitorRow): Member {
  return { mchId: row.mch_id, sub: row.sub, clientId: row.client_id, email: row.email, createdAt: row.created_at, verifiedAt: row.verified_at };
}

/** The row's sealed secret. */
export function toSealedSecret(row: MerchantSecretRow): SealedMerchantSecret {
  return { mchId: row.mch_id, secretId: row.secret_id, sealed: row.sealed, createdAt: row.created_at };
}
