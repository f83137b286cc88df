/**
 * The agents' own controls (desk issue "the desk runs a real support team"): type 313 sets the
 * agent's status (`available` / `away`, stored, so it survives a reconnect), type 314 transfers a
 * conversation to another available agent of its merchant with room for it (with a note only the
 * agents see). The 310 snapshot's
 * `agents` list (status, load, capacity of every online agent) comes from here too, so a desk can
 * offer transfer targets. See docs/protocol.md §6.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { capacityOf } from '../routing-config.js';
import { isAgentStatus } from '../services/routing.js';
import { agentByUserId, agentMerchants, DEFAULT_AGENT_AVATAR, pushToVisitor, refuse, type ChatContext } from './context.js';
import type { Peer } from './hub.js';
import type { Sessions } from './sessions.js';
import { T } from './wire.js';

/** One online agent in a 310 snapshot (docs/protocol.md `AgentEntry`). */
export interface AgentEntry {
  /** User id (`agent:<account>`). */
  id: string;
  /** Display name. */
  name: string;
  /** `available` or `away`. */
  status: 'available' | 'away';
  /** Conversations it serves now. */
  open: number;
  /** The most it serves at once. */
  capacity: number;
  /** The merchants it works for (a desk offers transfers within the conversation's merchant). */
  merchants: readonly string[];
}

/** Why a transfer (type 314) to an agent is refused besides `not-allowed` and `bad-frame` (type 500 reasons). */
export type TransferRefusal = 'agent-offline' | 'agent-away' | 'at-capacity';

/** The longest transfer note kept (characters). */
export const MAX_TRANSFER_NOTE = 500;

/** A frame's JSON `dataContent` as an object, or undefined. */
function contentOf(frame: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  if (typeof frame.dataContent !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(frame.dataContent);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Handles types 313 and 314 and builds the snapshot's agent list. */
export class DeskControls {
  constructor(
    private readonly ctx: ChatContext,
    private readonly sessions: Sessions,
  ) {}

  /** The online agents with their status and load (the 310 snapshot's `agents`). */
  async roster(online: readonly string[]): Promise<AgentEntry[]> {
    const states = await this.ctx.store.chat.agentRouting(online);
    const out: AgentEntry[] = [];
    for (const s of states) {
      const agent = await agentByUserId(this.ctx, s.agentId);
      const capacity = s.capacity ?? capacityOf(this.ctx.config.routing, s.agentId);
      out.push({ id: s.agentId, name: agent?.name ?? s.agentId, status: s.status, open: s.open, capacity, merchants: agent?.merchants ?? [] });
    }
    return out;
  }

  /** Type 313 `{ status }`: stored; visitors hear whether an agent is available; becoming available may bring the next visitor. */
  async setStatus(peer: Peer, frame: Readonly<Record<string, unknown>>): Promise<void> {
    const fp = typeof frame.fp === 'string' ? frame.fp : '';
    const status = contentOf(frame)?.['status'];
    if (peer.role !== 'agent') return refuse(peer, 'not-allowed', fp);
    if (!isAgentStatus(status)) return refuse(peer, 'bad-frame', fp);
    await this.ctx.store.chat.setAgentStatus(peer.userId, status);
    // the visitors' availability (agents available) and the snapshots follow; available may route
    this.sessions.agentsChanged();
  }

  /**
   * Type 314 `{ clientId, to, note? }`: the agent's active conversation with `clientId` moves to
   * the agent `to` of the conversation's merchant, when `to` is online, available and under its
   * capacity (else refused `agent-offline`, `agent-away` or `at-capacity`; anything else, another
   * merchant's agent included, `not-allowed`). The visitor hears
   * `agent-joined` with the new agent (stored, so the history shows it), the new agent gets the
   * note live (`event: 'transferred'`), the old agent hears whom it went to (`event:
   * 'transferred-away'`, live) and loses the conversation (its snapshot no longer lists it).
   */
  async transfer(peer: Peer, frame: Readonly<Record<string, unknown>>): Promise<void> {
    const fp = typeof frame.fp === 'string' ? frame.fp : '';
    const content = contentOf(frame);
    const clientId = content?.['clientId'];
    const to = content?.['to'];
    const note = content?.['note'];
    if (peer.role !== 'agent') return refuse(peer, 'not-allowed', fp);
    if (typeof clientId !== 'string' || typeof to !== 'string' || (note !== undefined && typeof note !== 'string')) return refuse(peer, 'bad-frame', fp);
    const session = await this.ctx.store.chat.activeSessionWith(peer.userId, clientId);
    const target = to === peer.userId ? undefined : await agentByUserId(this.ctx, to);
    // within the conversation's merchant only: the sender's, and the target's too
    const ours = session !== undefined && (await agentMerchants(this.ctx, peer.userId)).includes(session.mchId);
    if (!session || !ours || !target?.merchants.includes(session.mchId)) return refuse(peer, 'not-allowed', fp);
    const room = await this.room(to);
    if (room.refusal !== null) return refuse(peer, room.refusal, fp);
    const moved = await this.ctx.store.chat.reassign(session.sessionId, peer.userId, to, Date.now(), room.capacity);
    if (!moved) {
      // still ours: the other agent filled up meanwhile (a routing claim or another transfer)
      const still = (await this.ctx.store.chat.activeSessions(peer.userId)).some((s) => s.sessionId === session.sessionId);
      return refuse(peer, still ? 'at-capacity' : 'not-allowed', fp);
    }
    const from = await agentByUserId(this.ctx, peer.userId);
    const visitor = await this.sessions.visitorOfSession(moved);
    const joined = { event: 'agent-joined', sessionId: moved.sessionId, transferred: true, agent: { id: to, name: target.name, avatar: DEFAULT_AGENT_AVATAR } };
    await pushToVisitor(this.ctx, visitor, moved.sessionId, T.SessionEvent, JSON.stringify(joined), { alsoTo: [to] });
    const transferred = {
      event: 'transferred',
      sessionId: moved.sessionId,
      clientId,
      from: { id: peer.userId, name: from?.name ?? peer.userId },
      ...(typeof note === 'string' && note.trim() !== '' ? { note: note.trim().slice(0, MAX_TRANSFER_NOTE) } : {}),
    };
    this.tellAgent(to, transferred);
    this.tellAgent(peer.userId, { event: 'transferred-away', sessionId: moved.sessionId, clientId, to: { id: to, name: target.name } });
    this.sessions.broadcastSnapshots();
    this.sessions.onRoutingChange();
  }

  /** A live session event (type 300, not stored) to every socket of an agent. */
  private tellAgent(agentId: string, content: Record<string, unknown>): void {
    this.ctx.hub.sendTo(agentId, { type: T.SessionEvent, from: 'system', to: agentId, fp: randomUUID(), createTime: Date.now(), dataContent: JSON.stringify(content) });
  }

  /** Whether a transfer target can take a conversation now (why not, if it cannot), and its capacity. */
  private async room(agentId: string): Promise<{ refusal: TransferRefusal | null; capacity: number }> {
    const [state] = await this.ctx.store.chat.agentRouting([agentId]);
    const capacity = state?.capacity ?? capacityOf(this.ctx.config.routing, agentId);
    if (!(await this.ctx.hub.isAgentOnline(agentId))) return { refusal: 'agent-offline', capacity };
    if (state?.status !== 'available') return { refusal: 'agent-away', capacity };
    return { refusal: state.open >= capacity ? 'at-capacity' : null, capacity };
  }
}
