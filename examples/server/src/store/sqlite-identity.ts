/**
 * {@link IdentityRepo} on better-sqlite3: visitor secret hashes, key-session bindings, agents
 * kept in the store, and per-identity upload usage.
 * @module
 */

import type Database from 'better-sqlite3';
import { mapRow } from './rows.js';
import * as rows from './rows-records.js';
import { insertInto } from './sqlite-params.js';
import type { IdentityRepo } from './types.js';

/**
 * Creates the identity repository.
 * @internal
 */
export function sqliteIdentityRepo(db: Database.Database): IdentityRepo {
  const q = {
    secretHash: db.prepare<[string], { secret_hash: string | null }>('SELECT secret_hash FROM visitors WHERE client_id = ?'),
    claim: db.prepare<[string, string]>('UPDATE visitors SET secret_hash = ? WHERE client_id = ? AND secret_hash IS NULL'),
    bind: db.prepare<[string, string, string]>(
      'UPDATE key_sessions SET bound_to = ? WHERE salt_key = ? AND (bound_to IS NULL OR bound_to = ?)',
    ),
    assigned: db.prepare<[string, string, string], { one: number }>(
      'SELECT 1 AS one FROM sessions WHERE agent_id = ? AND client_id = ? AND mch_id IN (SELECT value FROM json_each(?)) LIMIT 1',
    ),
    usage: db.prepare<[string, string], { bytes: number }>('SELECT bytes FROM upload_usage WHERE identity = ? AND day = ?'),
    addUsage: db.prepare<[string, string, number]>(
      `INSERT INTO upload_usage (identity, day, bytes) VALUES (?, ?, ?)
       ON CONFLICT (identity, day) DO UPDATE SET bytes = MAX(0, bytes + excluded.bytes)`,
    ),
    // a refund with nothing charged that day inserts a negative row: usage is never below 0
    clampUsage: db.prepare<[string, string]>(
      'UPDATE upload_usage SET bytes = 0 WHERE identity = ? AND day = ? AND bytes < 0',
    ),
    pruneUsage: db.prepare<[string]>('DELETE FROM upload_usage WHERE day < ?'),
    agent: db.prepare<[string], rows.AgentRow>('SELECT * FROM agents WHERE account = ?'),
    agents: db.prepare<[], rows.AgentRow>('SELECT * FROM agents ORDER BY account'),
    putAgent: db.prepare<rows.AgentRow>(
      `${insertInto('agents', rows.AGENT_COLUMNS)}
       ON CONFLICT (account) DO UPDATE SET name = excluded.name, password_hash = excluded.password_hash, merchants = excluded.merchants`,
    ),
    removeAgent: db.prepare<[string]>('DELETE FROM agents WHERE account = ?'),
    putToken: db.prepare<[string, string, number, number]>('INSERT INTO agent_tokens (token_hash, account, created_at, expires_at) VALUES (?, ?, ?, ?)'),
    pruneTokens: db.prepare<[number]>('DELETE FROM agent_tokens WHERE expires_at <= ?'),
    useToken: db.prepare<[number, string, number], { account: string }>(
      'UPDATE agent_tokens SET expires_at = ? WHERE token_hash = ? AND expires_at > ? RETURNING account',
    ),
    revokeToken: db.prepare<[string]>('DELETE FROM agent_tokens WHERE token_hash = ?'),
    revokeAccountTokens: db.prepare<[string]>('DELETE FROM agent_tokens WHERE account = ?'),
  };
  return {
    secretHash: (clientId) => q.secretHash.get(clientId)?.secret_hash ?? undefined,
    claim: (clientId, hash) => q.claim.run(hash, clientId).changes === 1,
    bindKeySession: (saltKey, identity) => q.bind.run(identity, saltKey, identity).changes === 1,
    assigned: (agentId, clientId, mchIds) => mchIds.length > 0 && q.assigned.get(agentId, clientId, JSON.stringify(mchIds)) !== undefined,
    uploadBytes: (identity, day) => q.usage.get(identity, day)?.bytes ?? 0,
    addUploadBytes: (identity, day, bytes) => {
      db.transaction(() => {
        q.addUsage.run(identity, day, Math.trunc(bytes));
        q.clampUsage.run(identity, day);
        q.pruneUsage.run(day); // only today's usage counts: older days are dropped
      })();
    },
    agent: (account) => mapRow(q.agent.get(account), rows.toAgent),
    agents: () => q.agents.all().map(rows.toAgent),
    putAgent: (a) => {
      q.putAgent.run(rows.agentRow(a));
    },
    removeAgent: (account) =>
      db.transaction(() => {
        q.revokeAccountTokens.run(account); // a removed agent's desks are logged out
        return q.removeAgent.run(account).changes === 1;
      })(),
    putAgentToken: (hash, account, now, expiresAt) => {
      db.transaction(() => {
        q.pruneTokens.run(now);
        q.putToken.run(hash, account, now, expiresAt);
      })();
    },
    useAgentToken: (hash, now, expiresAt) => q.useToken.get(expiresAt, hash, now)?.account,
    revokeAgentToken: (hash) => q.revokeToken.run(hash).changes === 1,
    revokeAgentTokensOf: (account) => q.revokeAccountTokens.run(account).changes,
  };
}
