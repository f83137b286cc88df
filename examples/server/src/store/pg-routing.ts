/**
 * The routing methods of {@link ChatRepo} on PostgreSQL, with the same answers as
 * `sqlite-routing.ts`. A claim runs in a transaction that first takes a transaction-scoped
 * advisory lock on the agent (so two nodes cannot both see it under capacity) and then claims the
 * queue's head with `FOR UPDATE SKIP LOCKED` (so two nodes never claim the same visitor).
 * @module
 */

import { allRows, firstRow, type Queryable } from './pg-queryable.js';
import { mapRow } from './rows.js';
import * as rows from './rows-chat.js';
import { statusOf, type RoutingMethods } from './sqlite-routing.js';
import type { Async } from './types.js';

/** A row of the routing read. */
interface RoutingRow {
  agent_id: string;
  status: string | null;
  capacity: number | null;
  last_assigned_at: number | null;
  open: number;
}

/**
 * Creates the routing methods over a queryable (the pool, or a transaction's connection).
 * @internal
 */
export function pgRoutingMethods(db: Queryable): Async<RoutingMethods> {
  return {
    claimHeadFor: (agentId, capacity, now, mchIds) =>
      db.atomic(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext('kefu-route:' || $1))", [agentId]);
        const claimed = await firstRow<rows.SessionRow>(
          tx,
          `UPDATE sessions SET state = 'active', agent_id = $1, accepted_at = $2
           WHERE session_id = (
               SELECT session_id FROM sessions WHERE state = 'queued' AND mch_id = ANY($4::text[])
               ORDER BY queued_at ASC NULLS FIRST, row_order ASC LIMIT 1 FOR UPDATE SKIP LOCKED)
             AND state = 'queued'
             AND (SELECT COUNT(*) FROM sessions WHERE state = 'active' AND agent_id = $1) < $3
           RETURNING *`,
          [agentId, now, capacity, [...mchIds]],
        );
        if (claimed) {
          await tx.query(
            `INSERT INTO agent_routing (agent_id, last_assigned_at) VALUES ($1, $2)
             ON CONFLICT (agent_id) DO UPDATE SET last_assigned_at = excluded.last_assigned_at`,
            [agentId, now],
          );
        }
        return mapRow(claimed, rows.toSession);
      }),
    agentRouting: async (agentIds) =>
      agentIds.length === 0
        ? []
        : (
            await allRows<RoutingRow>(
              db,
              `SELECT j.agent_id, a.status, a.capacity, a.last_assigned_at,
                 (SELECT COUNT(*) FROM sessions s WHERE s.state = 'active' AND s.agent_id = j.agent_id) AS open
               FROM unnest($1::text[]) WITH ORDINALITY AS j(agent_id, n)
               LEFT JOIN agent_routing a ON a.agent_id = j.agent_id ORDER BY j.n`,
              [[...new Set(agentIds)]],
            )
          ).map((r) => ({ agentId: r.agent_id, status: statusOf(r.status), open: r.open, capacity: r.capacity, lastAssignedAt: r.last_assigned_at })),
    setAgentStatus: async (agentId, status) => {
      await db.query(
        `INSERT INTO agent_routing (agent_id, status) VALUES ($1, $2)
         ON CONFLICT (agent_id) DO UPDATE SET status = excluded.status`,
        [agentId, status],
      );
    },
    setAgentCapacity: async (agentId, capacity) => {
      await db.query(
        `INSERT INTO agent_routing (agent_id, capacity) VALUES ($1, $2)
         ON CONFLICT (agent_id) DO UPDATE SET capacity = excluded.capacity`,
        [agentId, capacity],
      );
    },
    reassign: (sessionId, fromAgentId, toAgentId, now, capacity) =>
      // the agent's routing lock, as for a claim: a transfer and a claim at once cannot both see room
      db.atomic(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext('kefu-route:' || $1))", [toAgentId]);
        const moved = await firstRow<rows.SessionRow>(
          tx,
          `UPDATE sessions SET agent_id = $1, accepted_at = $2
           WHERE session_id = $3 AND state = 'active' AND agent_id = $4
             AND (SELECT COUNT(*) FROM sessions WHERE state = 'active' AND agent_id = $1) < $5
           RETURNING *`,
          [toAgentId, now, sessionId, fromAgentId, capacity],
        );
        if (moved) {
          await tx.query(
            `INSERT INTO session_transfers (session_id, from_agent, to_agent, transferred_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (session_id, from_agent) DO UPDATE SET to_agent = EXCLUDED.to_agent, transferred_at = EXCLUDED.transferred_at, closed_at = NULL`,
            [sessionId, fromAgentId, toAgentId, now],
          );
        }
        return mapRow(moved, rows.toSession);
      }),
  };
}
