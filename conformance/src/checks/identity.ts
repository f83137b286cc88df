/**
 * Identity (protocol §3a): claim on first use, the secret on return (4004), bound key sessions,
 * visitor-scoped calls (4003) and `from` of frames.
 * @module
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { content, welcomeSecret } from '../client/index.js';
import { ensure, show, type Check } from '../types.js';
import { expectRefusal } from './connect.js';

/** The identity checks. */
export const identityChecks: Check[] = [
  {
    id: 'identity.claim',
    rule: 'protocol §3a.1',
    title: 'the first connect of a new client id claims it: the welcome carries clientSecret (base64url of 32 bytes)',
    async run(ctx) {
      const a = await ctx.visitor('a');
      ensure(a.secret !== undefined, `the first welcome carries no clientSecret: dataContent ${show(a.welcome.dataContent)}`);
      ensure(/^[A-Za-z0-9_-]{43}$/.test(a.secret), `clientSecret ${show(a.secret)} is not base64url of 32 bytes`);
    },
  },
  {
    id: 'identity.return-with-secret',
    rule: 'protocol §3a.2',
    title: 'a later connect with d.clientSecret is welcomed, and its welcome carries no new secret',
    async run(ctx) {
      const a = await ctx.visitor('a');
      const again = await ctx.reconnect(a);
      const welcome = again.log.find((m) => m.type === 60);
      await again.close();
      ensure(welcome?.to === a.clientId, `the welcome's to is ${show(welcome?.to)}`);
      ensure(welcomeSecret(welcome) === undefined, 'the welcome of a claimed id carries a new clientSecret');
    },
  },
  {
    id: 'identity.missing-secret',
    rule: 'protocol §3a.2',
    title: 'a connect for a claimed client id without its secret is closed with 4004, never welcomed',
    async run(ctx) {
      const [a, spare] = await Promise.all([ctx.visitor('a'), ctx.session('spare')]);
      expectRefusal(await ctx.refused(spare, a.clientId, ctx.visitorData()), 4004);
    },
  },
  {
    id: 'identity.wrong-secret',
    rule: 'protocol §3a.2',
    title: 'a connect for a claimed client id with a wrong secret is closed with 4004, never welcomed',
    async run(ctx) {
      const [a, spare] = await Promise.all([ctx.visitor('a'), ctx.session('spare')]);
      const wrong = randomBytes(32).toString('base64url');
      expectRefusal(await ctx.refused(spare, a.clientId, ctx.visitorData({ clientSecret: wrong })), 4004);
    },
  },
  {
    id: 'identity.bound-key-session',
    rule: 'protocol §3a.3',
    title: 'a connect for another identity on a key session bound to a visitor is closed with 4004',
    async run(ctx) {
      const a = await ctx.visitor('a');
      expectRefusal(await ctx.refused(a.session, randomUUID(), ctx.visitorData()), 4004);
    },
  },
  {
    id: 'identity.unbound-call',
    rule: 'protocol §3a.3',
    title: 'a visitor-scoped call (findMsgForCus) on a key session bound to nobody gets code 4003',
    async run(ctx) {
      const [a, spare] = await Promise.all([ctx.visitor('a'), ctx.session('spare')]);
      const answer = await ctx.call(spare, 'POST', 'findMsgForCus', { clientId: a.clientId, ...ctx.where });
      ensure(answer.code === 4003, `answered ${show(answer)}`);
    },
  },
  {
    id: 'identity.foreign-call',
    rule: 'protocol §3a.3',
    title: "calls naming another visitor (findMsgForCus clientId, createMsg from) get code 4003",
    async run(ctx) {
      const [a, b] = await Promise.all([ctx.visitor('a'), ctx.visitor('b')]);
      const history = await ctx.call(a.session, 'POST', 'findMsgForCus', { clientId: b.clientId, ...ctx.where });
      ensure(history.code === 4003, `findMsgForCus for another visitor answered ${show(history)}`);
      const leave = { contact: 'conformance@example.invalid', content: 'conformance check: must be refused' };
      const created = await ctx.call(a.session, 'POST', 'createMsg', { type: 401, from: b.clientId, fp: randomUUID(), ...ctx.where, dataContent: JSON.stringify(leave) });
      ensure(created.code === 4003, `createMsg from another visitor answered ${show(created)}`);
    },
  },
  {
    id: 'identity.foreign-from',
    rule: 'protocol §3a.4, docs/protocol.md §7',
    title: "a frame whose from names another visitor is refused (type 500 naming its fp), not delivered, not stored",
    async run(ctx) {
      const [a, b] = await Promise.all([ctx.visitor('a'), ctx.visitor('b')]);
      const mark = b.socket.log.length;
      const markA = a.socket.log.length;
      const fp = a.socket.say(b.clientId, 100, 'conformance check: sent in another visitor\'s name');
      const refusal = await a.socket.next((m) => m.type === 500 || (m.fp === fp && m.type !== 500), ctx.options.timeoutMs, markA);
      ensure(refusal.type === 500, `the frame was acknowledged ${show(refusal)}`);
      const said = content<{ fp?: unknown; reason?: unknown }>(refusal);
      ensure(said.fp === fp, `the refusal names fp ${show(said.fp)}, not ${fp}`);
      await b.socket.quiet(300);
      ensure(!b.socket.log.slice(mark).some((m) => m.fp === fp), 'the other visitor received the frame');
      const stored = await ctx.history(b.session, b.clientId);
      ensure(!stored.some((m) => m.fp === fp), "the frame is in the other visitor's history");
    },
  },
];
