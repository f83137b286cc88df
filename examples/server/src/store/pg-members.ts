/**
 * {@link MemberRepo} on PostgreSQL, with the same answers as `sqlite-members.ts`: members and their
 * stable visitor ids, the merge (one transaction, the statements of `merge-sql.ts`), and sealed
 * merchant secrets. Every statement is parameterised.
 * @module
 */

import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import { MERGE_STEPS, numberedMergeStep } from './merge-sql.js';
import type { MemberRepo, MergedRows } from './member-types.js';
import { countDeleted } from './rows-privacy.js';
import { toMemberVisitor, toSealedSecret, type MemberVisitorRow, type MerchantSecretRow } from './rows-members.js';
import type { Async } from './types.js';

/**
 * Creates the member repository over a queryable.
 * @internal
 */
export function pgMemberRepo(db: Queryable): Async<MemberRepo> {
  const member = async (q: Queryable, mchId: string, sub: string) => {
    const row = await firstRow<MemberVisitorRow>(q, 'SELECT * FROM member_visitors WHERE mch_id = $1 AND sub = $2', [mchId, sub]);
    return row === undefined ? undefined : toMemberVisitor(row);
  };
  return {
    member: (mchId, sub) => member(db, mchId, sub),
    memberByClientId: async (clientId) => {
      const row = await firstRow<MemberVisitorRow>(db, 'SELECT * FROM member_visitors WHERE client_id = $1', [clientId]);
      return row === undefined ? undefined : toMemberVisitor(row);
    },
    addMember: (m) =>
      db.atomic(async (q) => {
        await q.query(
          `INSERT INTO member_visitors (mch_id, sub, client_id, email, created_at, verified_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (mch_id, sub) DO UPDATE SET verified_at = GREATEST(member_visitors.verified_at, EXCLUDED.verified_at),
             email = COALESCE(EXCLUDED.email, member_visitors.email)`,
          [m.mchId, m.sub, m.clientId, m.email, m.createdAt, m.verifiedAt],
        );
        const stored = await member(q, m.mchId, m.sub);
        if (!stored) throw new Error('member not stored');
        return stored;
      }),
    mergeVisitor: (from, into, keep, tombstone) =>
      db.atomic(async (q) => {
        const moved: MergedRows = {};
        const params = { from, into, keep, now: tombstone.at };
        for (const step of MERGE_STEPS) {
          const { sql, values } = numberedMergeStep(step.sql, params);
          const changes = await changedRows(q, sql, values);
          if (step.table !== undefined) countDeleted(moved, step.table, changes);
        }
        await q.query(
          'INSERT INTO deleted_visitors (id_hash, deleted_at) VALUES ($1, $2) ON CONFLICT (id_hash) DO UPDATE SET deleted_at = EXCLUDED.deleted_at',
          [tombstone.idHash, tombstone.at],
        );
        return moved;
      }),
    deleteMemberOf: async (clientId) => (await changedRows(db, 'DELETE FROM member_visitors WHERE client_id = $1', [clientId])) > 0,
    putMerchantSecret: async (s) => {
      await db.query(
        `INSERT INTO merchant_secrets (mch_id, secret_id, sealed, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (mch_id, secret_id) DO UPDATE SET sealed = EXCLUDED.sealed, created_at = EXCLUDED.created_at`,
        [s.mchId, s.secretId, s.sealed, s.createdAt],
      );
    },
    merchantSecrets: async (mchId) =>
      (mchId === undefined
        ? await allRows<MerchantSecretRow>(db, 'SELECT * FROM merchant_secrets ORDER BY mch_id, created_at, secret_id')
        : await allRows<MerchantSecretRow>(db, 'SELECT * FROM merchant_secrets WHERE mch_id = $1 ORDER BY created_at, secret_id', [mchId])
      ).map(toSealedSecret),
    removeMerchantSecret: async (mchId, secretId) =>
      (await changedRows(db, 'DELETE FROM merchant_secrets WHERE mch_id = $1 AND secret_id = $2', [mchId, secretId])) === 1,
  };
}
