/**
 * Automatic routing of queued visitors to agents (desk issue "the desk runs a real support team").
 *
 * The rule lives in one pure function, {@link nextAgent}: of the available agents under their
 * capacity, the one with the fewest open conversations; ties go to the longest idle (the oldest
 * last assignment; never assigned counts as idle longest), then to the account name so the
 * answer never depends on order. {@link RoutingPolicy} applies it whenever something changes
 * (a visitor queues, an agent becomes available, a conversation ends or is transferred) and
 * claims, for the agent it picked, the oldest visitor queued with one of that agent's merchants
 * (an agent serves only its merchants) through the store, which makes a claim exactly-once across
 * the nodes of a cluster and never lets an agent go over its capacity.
 * @module
 */

import { capacityOf, type RoutingConfig } from '../routing-config.js';
import type { AgentStatus, Async, ChatRepo, ServiceSession } from '../store/types.js';

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
  /** The merchants whose visitors it serves. */
  merchants: readonly string[];
}

export type { AgentStatus };

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

/** What {@link RoutingPolicy} works with. */
export interface RoutingDeps {
  /** The store's routing reads and the atomic claim. */
  store: { chat: Pick<Async<ChatRepo>, 'agentRouting' | 'claimHeadFor' | 'queue'> };
  /** Agents online on any node. */
  onlineAgents(): Promise<string[]>;
  /** The merchants an agent works for. */
  merchantsOf(agentId: string): Promise<readonly string[]>;
  /** Routing settings. */
  config: RoutingConfig;
  /** An assigned session: the visitor and the agents are told (as after a manual accept). */
  assigned(session: ServiceSession): Promise<void>;
  /** Where a failed pass is reported (a trigger never throws). */
  onError(error: unknown): void;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Applies {@link nextAgent} whenever something changes: passes never overlap on one node (a
 * trigger during a pass runs one more pass after it), and each claim goes through the store.
 */
export class RoutingPolicy {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: RoutingDeps) {}

  /** Something changed (a visitor queued, an agent became available, a conversation ended). Never throws. */
  trigger(): void {
    if (!this.deps.config.autoAssign) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no pass is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.route();
      } catch (error) {
        this.deps.onError(error);
      }
    } while (this.again);
  }

  /**
   * One pass: assigns queued visitors while an agent can take one.
   * @returns how many were assigned
   */
  async route(): Promise<number> {
    const { store, config } = this.deps;
    const now = this.deps.now ?? Date.now;
    // only agents of a merchant somebody queues with are asked (an empty queue costs one read)
    const queued = new Set((await store.chat.queue()).map((s) => s.mchId));
    if (queued.size === 0) return 0;
    const online = await this.deps.onlineAgents();
    const candidates: RoutingCandidate[] = [];
    for (const r of await store.chat.agentRouting(online)) {
      const merchants = await this.deps.merchantsOf(r.agentId);
      if (merchants.some((m) => queued.has(m))) candidates.push({ ...r, capacity: r.capacity ?? capacityOf(config, r.agentId), merchants });
    }
    let assigned = 0;
    for (;;) {
      const agent = nextAgent(candidates);
      if (!agent) return assigned;
      const at = now();
      const session = await store.chat.claimHeadFor(agent.agentId, agent.capacity, at, agent.merchants);
      if (session) {
        agent.open += 1;
        agent.lastAssignedAt = at;
        assigned += 1;
        await this.deps.assigned(session);
        continue;
      }
      // nobody of its merchants queues, or it filled up on another node meanwhile: it takes nobody more in this pass
      agent.open = agent.capacity;
    }
  }
}
