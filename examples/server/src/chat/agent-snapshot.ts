/**
 * The agents' type 310 snapshot (docs/protocol.md §6), all of the agent's own merchants: their
 * queue (positions per merchant), the agent's open conversations, its ended ones and those it
 * transferred to another agent that it has not closed yet (a reloaded desk shows them again), and the online agents of those merchants with their
 * status and load (how many, and who may take a transfer).
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { ServiceSession } from '../store/types.js';
import { agentByUserId, agentMerchants, type ChatContext } from './context.js';
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

/** The most ended (and the most transferred) conversations a snapshot lists (the newest; older ones drop off the desk). */
export const MAX_DESK_ENDED = 50;

/** An online agent of the snapshot's `agents` (docs/protocol.md `AgentEntry`): listed to the agents of its merchants. */
export interface RosterEntry {
  /** User id (`agent:<account>`). */
  id: string;
  /** The merchants it works for. */
  merchants: readonly string[];
}

/** The part of a snapshot that is the same for every agent (built once per change; each agent gets its merchants' part). */
export interface SharedSnapshot {
  /** The queue of every merchant. */
  queue: QueueRow[];
  /** The online agents' status and load. */
  agents: RosterEntry[];
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
  const places = new Map<string, number>();
  return queue.map((s) => {
    const position = (places.get(s.mchId) ?? 0) + 1; // per merchant: only its agents serve it
    places.set(s.mchId, position);
    return { clientId: s.clientId, name: names.get(s.clientId) ?? s.clientId, mchId: s.mchId, platformId: s.platformId, since: s.queuedAt ?? s.createdAt, position };
  });
}

/** The 310 snapshot for one agent, over the shared part. */
export async function agentSnapshot(ctx: ChatContext, agentId: string, shared: SharedSnapshot): Promise<WireMessage> {
  const merchants = await agentMerchants(ctx, agentId);
  const ours = (s: { mchId: string }): boolean => merchants.includes(s.mchId);
  const active = (await ctx.store.chat.activeSessions(agentId)).filter(ours);
  const unclosed = (await ctx.store.desk.deskEnded(agentId, MAX_DESK_ENDED)).filter(ours);
  const handedOn = (await ctx.store.desk.deskTransferred(agentId, MAX_DESK_ENDED)).filter((t) => ours(t.session));
  const names = await visitorNames(ctx, [...active, ...unclosed, ...handedOn.map((t) => t.session)].map((s) => s.clientId));
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
  const transferred = await Promise.all(
    handedOn.map(async (t) => ({ ...entry(t.session), transferredAt: t.transferredAt, to: { id: t.toAgentId, name: (await agentByUserId(ctx, t.toAgentId))?.name ?? t.toAgentId } })),
  );
  const queue = shared.queue.filter(ours);
  const agents = shared.agents.filter((a) => a.merchants.some((m) => merchants.includes(m)));
  const content = { queue, sessions, ended, transferred, online: agents.length, agents, merchants };
  return { type: T.AgentQueue, from: 'system', to: agentId, fp: randomUUID(), createTime: Date.now(), dataContent: JSON.stringify(content) };
}
