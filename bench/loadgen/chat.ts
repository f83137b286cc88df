/**
 * Worker-side chat phase: this worker's agents log in, its visitors connect (each a new uuid) and
 * ask for a human (301); each agent accepts (311) the queued visitors this worker assigned to it;
 * then every chatting visitor sends texts at a fixed rate, each carrying its send time, and the
 * agent answers each one at once. Measured: visitor-to-agent delivery and the round trip
 * visitor -> agent -> visitor, both through the server (storage, AES-ECB, routing).
 * @module
 */

import { randomUUID } from 'node:crypto';
import { VirtualClient } from './client.js';
import { count, errorKind, type Counts } from './counts.js';
import type { Frame, ServerInfo, SocketKey } from './protocol.js';

/** What the chat phase needs. */
export interface ChatArgs {
  /** This worker's index (tags the message contents). */
  worker: number;
  /** Visitors of this worker. */
  visitors: number;
  /** Agent accounts of this worker. */
  agents: { account: string; password: string }[];
  /** Texts per visitor per second. */
  rate: number;
  /** Measurement window, ms. */
  windowMs: number;
  /** The longest ramp (connect, 301, accept), ms. */
  rampMs: number;
  /** Connects in flight at once. */
  concurrency: number;
}

/** What the chat phase measured. */
export interface ChatResult {
  /** Visitors connected. */
  connected: number;
  /** Visitors with an agent when the window opened. */
  chatting: number;
  /** Ramp wall time, ms. */
  rampMs: number;
  /** When the window opened and closed (epoch ms): the server's CPU of the window is read for it. */
  window: { from: number; to: number };
  /** Texts sent by visitors in the window. */
  sent: number;
  /** Of those, received by an agent (by the end of the drain). */
  delivered: number;
  /** Agent answers received by the visitors. */
  answered: number;
  /** Visitor send to the server's acknowledgement (its copy of the text, same `fp`) back on the visitor, ms. */
  ack: number[];
  /** Visitor send to agent receive, ms. */
  toAgent: number[];
  /** Visitor send to the agent's answer received, ms. */
  roundTrip: number[];
  /** Failures by kind. */
  errors: Counts;
  /** Refusals (type 500) by reason. */
  refusals: Counts;
}

const TEXT = 100;
const SESSION_EVENT = 300;
const TRANSFER = 301;
const SNAPSHOT = 310;
const ACCEPT = 311;
const REFUSAL = 500;
const CONNECT_TIMEOUT_MS = 15_000;

interface Visitor {
  client: VirtualClient;
  index: number;
  agent: number;
  chatting: boolean;
  seq: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function parse(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return undefined;
  }
}

/** Runs the whole chat phase in this worker and closes its clients. */
export async function runChat(info: ServerInfo, key: SocketKey, args: ChatArgs): Promise<ChatResult> {
  const result: ChatResult = { connected: 0, chatting: 0, rampMs: 0, window: { from: 0, to: 0 }, sent: 0, delivered: 0, answered: 0, ack: [], toAgent: [], roundTrip: [], errors: {}, refusals: {} };
  const tag = `lg${args.worker}`;
  const start = performance.now();
  const rampEnd = start + args.rampMs;
  const agents: VirtualClient[] = [];
  const visitors: Visitor[] = [];
  const byClientId = new Map<string, Visitor>();
  const requested = new Set<string>();
  const outstanding = new Map<string, number>();
  /** Send times of texts not acknowledged yet, by `fp`. */
  const unacked = new Map<string, number>();

  const onRefusal = (frame: Frame): void => {
    const reason = (parse(frame.dataContent) as { reason?: unknown } | undefined)?.reason;
    count(result.refusals, typeof reason === 'string' ? reason : 'unknown');
  };

  // agents first, so that the visitors' 301 finds them online
  await Promise.all(
    args.agents.map(async (account, index) => {
      const agent = new VirtualClient(info, key, { role: 'agent', account: account.account, password: account.password }, `desk-${randomUUID()}`);
      try {
        await agent.connect(CONNECT_TIMEOUT_MS);
        agents[index] = agent;
        agent.onFrame = (frame, receivedAt) => onAgentFrame(agent, index, frame, receivedAt);
        agent.onClose = (code) => count(result.errors, `agent closed ${code}`);
      } catch (error) {
        count(result.errors, `agent ${errorKind(error)}`);
      }
    }),
  );
  if (agents.filter(Boolean).length === 0) throw new Error(`no agent could log in (${Object.keys(result.errors).join('; ')})`);

  function onAgentFrame(agent: VirtualClient, index: number, frame: Frame, receivedAt: number): void {
    if (frame.type === SNAPSHOT) {
      const queue = (parse(frame.dataContent) as { queue?: { clientId?: unknown }[] } | undefined)?.queue ?? [];
      for (const entry of queue) {
        const visitor = typeof entry.clientId === 'string' ? byClientId.get(entry.clientId) : undefined;
        if (!visitor || visitor.agent !== index || requested.has(visitor.client.clientId)) continue;
        requested.add(visitor.client.clientId);
        agent.send({ type: ACCEPT, from: agent.userId, fp: randomUUID(), dataContent: JSON.stringify({ clientId: visitor.client.clientId }) });
      }
    } else if (frame.type === TEXT && frame.from !== agent.userId && typeof frame.from === 'string') {
      const content = String(frame.dataContent ?? '');
      const [prefix, , , sentAt] = content.split('#');
      if (prefix !== tag) return;
      result.delivered += 1;
      result.toAgent.push(receivedAt - Number(sentAt));
      agent.send({ type: TEXT, from: agent.userId, to: frame.from, fp: randomUUID(), dataContent: content, times: Date.now() });
    } else if (frame.type === REFUSAL) onRefusal(frame);
  }

  function onVisitorFrame(visitor: Visitor, frame: Frame, receivedAt: number): void {
    if (frame.type === SESSION_EVENT) {
      if ((parse(frame.dataContent) as { event?: unknown } | undefined)?.event === 'agent-joined') visitor.chatting = true;
    } else if (frame.type === TEXT && frame.from === visitor.client.userId && typeof frame.fp === 'string') {
      // the acknowledgement: the stored copy of the visitor's own text, same fp
      const sentAt = unacked.get(frame.fp);
      if (sentAt === undefined) return;
      unacked.delete(frame.fp);
      result.ack.push(receivedAt - sentAt);
    } else if (frame.type === TEXT && typeof frame.from === 'string' && frame.from.startsWith('agent:')) {
      const content = String(frame.dataContent ?? '');
      const [prefix, , seq, sentAt] = content.split('#');
      if (prefix !== tag || !outstanding.delete(`${visitor.index}#${seq}`)) return;
      result.answered += 1;
      result.roundTrip.push(receivedAt - Number(sentAt));
    } else if (frame.type === REFUSAL) onRefusal(frame);
  }

  // visitors: connect, then ask for a human; the assigned agent accepts from its snapshots
  const liveAgents = agents.map((a, i) => (a ? i : -1)).filter((i) => i >= 0);
  let next = 0;
  const connectLoop = async (): Promise<void> => {
    while (next < args.visitors && performance.now() < rampEnd) {
      const index = next++;
      const visitor: Visitor = { client: new VirtualClient(info, key, {}), index, agent: liveAgents[index % liveAgents.length] ?? 0, chatting: false, seq: 0 };
      byClientId.set(visitor.client.clientId, visitor);
      try {
        await visitor.client.connect(Math.max(1000, Math.min(CONNECT_TIMEOUT_MS, rampEnd - performance.now())));
        visitors.push(visitor);
        visitor.client.onFrame = (frame, receivedAt) => onVisitorFrame(visitor, frame, receivedAt);
        visitor.client.onClose = (code) => count(result.errors, `visitor closed ${code}`);
        visitor.client.send({ type: TRANSFER, from: visitor.client.userId, fp: randomUUID(), dataContent: '{}' });
      } catch (error) {
        count(result.errors, `visitor ${errorKind(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.concurrency, args.visitors) }, () => connectLoop()));
  result.connected = visitors.length;
  while (performance.now() < rampEnd && visitors.some((v) => !v.chatting)) await sleep(50);
  result.rampMs = performance.now() - start;
  const chatting = visitors.filter((v) => v.chatting && v.client.open);
  result.chatting = chatting.length;

  // the window: each chatting visitor sends `rate` texts per second, evenly spread
  const period = 1000 / args.rate;
  const windowStart = performance.now();
  const windowEnd = windowStart + args.windowMs;
  result.window.from = Date.now();
  const timers: ReturnType<typeof setTimeout>[] = [];
  for (const visitor of chatting) {
    let k = 0;
    const offset = Math.random() * period;
    const tick = (): void => {
      const at = windowStart + offset + k * period;
      if (at >= windowEnd) return;
      k += 1;
      const timer = setTimeout(() => {
        const sentAt = performance.now();
        const seq = visitor.seq++;
        const fp = randomUUID();
        const ok = visitor.client.send({
          type: TEXT,
          from: visitor.client.userId,
          to: '',
          fp,
          dataContent: `${tag}#${visitor.index}#${seq}#${sentAt.toFixed(3)}`,
          times: Date.now(),
          uuid: visitor.client.userId,
        });
        if (ok) {
          result.sent += 1;
          outstanding.set(`${visitor.index}#${seq}`, sentAt);
          unacked.set(fp, sentAt);
        }
        tick();
      }, Math.max(0, at - performance.now()));
      timers.push(timer);
    };
    tick();
  }
  await sleep(args.windowMs);
  result.window.to = Date.now();
  for (const timer of timers) clearTimeout(timer);
  const drainEnd = performance.now() + 3000;
  while (outstanding.size > 0 && performance.now() < drainEnd) await sleep(20);

  const all = [...visitors.map((v) => v.client), ...agents.filter(Boolean)];
  for (const client of all) client.onClose = () => undefined;
  for (let i = 0; i < all.length; i += 500) await Promise.all(all.slice(i, i + 500).map((c) => c.close()));
  return result;
}
