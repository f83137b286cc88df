/**
 * Typing signals and sneak peek (protocol §5a, type 105): relayed between a visitor and its agent
 * only, never echoed to the sender, never stored, no preview to a visitor, at most one per second
 * per sender. The relay, preview and rate checks need an agent (a served conversation of their
 * own, ended with 302 at the end); the checks that a visitor's 105 outside a conversation reaches
 * nobody and that nothing is stored need none.
 *
 * A negative ("nothing arrived") is judged after a barrier: an acknowledged text sent after the
 * typing frames on the same socket (a server handles one socket's frames in order, as a rule), plus
 * a short grace. A sender's typing frames are spaced more than 1 s apart (the server may drop the rest),
 * except where the rate rule itself is tried.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { Msg, TestSocket } from '../client/index.js';
import type { CheckContext, Visitor } from '../context.js';
import { CheckFailure, ensure, show, type Check } from '../types.js';
import { desk, endConversation, sendAcknowledged, serveVisitor, type Desk } from './agent.js';
import { answerTo } from './answers.js';

/** The visitor the agent serves for the typing checks (also the witness without an agent). */
const SERVED = 'typing';
/** A visitor that never asks for an agent: the connect and frame checks' own (one connect fewer: the stock limit is 60 a minute). */
const IDLE = 'a';
/** The wait after a barrier before "nothing arrived" is judged (ms). */
const GRACE_MS = 200;
/** The gap kept between two typing frames of one sender: the server's 1 s plus slack for jitter (ms). */
const GAP_MS = 1_200;
/** The longest preview a server relays (characters). */
const PREVIEW_MAX = 200;

/** The conversation of the typing checks: the agent's desk and the visitor it serves. */
interface Conversation {
  d: Desk;
  v: Visitor;
}

/** The typing frames the run sent: each sender's last one (ms) and every fp. */
interface Sent {
  last: Map<string, number>;
  fps: Set<string>;
}

/** What `typing.relay` left for `typing.preview`: the visitor's draft and what the agent got. */
interface Draft {
  draft: string;
  atDesk: Msg;
}

/** One side of a barrier: a socket and the user id it sends as. */
interface Party {
  socket: TestSocket;
  from: string;
  extra?: Record<string, unknown>;
}

function sentFrames(ctx: CheckContext): Sent {
  let sent = ctx.notes.get('typing:sent') as Sent | undefined;
  if (!sent) ctx.notes.set('typing:sent', (sent = { last: new Map(), fps: new Set() }));
  return sent;
}

/** The served conversation, made once: the visitor asks for an agent and the run's agent takes it. */
function conversation(ctx: CheckContext): Promise<Conversation> {
  return ctx.shared('typing:conversation', 'a conversation served by the agent', async () => {
    const [d, v] = await Promise.all([desk(ctx), ctx.visitor(SERVED)]);
    ctx.notes.set('typing:open', { d, v } satisfies Conversation); // ended by the last check, even half made
    await serveVisitor(ctx, d, v);
    return { d, v };
  });
}

/** Sends a typing frame (type 105, a new fp) and notes when and which. */
function sendTyping(ctx: CheckContext, socket: TestSocket, from: string, body: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const fp = socket.say(from, 105, JSON.stringify(body), extra);
  const sent = sentFrames(ctx);
  sent.last.set(from, Date.now());
  sent.fps.add(fp);
  return fp;
}

/** Waits until the last typing frame of each sender is more than 1 s old. */
async function spaced(ctx: CheckContext, ...senders: string[]): Promise<void> {
  const last = Math.max(0, ...senders.map((s) => sentFrames(ctx).last.get(s) ?? 0));
  const wait = last + GAP_MS - Date.now();
  if (wait > 0) await ctx.sleep(wait);
}

/** Each party sends an acknowledged text after its typing frames; then the grace. */
async function barrier(ctx: CheckContext, parties: Party[]): Promise<void> {
  await Promise.all(parties.map((p) => sendAcknowledged(ctx, p.socket, p.from, `conformance: after a typing frame ${randomUUID()}`, p.extra)));
  await ctx.sleep(GRACE_MS);
}

/** The first typing frame that reached `socket` at or after `mark` from anyone but `self`. */
function relayed(ctx: CheckContext, socket: TestSocket, self: string, mark: number, who: string): Promise<Msg> {
  return socket.next((m) => m.type === 105 && m.from !== self, ctx.options.timeoutMs, mark).catch((error: unknown) => {
    throw new CheckFailure(`no typing frame (type 105) reached ${who} within ${ctx.options.timeoutMs} ms (${(error as Error).message})`);
  });
}

/** A typing frame's `dataContent`, parsed; undefined when it is not a JSON object. */
function signalOf(m: Msg): { state?: unknown; preview?: unknown } | undefined {
  try {
    const parsed = JSON.parse(String(m.dataContent)) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as { state?: unknown; preview?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** Fails unless `m` is a 105 from `from` saying `state`. */
function expectSignal(m: Msg, from: string, state: string, who: string): void {
  ensure(m.from === from, () => `${who} got a typing frame from ${show(m.from)}, not ${from}: ${show(m)}`);
  ensure(signalOf(m)?.state === state, () => `${who} got dataContent ${show(m.dataContent)}, not state "${state}"`);
}

/** Frames on the sender's socket since `mark` that echo its typing frame `fp`: same fp, or a 105 from itself. */
function echoes(socket: TestSocket, self: string, fp: string, mark: number): Msg[] {
  return socket.log.slice(mark).filter((m) => m.fp === fp || (m.type === 105 && m.from === self));
}

/** The typing checks, after the agent checks. */
export const typingChecks: Check[] = [
  {
    id: 'typing.relay',
    rule: 'protocol §5a',
    title: "a visitor's typing (105) reaches its agent and the agent's paused reaches the visitor, each from its sender; neither is echoed to its sender",
    needsAgent: true,
    async run(ctx) {
      const { d, v } = await conversation(ctx);
      await spaced(ctx, v.clientId, d.id);
      const [markDesk, markVisitor] = [d.socket.log.length, v.socket.log.length];
      // a draft as a client with sneak peek sends it: the server relays it, cut or stripped
      const draft = `conformance: a draft ${randomUUID()}`;
      const typingFp = sendTyping(ctx, v.socket, v.clientId, { state: 'typing', preview: draft });
      const pausedFp = sendTyping(ctx, d.socket, d.id, { state: 'paused' }, { to: v.clientId });
      const [[atDesk, atVisitor]] = await Promise.all([
        Promise.all([relayed(ctx, d.socket, d.id, markDesk, 'the agent'), relayed(ctx, v.socket, v.clientId, markVisitor, 'the visitor')]),
        barrier(ctx, [
          { socket: v.socket, from: v.clientId },
          { socket: d.socket, from: d.id, extra: { to: v.clientId } },
        ]),
      ]);
      ctx.notes.set('typing:draft', { draft, atDesk } satisfies Draft);
      expectSignal(atDesk, v.clientId, 'typing', 'the agent');
      expectSignal(atVisitor, d.id, 'paused', 'the visitor');
      const back = [...echoes(v.socket, v.clientId, typingFp, markVisitor), ...echoes(d.socket, d.id, pausedFp, markDesk)];
      ensure(back.length === 0, () => `a typing frame came back to its sender (acknowledged or echoed): ${show(back[0])}`);
    },
  },
  {
    id: 'typing.outside-conversation',
    rule: 'protocol §5a',
    title: "a visitor's 105 outside any active conversation reaches nobody else: not the agent, not another visitor",
    async run(ctx) {
      const [idle, other] = await Promise.all([ctx.visitor(IDLE), ctx.visitor(SERVED)]);
      const d = ctx.options.agent ? await desk(ctx).catch(() => undefined) : undefined;
      const witnesses = [{ who: 'another visitor', socket: other.socket }, ...(d ? [{ who: 'the agent', socket: d.socket }] : [])];
      const marks = witnesses.map((w) => w.socket.log.length);
      const fp = sendTyping(ctx, idle.socket, idle.clientId, { state: 'typing' });
      await barrier(ctx, [{ socket: idle.socket, from: idle.clientId }]);
      witnesses.forEach(({ who, socket }, i) => {
        const heard = socket.log.slice(marks[i]).filter((m) => m.fp === fp || (m.type === 105 && JSON.stringify(m).includes(idle.clientId)));
        ensure(heard.length === 0, () => `${who} got the typing frame of a visitor in no conversation: ${show(heard[0])}`);
      });
    },
  },
  {
    id: 'typing.preview',
    rule: 'protocol §5a',
    title: "a visitor never gets a preview (an agent's 105 with one arrives without it); a preview that reaches the agent is the visitor's draft",
    needsAgent: true,
    async run(ctx) {
      const { d, v } = await conversation(ctx);
      await spaced(ctx, d.id);
      const mark = v.socket.log.length;
      sendTyping(ctx, d.socket, d.id, { state: 'typing', preview: `conformance: an agent's draft ${randomUUID()}` }, { to: v.clientId });
      const atVisitor = await relayed(ctx, v.socket, v.clientId, mark, 'the visitor');
      expectSignal(atVisitor, d.id, 'typing', 'the visitor');
      ensure(!Object.hasOwn(signalOf(atVisitor) ?? {}, 'preview'), () => `the visitor got a preview: ${show(atVisitor.dataContent)}`);
      // the visitor's draft of typing.relay: relayed or not (sneak peek is the merchant's choice), never anything else
      const seen = ctx.notes.get('typing:draft') as Draft | undefined;
      const preview = seen && signalOf(seen.atDesk)?.preview;
      if (seen && preview !== undefined) {
        const fits = typeof preview === 'string' && seen.draft.startsWith(preview) && Array.from(preview).length <= PREVIEW_MAX;
        ensure(fits, () => `the agent got the preview ${show(preview)} of the draft ${show(seen.draft)}`);
      }
    },
  },
  {
    id: 'typing.rate',
    rule: 'protocol §5a',
    title: 'two typing frames of one sender less than 1 s apart reach the other party once',
    needsAgent: true,
    async run(ctx) {
      const { d, v } = await conversation(ctx);
      await spaced(ctx, v.clientId);
      const mark = d.socket.log.length;
      sendTyping(ctx, v.socket, v.clientId, { state: 'typing' });
      sendTyping(ctx, v.socket, v.clientId, { state: 'typing' });
      // the barrier: the agent gets a text the visitor sent after both
      const afterBoth = async (): Promise<void> => {
        const text = await sendAcknowledged(ctx, v.socket, v.clientId, `conformance: after two typing frames ${randomUUID()}`);
        await d.socket.next((m) => m.fp === text.fp && m.type === 100, ctx.options.timeoutMs, mark);
      };
      await Promise.all([relayed(ctx, d.socket, d.id, mark, 'the agent'), afterBoth()]);
      await ctx.sleep(GRACE_MS);
      const heard = d.socket.log.slice(mark).filter((m) => m.type === 105 && m.from === v.clientId);
      ensure(heard.length === 1, () => `${heard.length} typing frames reached the agent from two sent back to back: the server relays at most 1 per second per sender`);
    },
  },
  {
    id: 'typing.never-stored',
    rule: 'protocol §5a',
    title: "typing frames are never stored: the visitors' history (findMsgForCus) lists no type 105",
    async run(ctx) {
      try {
        const visitors = await Promise.all([ctx.visitor(SERVED), ctx.visitor(IDLE)]);
        const open = ctx.notes.get('typing:open') as Conversation | undefined;
        const fps = new Set<unknown>(sentFrames(ctx).fps);
        for (const socket of [...visitors.map((x) => x.socket), ...(open ? [open.d.socket] : [])]) {
          for (const m of socket.log) if (m.type === 105) fps.add(m.fp);
        }
        for (const x of visitors) {
          const stored = (await ctx.history(x.session, x.clientId)).filter((m) => m.type === 105 || fps.has(m.fp));
          ensure(stored.length === 0, () => `findMsgForCus lists ${stored.length} typing frame${stored.length === 1 ? '' : 's'} of visitor ${x.clientId}, e.g. ${show(stored[0])}`);
        }
      } finally {
        await endTypingConversation(ctx);
      }
    },
  },
];

/** Ends the typing checks' conversation, if one was opened, and waits (briefly) for the acknowledgement. */
async function endTypingConversation(ctx: CheckContext): Promise<void> {
  const open = ctx.notes.get('typing:open') as Conversation | undefined;
  if (!open) return;
  ctx.notes.delete('typing:open');
  const fp = endConversation(open.d, open.v.clientId);
  await answerTo(open.d.socket, fp, Math.min(ctx.options.timeoutMs, 2_000)).catch(() => undefined);
}
