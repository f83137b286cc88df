/**
 * Agent presence beyond the sockets: an agent whose last socket closed (a network drop, a reload,
 * a closed laptop) keeps its visitors for a grace period (`AGENT_GRACE_MS`, default 60 s). If it
 * is back in time nothing happened; otherwise, or at once when it logs out (type 312), its
 * visitors are told that it left and may queue for another agent or leave a message.
 * @module
 */

/** What presence acts on. */
export interface PresenceDeps {
  /** Whether the agent has an open socket (on this node). */
  isOnline(agentId: string): Promise<boolean>;
  /** The agent is gone for good: release its visitors. */
  gone(agentId: string): Promise<unknown>;
  /** Reports an unexpected error (never thrown). */
  onError(error: unknown): void;
}

/** Tracks agents within their grace period. */
export class AgentPresence {
  private readonly leaving = new Map<string, ReturnType<typeof setTimeout>>();
  private disposed = false;

  /**
   * @param graceMs - how long a vanished agent keeps its visitors
   * @param deps - what to ask and do
   */
  constructor(
    private readonly graceMs: number,
    private readonly deps: PresenceDeps,
  ) {}

  /** An agent's socket was accepted: a pending departure is called off. */
  came(agentId: string): void {
    const timer = this.leaving.get(agentId);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.leaving.delete(agentId);
  }

  /** An agent's socket closed: with no other socket left, its grace period starts. */
  went(agentId: string): void {
    if (this.disposed || this.leaving.has(agentId)) return;
    const timer = setTimeout(() => {
      this.leaving.delete(agentId);
      this.deps.isOnline(agentId).then((online) => {
        if (!online && !this.disposed) this.release(agentId);
      }, this.deps.onError);
    }, this.graceMs);
    timer.unref?.();
    this.leaving.set(agentId, timer);
  }

  /** The agent logged out: its visitors are released at once, whatever sockets remain. */
  loggedOut(agentId: string): void {
    this.came(agentId);
    this.release(agentId);
  }

  /** Whether the agent is within its grace period. */
  isLeaving(agentId: string): boolean {
    return this.leaving.has(agentId);
  }

  /** Stops every timer (server shutdown); nobody is released. */
  dispose(): void {
    this.disposed = true;
    for (const timer of this.leaving.values()) clearTimeout(timer);
    this.leaving.clear();
  }

  private release(agentId: string): void {
    this.deps.gone(agentId).catch(this.deps.onError);
  }
}
