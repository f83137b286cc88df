/**
 * The agents' type 310 snapshot (docs/protocol.md §6): the queue (the same for every agent), the
 * agent's own open conversations, its ended ones it has not closed yet (a reloaded desk shows them
 * again), how many agents are online and their status and load.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { ServiceSession } from '../store/types.js';
import type { ChatContext } from './context.js';
import { T, type WireMessage } from './wire.js';

/** One queue entry of a 310 snapshot (docs/protocol.md `QueueEntry`). */
export interface QueueRow {
  clientId: string;
  name: string;
  mchId: string;
  platformId: string;
  since: number;
  position: number;
}

/** The most ended conversations a snapshot lists (the newest; older ones drop off the desk). */
export const MAX_DESK_ENDED = 50;

/** The part of a snapshot that is the same for every agent (built once per change). */
export interface SharedSnapshot {
  /** The queue. */
  queue: QueueRow[];
  /** How many agents are online. */
  online: number;
  /** The online agents' status and load (docs/protocol.md `AgentEntry`). */
  agents: unknown[];
}

/** The display names of visitors (one read), by client id. */
async function visitorNames(ctx: ChatContext, clientIds: readonly string[]): Promise<Map<string, string>> {
  const visitors = await ctx.store.chat.visitors([...new Set(clientIds)]);
  return new Map(visitors.map((v) => [v.clientId, v.name]));
}

/** The queue part of the 310 snapshots. */
export async function queueEntries(ctx: ChatContext): Promise<QueueRow[]> {
  const queue = await ctx.store.chat.queue();
  const names = await visitorNames(ctx, queue.map((s) => s.clientId));
  return queue.map((s, i) => ({
    clientId: s.clientId,
    name: names.get(s.clientId) ?? s.clientId,
    mchId: s.mchId,
    platformId: s.platformId,
    since: s.queuedAt ?? s.createdAt,
    position: i + 1,
  }));
}

/** The 310 snapshot for one agent, over the shared part. */
export async function agentSnapshot(ctx: ChatContext, agentId: string, shared: SharedSnapshot): Promise<WireMessage> {
  const active = await ctx.store.chat.activeSessions(agentId);
  const unclosed = await ctx.store.desk.deskEnded(agentId, MAX_DESK_ENDED);
  const names = await visitorNames(ctx, [...active, ...unclosed].map((s) => s.clientId));
  const entry = (s: ServiceSession) => ({
    sessionId: s.sessionId,
    clientId: s.clientId,
    name: names.get(s.clientId) ?? s.clientId,
    mchId: s.mchId,
    platformId: s.platformId,
    since: s.acceptedAt ?? s.createdAt,
  });
  const sessions = active.map(entry);
  const ended = unclosed.map((s) => ({ ...entry(s), endedAt: s.endedAt ?? s.createdAt, endedBy: s.endedBy ?? null, score: s.score, remark: s.remark }));
  const { queue, online, agents } = shared;
  return { type: T.AgentQueue, from: 'system', to: agentId, fp: randomUUID(), createTime: Date.now(), dataContent: JSON.stringify({ queue, sessions, ended, online, agents }) };
}
