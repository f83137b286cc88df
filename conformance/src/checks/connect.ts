/**
 * Socket connect (protocol §3): the welcome, the heartbeat, and the refusals (4001) of a connect
 * whose HMAC, salt key or ciphers are wrong.
 * @module
 */

import { randomBytes, randomUUID } from 'node:crypto';
import type { CheckContext, Refusal } from '../context.js';
import { ensure, show, type Check } from '../types.js';

/** Fails unless the connect was closed with `code` before any welcome. */
export function expectRefusal(refusal: Refusal, code: number): void {
  ensure(!refusal.frames.some((m) => m.type === 60), 'a welcome (type 60) came before the close');
  ensure(refusal.code === code, `closed with ${refusal.code} ${show(refusal.reason)}, not ${code}`);
}

async function refusedWith(ctx: CheckContext, code: number, forge: Parameters<CheckContext['refused']>[3]): Promise<void> {
  const spare = await ctx.session('spare');
  expectRefusal(await ctx.refused(spare, randomUUID(), ctx.visitorData(), forge), code);
}

/** The connect checks. */
export const connectChecks: Check[] = [
  {
    id: 'connect.welcome',
    rule: 'protocol §3, §5 (type 60)',
    title: "an accepted connect is welcomed (type 60) with to = the client id and sm = server time",
    async run(ctx) {
      const a = await ctx.visitor('a');
      ensure(a.welcome.to === a.clientId, `the welcome's to is ${show(a.welcome.to)}, not the client id ${a.clientId}`);
      ensure(typeof a.welcome.sm === 'number' && Number.isFinite(a.welcome.sm), `the welcome's sm is ${show(a.welcome.sm)}, not a time in ms`);
    },
  },
  {
    id: 'connect.heartbeat',
    rule: 'protocol §5 (types 1, 51)',
    title: 'a heartbeat (type 1) is answered with type 51 carrying sm = server time',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const mark = a.socket.log.length;
      a.socket.send({ type: 1, from: a.clientId, dataContent: '{}' });
      const reply = await a.socket.next((m) => m.type === 51, ctx.options.timeoutMs, mark);
      ensure(typeof reply.sm === 'number' && Math.abs(reply.sm - Date.now()) < 86_400_000, `sm is ${show(reply.sm)}`);
    },
  },
  {
    id: 'connect.bad-hmac',
    rule: 'protocol §3',
    title: 'a connect signed with the wrong HMAC secret is closed with 4001',
    run: (ctx) => refusedWith(ctx, 4001, { secret: `not-the-secret-${randomUUID()}` }),
  },
  {
    id: 'connect.unknown-salt-key',
    rule: 'protocol §3',
    title: 'a connect whose t names no live key session is closed with 4001',
    run: (ctx) => refusedWith(ctx, 4001, { t: ctx.unknownSaltKey() }),
  },
  {
    id: 'connect.bad-ciphers',
    rule: 'protocol §3',
    title: 'a connect whose A or B does not decrypt is closed with 4001',
    async run(ctx) {
      await refusedWith(ctx, 4001, { A: randomBytes(96).toString('base64') });
      await refusedWith(ctx, 4001, { B: randomBytes(256).toString('base64') });
    },
  },
];
