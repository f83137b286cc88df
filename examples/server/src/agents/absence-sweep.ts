/**
 * Agents who serve visitors but are online nowhere, whatever the reason: the node holding their
 * grace period died, the server restarted, or their last socket closed on a node that went down
 * before the grace ran out. Every sweep finds them in the store and starts their grace period
 * (`AGENT_GRACE_MS`) on one node of the cluster; when they are still away after it, their visitors
 * are released as after a logout (`Sessions.agentGone`).
 * @module
 */

import type { Hub } from '../chat/hub.js';
import type { Store } from '../store/types.js';
import type { AgentPresence } from './presence.js';

/** How often the sweep looks (ms). */
export const ABSENCE_SWEEP_MS = 15_000;

/** What the sweep needs. */
export interface AbsenceSweepDeps {
  /** Where active sessions are. */
  store: Store;
  /** Who is online (on any node). */
  hub: Hub;
  /** The grace periods of this node. */
  presence: AgentPresence;
  /** Takes a cluster-wide claim for `ttlMs` (one node runs each grace period); true when taken. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** The grace period (ms). */
  graceMs: number;
  /** Where a failed sweep is reported. */
  onError(error: unknown): void;
}

/** Finds absent serving agents now and every {@link ABSENCE_SWEEP_MS}. */
export class AbsenceSweep {
  private readonly timer: ReturnType<typeof setInterval>;
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: AbsenceSweepDeps,
    everyMs = ABSENCE_SWEEP_MS,
  ) {
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref?.();
  }

  /** Looks once (a sweep already running is joined); never rejects. */
  sweep(): Promise<void> {
    this.running ??= this.look()
      .catch(this.deps.onError)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Stops the sweeps (server shutdown). */
  dispose(): void {
    clearInterval(this.timer);
  }

  private async look(): Promise<void> {
    const { store, hub, presence, claim, graceMs } = this.deps;
    for (const agentId of await store.chat.servingAgents()) {
      if (presence.isLeaving(agentId) || hub.isHere(agentId)) continue;
      if (await hub.isAgentOnline(agentId)) continue;
      // one node of the cluster runs this agent's grace period
      if (!(await claim(`agent-away:${agentId}`, graceMs + ABSENCE_SWEEP_MS))) continue;
      presence.went(agentId);
    }
  }
}
