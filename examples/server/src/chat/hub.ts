/**
 * The registry of open connections: who is online, and delivery to every connection of a user.
 * Alone, a node knows only its own sockets; with a {@link ClusterLink} (Redis, in a cluster) a
 * delivery also reaches the user's sockets on the other nodes and "who is online" is the cluster's.
 * @module
 */

import type { WireMessage } from './wire.js';

/** Who a connection belongs to. */
export type Role = 'visitor' | 'agent';

/** One accepted socket connection, as the chat layer sees it. */
export interface Peer {
  /** The user id: the visitor's client id, or `agent:<account>`. */
  readonly userId: string;
  /** The connect's `u` (equal to {@link Peer.userId} for visitors; an agent's may differ). */
  readonly connectId?: string;
  /** Visitor or agent. */
  readonly role: Role;
  /** Display name. */
  readonly name: string;
  /** Avatar URL. */
  readonly avatar: string;
  /** The visitor's merchant and platform (empty for agents). */
  readonly mchId: string;
  /** See {@link Peer.mchId}. */
  readonly platformId: string;
  /** The visitor's language: from the connect data, then from its changes (type 106). */
  language: string;
  /** The key session (`t`, its salt key) the connection was accepted on. */
  readonly saltKey: string;
  /** An agent's session token of this connection (revoked by its logout), if any. */
  readonly agentToken?: string;
  /** Sends a message (encoded for this connection); never throws. */
  send(message: WireMessage): void;
  /** Closes the connection. */
  close(code: number, reason: string): void;
}

/** What connects one node's {@link Hub} to the other nodes of a cluster. */
export interface ClusterLink {
  /** Hands a delivery to the other nodes (fire and forget, in call order). */
  publish(userId: string, message: WireMessage): void;
  /** Asks the other nodes to close every socket of `userId` (fire and forget). */
  publishClose(userId: string, code: number, reason: string): void;
  /** An agent has its first socket on this node now. */
  agentArrived(userId: string): void;
  /** An agent's last socket on this node closed. */
  agentLeft(userId: string): void;
  /** The agents online on any live node. */
  onlineAgents(): Promise<string[]>;
}

/** Tracks connections per user. */
export class Hub {
  private readonly byUser = new Map<string, Set<Peer>>();
  private link: ClusterLink | null = null;

  /** Whether the hub is joined to a cluster (see {@link Hub.connect}). */
  get clustered(): boolean {
    return this.link !== null;
  }

  /** Joins the hub to a cluster: deliveries and agent presence go through `link` too. */
  connect(link: ClusterLink): void {
    this.link = link;
    for (const userId of this.localAgents()) link.agentArrived(userId);
  }

  /** Registers a connection. */
  add(peer: Peer): void {
    let set = this.byUser.get(peer.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(peer.userId, set);
      if (peer.role === 'agent') this.link?.agentArrived(peer.userId);
    }
    set.add(peer);
  }

  /** Forgets a connection. */
  remove(peer: Peer): void {
    const set = this.byUser.get(peer.userId);
    if (!set) return;
    if (!set.delete(peer)) return;
    if (set.size === 0) {
      this.byUser.delete(peer.userId);
      if (peer.role === 'agent') this.link?.agentLeft(peer.userId);
    }
  }

  /**
   * Sends to every connection of `userId` in the cluster, except `skip`; returns how many of
   * this node's connections got it.
   */
  sendTo(userId: string, message: WireMessage, skip?: Peer): number {
    this.link?.publish(userId, message);
    return this.deliverHere(userId, message, skip);
  }

  /** Sends to `userId`'s connections on this node only (a delivery that came from another node). */
  deliverHere(userId: string, message: WireMessage, skip?: Peer): number {
    const set = this.byUser.get(userId);
    if (!set) return 0;
    let count = 0;
    for (const peer of set) {
      if (peer === skip) continue;
      peer.send(message);
      count += 1;
    }
    return count;
  }

  /**
   * Closes every connection of `userId` in the cluster with `code` and `reason` (a deleted
   * visitor); returns how many of this node's connections were closed.
   */
  disconnect(userId: string, code: number, reason: string): number {
    this.link?.publishClose(userId, code, reason);
    return this.closeHere(userId, code, reason);
  }

  /** Closes `userId`'s connections on this node only (a close asked for by another node). */
  closeHere(userId: string, code: number, reason: string): number {
    const set = this.byUser.get(userId);
    if (!set) return 0;
    const peers = [...set];
    for (const peer of peers) peer.close(code, reason);
    return peers.length;
  }

  /** How many connections `userId` has open on this node. */
  connectionsOf(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** Whether `userId` has an open connection on this node. */
  isHere(userId: string): boolean {
    return this.byUser.has(userId);
  }

  /** Whether agent `userId` has an open connection on any node. */
  async isAgentOnline(userId: string): Promise<boolean> {
    if (this.byUser.has(userId)) return true;
    return this.link ? (await this.link.onlineAgents()).includes(userId) : false;
  }

  /** The user ids of the agents online on any node. */
  async onlineAgents(): Promise<string[]> {
    if (!this.link) return this.localAgents();
    return [...new Set([...this.localAgents(), ...(await this.link.onlineAgents())])];
  }

  /** The user ids of the agents with a connection on this node. */
  localAgents(): string[] {
    const out: string[] = [];
    for (const [userId, set] of this.byUser) {
      const first = set.values().next().value;
      if (first?.role === 'agent') out.push(userId);
    }
    return out;
  }

  /** Every open connection. */
  all(): Peer[] {
    const out: Peer[] = [];
    for (const set of this.byUser.values()) out.push(...set);
    return out;
  }

  /** How many connections are open. */
  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }
}
