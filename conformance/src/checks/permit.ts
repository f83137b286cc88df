/**
 * Permit calls (protocol §2): the envelope and the (enc) payload, both methods, and bad input.
 * @module
 */

import { enc, http, isEnvelope } from '../client/index.js';
import { ensure, show, type Check } from '../types.js';

/** The permit-call checks. */
export const permitChecks: Check[] = [
  {
    id: 'permit.enc-post',
    rule: 'protocol §2, docs/protocol.md §3',
    title: 'an (enc) POST (getMerchantById) is decrypted and answered in the envelope',
    async run(ctx) {
      const session = await ctx.session('a');
      const answer = await ctx.call<{ mchId?: unknown }>(session, 'POST', 'getMerchantById', ctx.where);
      ensure(isEnvelope(answer), `not an envelope: ${show(answer)}`);
      ensure(answer.code === 0, `answered ${show(answer)} for merchant ${ctx.where.mchId} (is --mch right?)`);
      ensure(answer.data?.mchId === ctx.where.mchId, `data.mchId is ${show(answer.data?.mchId)}, not ${ctx.where.mchId}`);
    },
  },
  {
    id: 'permit.enc-get',
    rule: 'protocol §2, docs/protocol.md §3',
    title: 'an (enc) GET (checkPlatform, ?data=) is decrypted and answered in the envelope',
    async run(ctx) {
      const session = await ctx.session('a');
      const answer = await ctx.call<{ platformId?: unknown }>(session, 'GET', 'checkPlatform', ctx.where);
      ensure(isEnvelope(answer), `not an envelope: ${show(answer)}`);
      ensure(answer.code === 0, `answered ${show(answer)} for platform ${ctx.where.platformId} (is --platform right?)`);
      ensure(answer.data?.platformId === ctx.where.platformId, `data.platformId is ${show(answer.data?.platformId)}, not ${ctx.where.platformId}`);
    },
  },
  {
    id: 'permit.bad-payload',
    rule: 'protocol §2',
    title: 'a payload that does not decrypt gets a non-zero code and a message, never a 500',
    async run(ctx) {
      const session = await ctx.session('a');
      const headers = { 'x-salt-key': session.saltKey };
      const base = `${ctx.options.baseUrl}/im/api/permit`;
      const tries = [
        ['POST getMerchantById, data not base64', () => http(`${base}/getMerchantById`, { method: 'POST', body: { data: 'not a cipher!' }, headers })],
        ['POST getMerchantById, data under another key', () => http(`${base}/getMerchantById`, { method: 'POST', body: { data: 'AAAAAAAAAAAAAAAAAAAAAA%3D%3D' }, headers })],
        ['GET checkPlatform, data not base64', () => http(`${base}/checkPlatform?data=%25%25%25`, { headers })],
      ] as const;
      for (const [what, send] of tries) {
        const { status, body } = await send();
        ensure(status < 500, `${what}: HTTP ${status}`);
        ensure(isEnvelope(body), `${what}: not an envelope: ${show(body)}`);
        ensure(body.code !== 0, `${what}: answered success ${show(body)}`);
        ensure(body.message.trim() !== '', `${what}: the message is empty`);
      }
    },
  },
  {
    id: 'permit.unknown-salt-key',
    rule: 'protocol §2',
    title: 'an (enc) call under a salt key that names no key session is refused',
    async run(ctx) {
      const session = await ctx.session('a');
      const answer = await enc(ctx.options.baseUrl, { userKey: session.userKey, saltKey: ctx.unknownSaltKey() }, 'POST', 'getMerchantById', ctx.where);
      ensure(isEnvelope(answer), `not an envelope: ${show(answer)}`);
      ensure(answer.code !== 0, `answered success ${show(answer)}`);
    },
  },
];
