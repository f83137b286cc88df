/**
 * The registry of open connections: who is online, and delivery to every connection of a user.
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
  /** The visitor's language. */
  readonly language: string;
  /** The key session (`t`, its salt key) the connection was accepted on. */
  readonly saltKey: string;
  /** An agent's session token of this connection (revoked by its logout), if any. */
  readonly agentToken?: string;
  /** Sends a message (encoded for this connection); never throws. */
  send(message: WireMessage): void;
  /** Closes the connection. */
  close(code: number, reason: string): void;
}

/** Tracks connections per user. */
export class Hub {
  private readonly byUser = new Map<string, Set<Peer>>();

  /** Registers a connection. */
  add(peer: Peer): void {
    let set = this.byUser.get(peer.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(peer.userId, set);
    }
    set.add(peer);
  }

  /** Forgets a connection. */
  remove(peer: Peer): void {
    const set = this.byUser.get(peer.userId);
    if (!set) return;
    set.delete(peer);
    if (set.size === 0) this.byUser.delete(peer.userId);
  }

  /** Sends to every connection of `userId`, except `skip`; returns how many got it. */
  sendTo(userId: string, message: WireMessage, skip?: Peer): number {
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

  /** How many connections `userId` has open. */
  connectionsOf(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** Whether `userId` has an open connection. */
  isOnline(userId: string): boolean {
    return this.byUser.has(userId);
  }

  /** The user ids of the online agents. */
  onlineAgents(): string[] {
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
