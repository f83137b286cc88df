/**
 * {@link MemberRepo} on better-sqlite3: members and their stable visitor ids, the merge of an
 * anonymous visitor into a member (one transaction, the statements of `merge-sql.ts`), and sealed
 * merchant secrets. Every statement is parameterised.
 * @module
 */

import type Database from 'better-sqlite3';
import { MERGE_STEPS, namedMergeValues } from './merge-sql.js';
import type { MemberRepo, MergedRows } from './member-types.js';
import { countDeleted } from './rows-privacy.js';
import { toMemberVisitor, toSealedSecret, type MemberVisitorRow, type MerchantSecretRow } from './rows-members.js';

/**
 * Creates the member repository.
 * @internal
 */
export function sqliteMemberRepo(db: Database.Database): MemberRepo {
  const q = {
    member: db.prepare<[string, string], MemberVisitorRow>('SELECT * FROM member_visitors WHERE mch_id = ? AND sub = ?'),
    byClient: db.prepare<[string], MemberVisitorRow>('SELECT * FROM member_visitors WHERE client_id = ?'),
    insert: db.prepare<[string, string, string, string | null, number, number]>(
      `INSERT INTO member_visitors (mch_id, sub, client_id, email, created_at, verified_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (mch_id, sub) DO NOTHING`,
    ),
    touch: db.prepare<[number, string | null, string, string]>(
      'UPDATE member_visitors SET verified_at = MAX(verified_at, ?), email = COALESCE(?, email) WHERE mch_id = ? AND sub = ?',
    ),
    deleteOf: db.prepare<[string]>('DELETE FROM member_visitors WHERE client_id = ?'),
    tombstone: db.prepare<[string, number]>(
      'INSERT INTO deleted_visitors (id_hash, deleted_at) VALUES (?, ?) ON CONFLICT (id_hash) DO UPDATE SET deleted_at = excluded.deleted_at',
    ),
    putSecret: db.prepare<[string, string, string, number]>(
      `INSERT INTO merchant_secrets (mch_id, secret_id, sealed, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (mch_id, secret_id) DO UPDATE SET sealed = excluded.sealed, created_at = excluded.created_at`,
    ),
    secretsOf: db.prepare<[string], MerchantSecretRow>('SELECT * FROM merchant_secrets WHERE mch_id = ? ORDER BY created_at, secret_id'),
    allSecrets: db.prepare<[], MerchantSecretRow>('SELECT * FROM merchant_secrets ORDER BY mch_id, created_at, secret_id'),
    removeSecret: db.prepare<[string, string]>('DELETE FROM merchant_secrets WHERE mch_id = ? AND secret_id = ?'),
  };
  const steps = MERGE_STEPS.map((step) => ({ table: step.table, sql: step.sql, statement: db.prepare(step.sql) }));

  const addMember = db.transaction((m: Parameters<MemberRepo['addMember']>[0]) => {
    q.insert.run(m.mchId, m.sub, m.clientId, m.email, m.createdAt, m.verifiedAt);
    q.touch.run(m.verifiedAt, m.email, m.mchId, m.sub);
    const row = q.member.get(m.mchId, m.sub);
    if (!row) throw new Error('member not stored');
    return toMemberVisitor(row);
  });

  const merge = db.transaction((from: string, into: string, keep: string, idHash: string, now: number): MergedRows => {
    const moved: MergedRows = {};
    const params = { from, into, keep, now };
    for (const step of steps) {
      const changes = step.statement.run(namedMergeValues(step.sql, params)).changes;
      if (step.table !== undefined) countDeleted(moved, step.table, changes);
    }
    q.tombstone.run(idHash, now);
    return moved;
  });

  return {
    member: (mchId, sub) => {
      const row = q.member.get(mchId, sub);
      return row === undefined ? undefined : toMemberVisitor(row);
    },
    memberByClientId: (clientId) => {
      const row = q.byClient.get(clientId);
      return row === undefined ? undefined : toMemberVisitor(row);
    },
    addMember: (member) => addMember(member),
    mergeVisitor: (from, into, keepSaltKey, tombstone) => merge(from, into, keepSaltKey, tombstone.idHash, tombstone.at),
    deleteMemberOf: (clientId) => q.deleteOf.run(clientId).changes > 0,
    putMerchantSecret: (s) => {
      q.putSecret.run(s.mchId, s.secretId, s.sealed, s.createdAt);
    },
    merchantSecrets: (mchId) => (mchId === undefined ? q.allSecrets.all() : q.secretsOf.all(mchId)).map(toSealedSecret),
    removeMerchantSecret: (mchId, secretId) => q.removeSecret.run(mchId, secretId).changes === 1,
  };
}
