/**
 * Agents (protocol §3a.5, docs/protocol.md §5-§7): login, the assignment rule of agent key
 * sessions, serving a visitor both ways, catch-up after being away, and a wrong password.
 * Skipped without agent credentials. The desk login, the serve flow and the end of a conversation
 * are exported for the other checks that need an agent (`typing.ts`).
 * @module
 */

import { randomUUID } from 'node:crypto';
import { content, isEvent, type Msg, type Session, type TestSocket } from '../client/index.js';
import type { CheckContext, Visitor } from '../context.js';
import { CheckSkipped, ensure, show, type Check } from '../types.js';
import { answerTo, refusalOf } from './answers.js';
import { expectRefusal } from './connect.js';

/** The agent's connection for the checks. */
export interface Desk {
  /** The agent's user id (the welcome's `to`). */
  id: string;
  /** The agent's key session. */
  session: Session;
  /** The agent's open socket. */
  socket: TestSocket;
  /** The welcome of the agent's connect. */
  welcome: Msg;
}

function credentials(ctx: CheckContext): { account: string; password: string } {
  const agent = ctx.options.agent;
  if (!agent) throw new CheckSkipped('no agent credentials');
  return agent;
}

/**
 * The agent's desk, logged in once per run with the run's agent credentials (shared by every check
 * that needs it).
 * @param ctx - the run
 * @throws CheckSkipped without agent credentials; CheckFailure when the login failed
 */
export function desk(ctx: CheckContext): Promise<Desk> {
  const { account, password } = credentials(ctx);
  return ctx.shared('desk', `the agent login of ${account}`, async () => {
    const session = await ctx.session('agent');
    const socket = await ctx.connect(session, `desk-${randomUUID()}`, { role: 'agent', account, password });
    const welcome = socket.log.find((m) => m.type === 60) as Msg;
    return { id: String(welcome.to), session, socket, welcome };
  });
}

function queueLists(clientId: string): (m: Msg) => boolean {
  return (m) => {
    if (m.type !== 310) return false;
    try {
      const queue = content<{ queue?: { clientId?: unknown }[] }>(m).queue;
      return Array.isArray(queue) && queue.some((q) => q.clientId === clientId);
    } catch {
      return false;
    }
  };
}

/**
 * Sends a text and fails unless it is acknowledged.
 * @param ctx - the run
 * @param socket - the sender's socket
 * @param from - the sender's user id
 * @param text - the text
 * @param extra - further fields (`to`, ...)
 * @returns the acknowledgement
 */
export async function sendAcknowledged(ctx: CheckContext, socket: TestSocket, from: string, text: string, extra: Record<string, unknown> = {}): Promise<Msg> {
  const mark = socket.log.length;
  const fp = socket.say(from, 100, text, extra);
  const answer = await answerTo(socket, fp, ctx.options.timeoutMs, mark);
  ensure(answer.type !== 500, () => `${show(text)} from ${from} was refused: ${show(refusalOf(answer))}`);
  return answer;
}

/**
 * A visitor asks for an agent (301) and the run's agent takes it: accepted with 311 when it is
 * queued (310), or joined at once by the server. Fails unless the visitor hears `agent-joined`
 * naming the agent.
 * @param ctx - the run
 * @param d - the agent's desk
 * @param s - the visitor
 */
export async function serveVisitor(ctx: CheckContext, d: Desk, s: Visitor): Promise<void> {
  const [markDesk, markVisitor] = [d.socket.log.length, s.socket.log.length];
  s.socket.say(s.clientId, 301, '{}');
  const queued = d.socket.next(queueLists(s.clientId), ctx.options.timeoutMs, markDesk).then(() => 'queued' as const, () => 'none' as const);
  const joined = s.socket.next(isEvent('agent-joined'), ctx.options.timeoutMs, markVisitor).then(() => 'joined' as const, () => 'none' as const);
  const first = await Promise.race([queued, joined]);
  ensure(first !== 'none', `the visitor was neither in the agent's queue (310) nor joined by an agent within ${ctx.options.timeoutMs} ms`);
  if (first === 'queued') d.socket.send({ type: 311, from: d.id, fp: randomUUID(), dataContent: JSON.stringify({ clientId: s.clientId }) });
  const event = content<{ agent?: { id?: unknown } }>(await s.socket.next(isEvent('agent-joined'), ctx.options.timeoutMs, markVisitor));
  ensure(event.agent?.id === d.id, `the visitor was joined by ${show(event.agent)}, not ${d.id}`);
}

/**
 * The agent ends its conversation with a visitor (302), so that the agent is free again.
 * @param d - the agent's desk
 * @param clientId - the visitor's client id
 * @returns the end frame's fp
 */
export function endConversation(d: Desk, clientId: string): string {
  const fp = randomUUID();
  d.socket.send({ type: 302, from: d.id, to: clientId, fp, dataContent: '{}' });
  return fp;
}

interface Served {
  visitorText: string;
}

/** The agent checks. */
export const agentChecks: Check[] = [
  {
    id: 'agent.login',
    rule: 'protocol §3a.5, docs/protocol.md §5',
    title: 'an agent connects with { role: "agent", account, password } and is welcomed as agent:<account>',
    needsAgent: true,
    async run(ctx) {
      const d = await desk(ctx);
      const expected = `agent:${credentials(ctx).account}`;
      ensure(d.id === expected, `the welcome's to is ${show(d.welcome.to)}, not ${expected}`);
    },
  },
  {
    id: 'agent.unassigned-call',
    rule: 'protocol §3a.5',
    title: "an agent's key session gets code 4003 for the history of a visitor not assigned to it",
    needsAgent: true,
    async run(ctx) {
      const [d, a] = await Promise.all([desk(ctx), ctx.visitor('a')]);
      const answer = await ctx.call(d.session, 'POST', 'findMsgForCus', { clientId: a.clientId, ...ctx.where });
      ensure(answer.code === 4003, `answered ${show(answer)}`);
    },
  },
  {
    id: 'agent.serve',
    rule: 'protocol §5 (301), docs/protocol.md §6 (310, 311)',
    title: 'a visitor asks for an agent (301), the agent accepts (311): texts reach the other side with their fp, both acknowledged',
    needsAgent: true,
    async run(ctx) {
      const d = await desk(ctx);
      const s = await ctx.visitor('served');
      await serveVisitor(ctx, d, s);

      const visitorText = `conformance: to the agent ${randomUUID()}`;
      const ack = await sendAcknowledged(ctx, s.socket, s.clientId, visitorText);
      const atDesk = await d.socket.next((m) => m.fp === ack.fp && m.type === 100, ctx.options.timeoutMs);
      ensure(atDesk.from === s.clientId && atDesk.dataContent === visitorText, `the agent got ${show(atDesk)}`);

      const reply = await sendAcknowledged(ctx, d.socket, d.id, `conformance: to the visitor ${randomUUID()}`, { to: s.clientId });
      const atVisitor = await s.socket.next((m) => m.fp === reply.fp && m.type === 100, ctx.options.timeoutMs);
      ensure(atVisitor.from === d.id, `the visitor got the reply from ${show(atVisitor.from)}`);
      ctx.notes.set('served', { visitorText } satisfies Served);
    },
  },
  {
    id: 'agent.history',
    rule: 'protocol §3a.5',
    title: "an agent's key session reads the history of a visitor it serves",
    needsAgent: true,
    async run(ctx) {
      const served = ctx.notes.get('served') as Served | undefined;
      ensure(served, 'needs the conversation of agent.serve, which failed');
      const [d, s] = await Promise.all([desk(ctx), ctx.visitor('served')]);
      const list = await ctx.history(d.session, s.clientId);
      ensure(list.some((m) => m.dataContent === served.visitorText), "the visitor's text is not in the history the agent reads");
    },
  },
  {
    id: 'agent.catch-up',
    rule: 'protocol §4 (catch-up)',
    title: 'a text sent to a visitor while it is away is in its history after the newest createTime it held',
    needsAgent: true,
    async run(ctx) {
      ensure(ctx.notes.get('served'), 'needs the conversation of agent.serve, which failed');
      const [d, s] = await Promise.all([desk(ctx), ctx.visitor('served')]);
      try {
        const held = Math.max(0, ...s.socket.log.map((m) => (typeof m.createTime === 'number' ? m.createTime : 0)));
        await s.socket.close();
        await ctx.sleep(25);
        const away = await sendAcknowledged(ctx, d.socket, d.id, `conformance: while you were away ${randomUUID()}`, { to: s.clientId });
        const back = await ctx.reconnect(s);
        const list = await ctx.history(s.session, s.clientId, { after: held });
        ensure(list.some((m) => m.fp === away.fp), `findMsgForCus after ${held} does not list the text sent while away (fps ${show(list.map((m) => m.fp))})`);
        await back.close();
      } finally {
        // end the conversation, so that the agent is free again
        endConversation(d, s.clientId);
      }
    },
  },
  {
    id: 'agent.bad-password',
    rule: 'protocol §3a.5, docs/protocol.md §7',
    title: 'an agent connect with a wrong password is closed with 4001',
    needsAgent: true,
    async run(ctx) {
      const { account, password } = credentials(ctx);
      const spare = await ctx.session('spare');
      expectRefusal(await ctx.refused(spare, `desk-${randomUUID()}`, { role: 'agent', account, password: `${password}-wrong` }), 4001);
    },
  },
];
