/**
 * The routing methods of {@link ChatRepo} on better-sqlite3: agent status, load and the atomic
 * claim of the queue's head for an agent under its capacity. One process owns the database and
 * every claim is one transaction, so a visitor is assigned once and no agent goes over capacity.
 * @module
 */

import type Database from 'better-sqlite3';
import { mapRow } from './rows.js';
import * as rows from './rows-chat.js';
import type { AgentStatus, ChatRepo } from './types.js';

/** The routing methods of {@link ChatRepo}. */
export type RoutingMethods = Pick<ChatRepo, 'claimHeadFor' | 'agentRouting' | 'setAgentStatus' | 'setAgentCapacity' | 'reassign'>;

/** A row of the routing read. */
interface RoutingRow {
  agent_id: string;
  status: string | null;
  capacity: number | null;
  last_assigned_at: number | null;
  open: number;
}

/** The status stored, `available` when none (or an unknown one). */
export function statusOf(stored: string | null): AgentStatus {
  return stored === 'away' ? 'away' : 'available';
}

/**
 * Creates the routing methods over an open, migrated database.
 * @internal
 */
export function sqliteRoutingMethods(db: Database.Database): RoutingMethods {
  const q = {
    claimHead: db.prepare<[string, number, string, string, number], rows.SessionRow>(
      `UPDATE sessions SET state = 'active', agent_id = ?, accepted_at = ?
       WHERE session_id = (
           SELECT session_id FROM sessions WHERE state = 'queued' AND mch_id IN (SELECT value FROM json_each(?))
           ORDER BY queued_at ASC, rowid ASC LIMIT 1)
         AND state = 'queued'
         AND (SELECT COUNT(*) FROM sessions WHERE state = 'active' AND agent_id = ?) < ?
       RETURNING *`,
    ),
    stamp: db.prepare<[string, number]>(
      `INSERT INTO agent_routing (agent_id, last_assigned_at) VALUES (?, ?)
       ON CONFLICT (agent_id) DO UPDATE SET last_assigned_at = excluded.last_assigned_at`,
    ),
    routing: db.prepare<[string], RoutingRow>(
      `SELECT j.value AS agent_id, a.status, a.capacity, a.last_assigned_at,
         (SELECT COUNT(*) FROM sessions s WHERE s.state = 'active' AND s.agent_id = j.value) AS open
       FROM json_each(?) j LEFT JOIN agent_routing a ON a.agent_id = j.value ORDER BY j.key`,
    ),
    setStatus: db.prepare<[string, string]>(
      `INSERT INTO agent_routing (agent_id, status) VALUES (?, ?)
       ON CONFLICT (agent_id) DO UPDATE SET status = excluded.status`,
    ),
    setCapacity: db.prepare<[string, number | null]>(
      `INSERT INTO agent_routing (agent_id, capacity) VALUES (?, ?)
       ON CONFLICT (agent_id) DO UPDATE SET capacity = excluded.capacity`,
    ),
    reassign: db.prepare<[string, number, string, string, string, number], rows.SessionRow>(
      `UPDATE sessions SET agent_id = ?, accepted_at = ?
       WHERE session_id = ? AND state = 'active' AND agent_id = ?
         AND (SELECT COUNT(*) FROM sessions WHERE state = 'active' AND agent_id = ?) < ?
       RETURNING *`,
    ),
    recordTransfer: db.prepare<[string, string, string, number]>(
      `INSERT INTO session_transfers (session_id, from_agent, to_agent, transferred_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (session_id, from_agent) DO UPDATE SET to_agent = excluded.to_agent, transferred_at = excluded.transferred_at, closed_at = NULL`,
    ),
  };
  return {
    claimHeadFor: db.transaction((agentId: string, capacity: number, now: number, mchIds: readonly string[]) => {
      const claimed = q.claimHead.get(agentId, now, JSON.stringify(mchIds), agentId, capacity);
      if (claimed) q.stamp.run(agentId, now);
      return mapRow(claimed, rows.toSession);
    }),
    agentRouting: (agentIds) =>
      agentIds.length === 0
        ? []
        : q.routing.all(JSON.stringify([...new Set(agentIds)])).map((r) => ({
            agentId: r.agent_id,
            status: statusOf(r.status),
            open: r.open,
            capacity: r.capacity,
            lastAssignedAt: r.last_assigned_at,
          })),
    setAgentStatus: (agentId, status) => {
      q.setStatus.run(agentId, status);
    },
    setAgentCapacity: (agentId, capacity) => {
      q.setCapacity.run(agentId, capacity);
    },
    reassign: db.transaction((sessionId: string, fromAgentId: string, toAgentId: string, now: number, capacity: number) => {
      const moved = q.reassign.get(toAgentId, now, sessionId, fromAgentId, toAgentId, capacity);
      if (moved) q.recordTransfer.run(sessionId, fromAgentId, toAgentId, now);
      return mapRow(moved, rows.toSession);
    }),
  };
}
