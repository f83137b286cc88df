/**
 * Frames (protocol §4): acknowledgement, dedup by `fp` (resends on the same and on a new socket),
 * history catch-up with `after`, the AES switch, refusals and robustness, owner-only delivery.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { fetchServerTime, type Msg, type TestSocket } from '../client/index.js';
import type { CheckContext } from '../context.js';
import { ensure, show, type Check } from '../types.js';
import { answerTo, refusalOf } from './answers.js';

const DAY_MS = 86_400_000;

/** The first text of visitor a and its acknowledged time, left by `frames.ack`. */
interface FirstText {
  frame: { type: number; from: string; fp: string; dataContent: string };
  createTime: number;
}

function firstText(ctx: CheckContext): FirstText {
  const first = ctx.notes.get('first-text') as FirstText | undefined;
  ensure(first, 'needs the acknowledged text of frames.ack, which failed');
  return first;
}

/** Sends `frame` on `socket` and fails unless it is acknowledged (same fp, not refused). */
async function acknowledged(ctx: CheckContext, socket: TestSocket, frame: Record<string, unknown> & { fp: string }): Promise<Msg> {
  const mark = socket.log.length;
  socket.send(frame);
  const answer = await answerTo(socket, frame.fp, ctx.options.timeoutMs, mark);
  ensure(answer.type !== 500, () => `refused: ${show(refusalOf(answer))}`);
  return answer;
}

/** The frame checks. */
export const frameChecks: Check[] = [
  {
    id: 'frames.ack',
    rule: 'protocol §4 (delivery)',
    title: 'a text (type 100) is acknowledged: sent back with the same fp and a server createTime',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const frame = { type: 100, from: a.clientId, fp: randomUUID(), dataContent: `conformance check ${randomUUID()}` };
      const ack = await acknowledged(ctx, a.socket, frame);
      ensure(ack.type === 100, `the acknowledgement has type ${show(ack.type)}`);
      ensure(ack.dataContent === frame.dataContent, `the acknowledgement's dataContent is ${show(ack.dataContent)}`);
      ensure(typeof ack.createTime === 'number' && Math.abs(ack.createTime - Date.now()) < DAY_MS, `createTime is ${show(ack.createTime)}, not a time in ms`);
      ctx.notes.set('first-text', { frame, createTime: ack.createTime } satisfies FirstText);
    },
  },
  {
    id: 'frames.resend',
    rule: 'protocol §4 (fp)',
    title: 'a resend of the same fp on the same socket is acknowledged again',
    async run(ctx) {
      const a = await ctx.visitor('a');
      await acknowledged(ctx, a.socket, firstText(ctx).frame);
    },
  },
  {
    id: 'frames.resend-after-reconnect',
    rule: 'protocol §4 (fp)',
    title: 'a resend of the same fp after a reconnect is acknowledged on the new socket',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const { frame } = firstText(ctx);
      const socket = await ctx.reconnect(a);
      try {
        await acknowledged(ctx, socket, frame);
      } finally {
        await socket.close();
      }
    },
  },
  {
    id: 'frames.dedup-history',
    rule: 'protocol §4 (fp)',
    title: 'the server stores one message per fp: the history lists a thrice-sent text once',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const { frame } = firstText(ctx);
      const list = await ctx.history(a.session, a.clientId);
      const copies = list.filter((m) => m.fp === frame.fp).length;
      ensure(copies === 1, `findMsgForCus lists ${copies} messages with fp ${frame.fp}`);
    },
  },
  {
    id: 'frames.history-after',
    rule: 'protocol §4 (catch-up), docs/protocol.md §3',
    title: 'findMsgForCus with after = a createTime lists what is newer, oldest first, each fp once',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const first = firstText(ctx);
      await ctx.sleep(25);
      const frame = { type: 100, from: a.clientId, fp: randomUUID(), dataContent: `conformance check, later ${randomUUID()}` };
      const ack = await acknowledged(ctx, a.socket, frame);
      ensure(typeof ack.createTime === 'number' && ack.createTime > first.createTime, `a text sent 25 ms later has createTime ${show(ack.createTime)}, not after ${first.createTime}`);
      const list = await ctx.history(a.session, a.clientId, { after: first.createTime });
      const fps = list.map((m) => m.fp);
      ensure(fps.includes(frame.fp), `the newer text is missing: fps ${show(fps)}`);
      ensure(!fps.includes(first.frame.fp), 'the text at `after` itself is listed (after is exclusive)');
      ensure(new Set(fps).size === fps.length, `an fp is listed twice: ${show(fps)}`);
      const times = list.map((m) => Number(m.createTime));
      ensure(times.every((t, i) => t > first.createTime && (i === 0 || t >= (times[i - 1] ?? 0))), `createTimes are not ascending and after ${first.createTime}: ${show(times)}`);
    },
  },
  {
    id: 'frames.blank',
    rule: 'protocol §4, §5 (type 500)',
    title: 'a blank text is refused with type 500 { reason: "blank", fp }',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const mark = a.socket.log.length;
      const fp = a.socket.say(a.clientId, 100, '   ');
      const answer = await answerTo(a.socket, fp, ctx.options.timeoutMs, mark);
      ensure(answer.type === 500, `the blank text was acknowledged: ${show(answer)}`);
      ensure(refusalOf(answer)?.reason === 'blank', `refused with ${show(refusalOf(answer))}, not reason "blank"`);
    },
  },
  {
    id: 'frames.aes-switch',
    rule: 'protocol §4',
    title: 'server frames are AES-ECB under the user key when the AES switch is on, plain JSON when off',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const expected = a.session.aesSwitch ? 'aes' : 'json';
      ensure(a.socket.undecodable.length === 0, `${a.socket.undecodable.length} frames neither parsed nor decrypted, e.g. ${show(a.socket.undecodable[0])}`);
      const wrong = a.socket.wire.filter((w) => w !== expected).length;
      ensure(wrong === 0, `the switch is ${a.session.aesSwitch ? 'on' : 'off'}, but ${wrong} of ${a.socket.wire.length} frames came as ${expected === 'aes' ? 'plain JSON' : 'AES'}`);
    },
  },
  {
    id: 'frames.owner-only',
    rule: 'protocol §3a.4',
    title: "another visitor's socket hears nothing of a visitor's conversation",
    async run(ctx) {
      const [a, b] = await Promise.all([ctx.visitor('a'), ctx.visitor('b')]);
      await b.socket.quiet(200);
      const fps = new Set<unknown>(a.socket.log.map((m) => m.fp).filter((fp) => typeof fp === 'string'));
      const heard = b.socket.log.filter((m) => fps.has(m.fp) || JSON.stringify(m).includes(a.clientId));
      ensure(heard.length === 0, `visitor b received ${heard.length} frames of visitor a, e.g. ${show(heard[0])}`);
      ensure(b.socket.undecodable.length === 0, `visitor b received ${b.socket.undecodable.length} frames it cannot decode (under another key session's key?)`);
    },
  },
  {
    id: 'frames.undecodable',
    rule: 'protocol §2, §4',
    title: 'an undecodable frame is refused or dropped: the connection and the server keep working',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const mark = a.socket.log.length;
      a.socket.ws.send('conformance check: this is not a frame {');
      a.socket.send({ type: 1, from: a.clientId, dataContent: '{}' });
      try {
        await a.socket.next((m) => m.type === 51, ctx.options.timeoutMs, mark);
      } catch (error) {
        ensure(!a.socket.isOpen, () => `no heartbeat reply after the bad frame: ${(error as Error).message}`);
        const closed = await a.socket.closed;
        ensure(closed.code !== 1006 && closed.code !== 1011, `the connection broke (${closed.code} ${show(closed.reason)})`);
      }
      await fetchServerTime(ctx.options.baseUrl);
    },
  },
];
