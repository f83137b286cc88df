/**
 * Automatic routing of queued visitors to agents (desk issue "the desk runs a real support team").
 *
 * The rule lives in one pure function, {@link nextAgent}: of the available agents under their
 * capacity, the one with the fewest open conversations; ties go to the longest idle (the oldest
 * last assignment; never assigned counts as idle longest), then to the account name so the
 * answer never depends on order. {@link RoutingPolicy} applies it whenever something changes
 * (a visitor queues, an agent becomes available, a conversation ends or is transferred) and
 * claims the head of the queue through the store, which makes a claim exactly-once across the
 * nodes of a cluster and never lets an agent go over its capacity.
 * @module
 */

/** What routing knows about one agent. */
export interface RoutingCandidate {
  /** The agent's user id. */
  agentId: string;
  /** `available` agents get new visitors; `away` agents keep their current ones and get none. */
  status: AgentStatus;
  /** The most conversations the agent serves at once. */
  capacity: number;
  /** Conversations it serves now. */
  open: number;
  /** When it was last given a conversation (ms), or null when never. */
  lastAssignedAt: number | null;
}

/** An agent's own status. */
export type AgentStatus = 'available' | 'away';

/** The statuses an agent may set (wire type 313, docs/protocol.md). */
export const AGENT_STATUSES: readonly AgentStatus[] = ['available', 'away'];

/** Whether a value is an {@link AgentStatus}. */
export function isAgentStatus(value: unknown): value is AgentStatus {
  return value === 'available' || value === 'away';
}

/**
 * The agent that gets the next visitor, or undefined when nobody can take one: away agents and
 * agents at capacity are skipped; fewest open first, then longest idle, then account name.
 */
export function nextAgent(candidates: readonly RoutingCandidate[]): RoutingCandidate | undefined {
  let best: RoutingCandidate | undefined;
  for (const candidate of candidates) {
    if (candidate.status !== 'available' || candidate.open >= candidate.capacity) continue;
    if (best === undefined || ranksBefore(candidate, best)) best = candidate;
  }
  return best;
}

/** Whether `a` gets a visitor before `b` (both eligible). */
function ranksBefore(a: RoutingCandidate, b: RoutingCandidate): boolean {
  if (a.open !== b.open) return a.open < b.open;
  const idleA = a.lastAssignedAt ?? -Infinity;
  const idleB = b.lastAssignedAt ?? -Infinity;
  if (idleA !== idleB) return idleA < idleB;
  return a.agentId < b.agentId;
}
