/**
 * {@link IdentityRepo} on PostgreSQL: visitor secret hashes, key-session bindings, agents kept in
 * the store, agent session tokens and per-identity upload usage, with the same answers as
 * `sqlite-identity.ts`. Every statement is parameterised.
 * @module
 */

import { insertInto } from './pg-params.js';
import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import { mapRow, rowValues } from './rows.js';
import * as rows from './rows-records.js';
import type { Async, IdentityRepo } from './types.js';

/**
 * Creates the identity repository over a queryable.
 * @internal
 */
export function pgIdentityRepo(db: Queryable): Async<IdentityRepo> {
  return {
    secretHash: async (clientId) =>
      (await firstRow<{ secret_hash: string | null }>(db, 'SELECT secret_hash FROM visitors WHERE client_id = $1', [clientId]))
        ?.secret_hash ?? undefined,
    claim: async (clientId, secretHash) =>
      (await changedRows(db, 'UPDATE visitors SET secret_hash = $1 WHERE client_id = $2 AND secret_hash IS NULL', [secretHash, clientId])) === 1,
    bindKeySession: async (saltKey, identity) =>
      (await changedRows(
        db,
        'UPDATE key_sessions SET bound_to = $1 WHERE salt_key = $2 AND (bound_to IS NULL OR bound_to = $1)',
        [identity, saltKey],
      )) === 1,
    assigned: async (agentId, clientId, mchIds) =>
      mchIds.length > 0 &&
      (await firstRow(db, 'SELECT 1 AS one FROM sessions WHERE agent_id = $1 AND client_id = $2 AND mch_id = ANY($3::text[]) LIMIT 1', [agentId, clientId, [...mchIds]])) !== undefined,
    uploadBytes: async (identity, day) =>
      (await firstRow<{ bytes: number }>(db, 'SELECT bytes FROM upload_usage WHERE identity = $1 AND day = $2', [identity, day]))?.bytes ?? 0,
    addUploadBytes: async (identity, day, bytes) => {
      await db.atomic(async (q) => {
        // Never below 0, also when a refund comes first (GREATEST on the inserted value too).
        await q.query(
          `INSERT INTO upload_usage (identity, day, bytes) VALUES ($1, $2, GREATEST(0, $3::bigint))
           ON CONFLICT (identity, day) DO UPDATE SET bytes = GREATEST(0, upload_usage.bytes + $3::bigint)`,
          [identity, day, Math.trunc(bytes)],
        );
        await q.query('DELETE FROM upload_usage WHERE day < $1', [day]); // only today's usage counts: older days are dropped
      });
    },
    agent: async (account) => mapRow(await firstRow<rows.AgentRow>(db, 'SELECT * FROM agents WHERE account = $1', [account]), rows.toAgent),
    agents: async () => (await allRows<rows.AgentRow>(db, 'SELECT * FROM agents ORDER BY account')).map(rows.toAgent),
    putAgent: async (a) => {
      await db.query(
        `${insertInto('agents', rows.AGENT_COLUMNS)}
         ON CONFLICT (account) DO UPDATE SET name = EXCLUDED.name, password_hash = EXCLUDED.password_hash, merchants = EXCLUDED.merchants`,
        rowValues(rows.agentRow(a), rows.AGENT_COLUMNS),
      );
    },
    removeAgent: (account) =>
      db.atomic(async (q) => {
        await q.query('DELETE FROM agent_tokens WHERE account = $1', [account]); // a removed agent's desks are logged out
        return (await changedRows(q, 'DELETE FROM agents WHERE account = $1', [account])) === 1;
      }),
    putAgentToken: async (tokenHash, account, now, expiresAt) => {
      await db.atomic(async (q) => {
        await q.query('DELETE FROM agent_tokens WHERE expires_at <= $1', [now]);
        await q.query('INSERT INTO agent_tokens (token_hash, account, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
          tokenHash,
          account,
          now,
          expiresAt,
        ]);
      });
    },
    useAgentToken: async (tokenHash, now, expiresAt) =>
      (
        await firstRow<{ account: string }>(
          db,
          'UPDATE agent_tokens SET expires_at = $1 WHERE token_hash = $2 AND expires_at > $3 RETURNING account',
          [expiresAt, tokenHash, now],
        )
      )?.account,
    revokeAgentToken: async (tokenHash) => (await changedRows(db, 'DELETE FROM agent_tokens WHERE token_hash = $1', [tokenHash])) === 1,
    revokeAgentTokensOf: (account) => changedRows(db, 'DELETE FROM agent_tokens WHERE account = $1', [account]),
  };
}
