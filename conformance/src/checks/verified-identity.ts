/**
 * Verified identity (protocol §3b), opt-in: the kit needs the merchant's identity-token secret
 * (`--merchant-secret`) to sign tokens, so without it these checks are skipped. A welcome for a
 * good token names the member's stable id and says `verified`; bad tokens are closed with 4006
 * and a reason, with nothing bound; an anonymous visitor that logs in keeps its conversation and
 * its id is retired; a member id named without a token is refused 4004.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { content, identityToken, memberClaims, welcomeSecret, type Msg, type Session } from '../client/index.js';
import type { CheckContext } from '../context.js';
import { ensure, show, type Check } from '../types.js';
import { expectRefusal } from './connect.js';

/** A token for member `sub` of the run's merchant, valid 10 minutes (or `ttlS`). */
function tokenFor(ctx: CheckContext, sub: string, ttlS = 600): string {
  return identityToken(memberClaims(ctx.where.mchId, sub, ttlS), ctx.options.merchantSecret ?? '');
}

/** Connects a new anonymous id with a token for `sub`; its welcome. */
async function verifiedWelcome(ctx: CheckContext, name: string, sub: string): Promise<Msg> {
  const session = await ctx.session(name);
  const socket = await ctx.connect(session, randomUUID(), ctx.visitorData({ identityToken: tokenFor(ctx, sub) }));
  const welcome = socket.log.find((m) => m.type === 60) as Msg;
  await socket.close();
  return welcome;
}

/** The member of this run (one `sub`), welcomed once on a key session of its own. */
function member(ctx: CheckContext): Promise<{ sub: string; welcome: Msg }> {
  return ctx.shared('member', 'a verified member', async () => {
    const sub = `conformance-${randomUUID()}`;
    return { sub, welcome: await verifiedWelcome(ctx, 'member-1', sub) };
  });
}

/** A bad token's refusal on key session `session`: 4006 with `reason`. */
async function refusedToken(ctx: CheckContext, session: Session, identityTokenValue: string, reason: string): Promise<void> {
  const refusal = await ctx.refused(session, randomUUID(), ctx.visitorData({ identityToken: identityTokenValue }));
  expectRefusal(refusal, 4006);
  ensure(refusal.reason === reason, `closed 4006 with reason ${show(refusal.reason)}, not ${show(reason)}`);
}

/** The verified-identity checks. */
export const verifiedIdentityChecks: Check[] = [
  {
    id: 'verified.welcome',
    rule: 'protocol §3b.2',
    title: 'a valid token is welcomed with to = the member\'s stable id (the same from another anonymous id), verified, and no clientSecret',
    needsMerchantSecret: true,
    async run(ctx) {
      const { sub, welcome } = await member(ctx);
      ensure(content(welcome)['verified'] === true, `the welcome's dataContent is ${show(welcome.dataContent)}, without verified: true`);
      ensure(welcomeSecret(welcome) === undefined, 'the welcome of a verified member carries a clientSecret');
      const again = await verifiedWelcome(ctx, 'member-2', sub);
      ensure(typeof welcome.to === 'string' && again.to === welcome.to, `two devices of one member got ${show(welcome.to)} and ${show(again.to)}`);
    },
  },
  {
    id: 'verified.refused',
    rule: 'protocol §3b.1, §3b.3',
    title: 'expired, wrongly signed, tampered, alg none and another merchant\'s tokens are closed with 4006 (expired, invalid, merchant); nothing is bound',
    needsMerchantSecret: true,
    async run(ctx) {
      const sub = `conformance-${randomUUID()}`;
      const secret = ctx.options.merchantSecret ?? '';
      const good = tokenFor(ctx, sub);
      const [header, , signature] = good.split('.');
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...memberClaims(ctx.where.mchId, `${sub}-other`, 600) })).toString('base64url')}.${signature}`;
      // one key session for every refusal: nothing is bound, so a new anonymous id is welcomed on it afterwards
      const session = await ctx.session('token-refusals');
      await refusedToken(ctx, session, tokenFor(ctx, sub, -120), 'expired');
      await refusedToken(ctx, session, identityToken(memberClaims(ctx.where.mchId, sub, 600), `${secret}-not`), 'invalid');
      await refusedToken(ctx, session, tampered, 'invalid');
      await refusedToken(ctx, session, identityToken(memberClaims(ctx.where.mchId, sub, 600), '', 'none'), 'invalid');
      await refusedToken(ctx, session, identityToken(memberClaims(`${ctx.where.mchId}-other`, sub, 600), secret), 'merchant');
      const after = await ctx.connect(session, randomUUID(), ctx.visitorData());
      await after.close();
    },
  },
  {
    id: 'verified.merge',
    rule: 'protocol §3b.4',
    title: 'an anonymous visitor that logs in with its secret keeps its messages in the member\'s conversation; its old id with its secret is then refused 4004',
    needsMerchantSecret: true,
    async run(ctx) {
      const anon = await ctx.visitor('merge');
      ensure(anon.secret !== undefined, 'the anonymous welcome carries no clientSecret');
      const text = `before login ${randomUUID()}`;
      const fp = anon.socket.say(anon.clientId, 100, text);
      await anon.socket.next((m) => m.fp === fp, ctx.options.timeoutMs);
      await anon.socket.close();
      const login = await ctx.connect(anon.session, anon.clientId, ctx.visitorData({ clientSecret: anon.secret, identityToken: tokenFor(ctx, `conformance-${randomUUID()}`) }));
      const memberId = login.log.find((m) => m.type === 60)?.to;
      await login.close();
      ensure(typeof memberId === 'string' && memberId !== anon.clientId, `the login's welcome names ${show(memberId)}`);
      const history = await ctx.history(anon.session, memberId);
      ensure(history.some((m) => m.dataContent === text), 'the anonymous text is not in the member\'s history');
      const spare = await ctx.session('spare');
      expectRefusal(await ctx.refused(spare, anon.clientId, ctx.visitorData({ clientSecret: anon.secret })), 4004);
    },
  },
  {
    id: 'verified.forged-member',
    rule: 'protocol §3b.2, §3a.2',
    title: 'a connect naming a member\'s id as u without a token is refused with 4004',
    needsMerchantSecret: true,
    async run(ctx) {
      const { welcome } = await member(ctx);
      ensure(content(welcome)['verified'] === true, `no verified member to forge: its welcome's dataContent is ${show(welcome.dataContent)}`);
      const spare = await ctx.session('spare');
      expectRefusal(await ctx.refused(spare, String(welcome.to), ctx.visitorData()), 4004);
    },
  },
];
