/**
 * What the chat services share: storage, connections, the message clock, configuration, and the
 * helpers that store a server-made message and push it.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { AgentDirectory } from '../agents/directory.js';
import type { AgentAccount, ServerConfig } from '../config.js';
import type { GroupAliaser } from '../identity/group-alias.js';
import type { MessageRecord, Store } from '../store/types.js';
import type { MessageClock } from './clock.js';
import type { Hub, Peer } from './hub.js';
import { textsFor } from './texts.js';
import { T, toWire, type WireMessage } from './wire.js';

/** The shared state of the chat services. */
export interface ChatContext {
  /** Storage. */
  readonly store: Store;
  /** Open connections. */
  readonly hub: Hub;
  /** Acceptance times. */
  readonly clock: MessageClock;
  /** Configuration. */
  readonly config: ServerConfig;
  /** Agent accounts (`AGENTS` and the store). */
  readonly agents: AgentDirectory;
  /** What a group member's client id looks like to another reader (protocol §3a). */
  readonly groupAlias: GroupAliaser;
}

/** A visitor in one merchant's conversation. */
export interface VisitorRef {
  /** Client id. */
  clientId: string;
  /** Display name. */
  name: string;
  /** Avatar. */
  avatar: string;
  /** Merchant. */
  mchId: string;
  /** Platform. */
  platformId: string;
  /** Language. */
  language: string;
}

/** The id of the robot as a message sender. */
export const ROBOT_ID = 'robot';
/** The id of the server as the sender of session events and refusals. */
export const SYSTEM_ID = 'system';

function svgAvatar(letter: string, colour: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="32" fill="${colour}"/><text x="32" y="42" font-size="28" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The default service avatar (a data: URL), used when a merchant has none. */
export const DEFAULT_KEFU_AVATAR = svgAvatar('K', '#1677ff');
/** The default avatar of agents. */
export const DEFAULT_AGENT_AVATAR = svgAvatar('A', '#13a05f');
/** The default avatar of visitors. */
export const DEFAULT_VISITOR_AVATAR = svgAvatar('V', '#8c8c8c');

/**
 * The name of a visitor who gave none: its id's first four characters after "访客" (a zh visitor)
 * or "Visitor " (any other). The reference app's desk shows it in the desk's language (`visitorLabel`).
 * @param id - the visitor's client id
 * @param language - the visitor's language
 */
export function defaultVisitorName(id: string, language: string): string {
  return `${language.startsWith('zh') ? '访客' : 'Visitor '}${id.slice(0, 4)}`;
}

/** A visitor view of a peer. */
export function visitorOf(peer: Peer): VisitorRef {
  return {
    clientId: peer.userId,
    name: peer.name,
    avatar: peer.avatar,
    mchId: peer.mchId,
    platformId: peer.platformId,
    language: peer.language,
  };
}

/** The agent user id of an account. */
export function agentUserId(account: string): string {
  return `agent:${account}`;
}

/** The configured agent behind a user id, if any. */
export function agentByUserId(ctx: ChatContext, userId: string): Promise<AgentAccount | undefined> {
  return ctx.agents.byUserId(userId);
}

/**
 * How a session event names an agent (`agent` of `agent-joined`, `agent-left`, `state`): its user
 * id, its display name (the id when no agent is behind it) and the agents' avatar.
 */
export async function agentCard(ctx: ChatContext, agentId: string): Promise<{ id: string; name: string; avatar: string }> {
  const agent = await agentByUserId(ctx, agentId);
  return { id: agentId, name: agent?.name ?? agentId, avatar: DEFAULT_AGENT_AVATAR };
}

/** The merchants the agent behind a user id works for (none for anybody else). */
export function agentMerchants(ctx: ChatContext, userId: string): Promise<readonly string[]> {
  return ctx.agents.merchantsOf(userId);
}

/** The agents online (on any node) who work for `mchId`. */
export async function merchantAgentsOnline(ctx: ChatContext, mchId: string): Promise<string[]> {
  const out: string[] = [];
  for (const agentId of await ctx.hub.onlineAgents()) if ((await ctx.agents.merchantsOf(agentId)).includes(mchId)) out.push(agentId);
  return out;
}

/**
 * How many agents of the merchant are online (in the cluster) and available: an agent who set
 * `away` (type 313) takes nobody new.
 */
export async function availableAgents(ctx: ChatContext, mchId: string): Promise<number> {
  const online = await merchantAgentsOnline(ctx, mchId);
  return (await ctx.store.chat.agentRouting(online)).filter((agent) => agent.status === 'available').length;
}

/** The robot's name and avatar for a merchant. */
export async function robotIdentity(ctx: ChatContext, mchId: string, language: string): Promise<{ name: string; avatar: string }> {
  const merchant = await ctx.store.directory.merchant(mchId);
  const name = `${merchant?.name ?? ''} ${textsFor(language).robotName}`.trim();
  return { name, avatar: merchant?.kefuAvatar2 || DEFAULT_KEFU_AVATAR };
}

/** Sends a type-500 refusal naming the refused `fp` (protocol §4). */
export function refuse(peer: Peer, reason: string, fp: string): void {
  peer.send({
    type: T.Refusal,
    from: SYSTEM_ID,
    to: peer.userId,
    fp: randomUUID(),
    createTime: Date.now(),
    dataContent: JSON.stringify({ reason, fp }),
  });
}

/** Options of {@link pushToVisitor}. */
export interface PushOptions {
  /** Who else gets the message (e.g. the serving agent). */
  alsoTo?: readonly string[];
  /** The text's key, for a text clients may show in their own language (see `TEXT_KEYS`). */
  textKey?: string;
}

/**
 * Stores a server-made message to a visitor (robot text, suggestions, session events) and pushes
 * it to the visitor's connections and to `alsoTo`.
 */
export async function pushToVisitor(
  ctx: ChatContext,
  visitor: VisitorRef,
  sessionId: string | null,
  type: number,
  dataContent: string,
  { alsoTo = [], textKey }: PushOptions = {},
): Promise<MessageRecord> {
  const robot = type === T.RobotText || type === T.Suggestions;
  const sender = robot ? await robotIdentity(ctx, visitor.mchId, visitor.language) : { name: '', avatar: '' };
  const record: MessageRecord = {
    fp: randomUUID(),
    type,
    from: robot ? ROBOT_ID : SYSTEM_ID,
    to: visitor.clientId,
    fn: sender.name,
    tn: visitor.name,
    fa: sender.avatar,
    ta: visitor.avatar,
    mchId: visitor.mchId,
    platformId: visitor.platformId,
    clientId: visitor.clientId,
    groupId: null,
    sessionId,
    dataContent,
    isRead: 0,
    robot: robot ? 1 : 0,
    isGroup: 0,
    createTime: ctx.clock.next(),
    cm: null,
    ...(textKey === undefined ? {} : { textKey }),
  };
  await ctx.store.chat.insertMessage(record);
  const wire = toWire(record);
  ctx.hub.sendTo(visitor.clientId, wire);
  for (const userId of alsoTo) ctx.hub.sendTo(userId, wire);
  return record;
}

/** The acknowledgement of an accepted message: the stored message, back to the sender (protocol §4). */
export function ackOf(record: MessageRecord): WireMessage {
  return toWire(record);
}
