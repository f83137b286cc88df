/**
 * The agents' queue snapshots (type 310): one agent's on demand, and every online agent's after a
 * change, coalesced so that a burst of changes makes one broadcast.
 * @module
 */

import type { ChatContext } from './context.js';
import { agentSnapshot, queueEntries, type RosterEntry, type SharedSnapshot } from './agent-snapshot.js';
import type { WireMessage } from './wire.js';

/** Queue snapshots (type 310) triggered within this many ms are sent once. */
export const SNAPSHOT_COALESCE_MS = 50;

/** Builds and sends the agents' 310 snapshots. */
export class SnapshotBroadcast {
  /** The pending coalesced broadcast. */
  private timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * @param ctx - the chat services' shared state
   * @param roster - the online agents' status and load (read at each snapshot)
   * @param onError - where a coalesced broadcast reports a failure
   */
  constructor(
    private readonly ctx: ChatContext,
    private readonly roster: (online: readonly string[]) => Promise<RosterEntry[]>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The 310 snapshot for one agent (`shared`: the part built once for this change). */
  async snapshotFor(agentId: string, shared?: SharedSnapshot): Promise<WireMessage> {
    if (shared) return agentSnapshot(this.ctx, agentId, shared);
    const online = await this.ctx.hub.onlineAgents();
    return agentSnapshot(this.ctx, agentId, { queue: await queueEntries(this.ctx), agents: await this.roster(online) });
  }

  /**
   * Sends every online agent its snapshot, at most once per {@link SNAPSHOT_COALESCE_MS}: changes
   * that come in a burst (many visitors queueing at once) make one snapshot, not one each.
   */
  schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sendAll().catch(this.onError);
    }, SNAPSHOT_COALESCE_MS);
  }

  /** Stops a pending broadcast (server shutdown). */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async sendAll(): Promise<void> {
    const agents = await this.ctx.hub.onlineAgents();
    if (agents.length === 0) return;
    // the queue is read once per change, not once per agent (load: N visitors x A agents)
    const built = { queue: await queueEntries(this.ctx), agents: await this.roster(agents) };
    for (const agentId of agents) this.ctx.hub.sendTo(agentId, await this.snapshotFor(agentId, built));
  }
}
