/**
 * Limits (protocol §4-§5, docs/protocol.md §6): an oversized frame and a burst of texts.
 * @module
 */

import type { Msg } from '../client/index.js';
import { ensure, show, type Check } from '../types.js';
import { answers, refusalOf } from './answers.js';

/** The limit checks. */
export const limitChecks: Check[] = [
  {
    id: 'limits.oversize-frame',
    rule: 'docs/protocol.md §6 (frames over 64 KiB)',
    title: 'a frame over the size limit is refused (type 500 "too-large") or closed with 1009, and not stored',
    async run(ctx) {
      const b = await ctx.visitor('b');
      const mark = b.socket.log.length;
      const fp = b.socket.say(b.clientId, 100, 'x'.repeat(ctx.options.maxFrameBytes + 1024));
      const answer = await b.socket.next(answers(fp), ctx.options.timeoutMs, mark).catch(() => undefined);
      if (answer === undefined) {
        ensure(!b.socket.isOpen, `neither refused nor closed within ${ctx.options.timeoutMs} ms`);
        const closed = await b.socket.closed;
        ensure(closed.code === 1009, `closed with ${closed.code} ${show(closed.reason)}, not 1009`);
      } else {
        ensure(answer.type === 500, `the oversized text was acknowledged (type ${answer.type})`);
        ensure(refusalOf(answer)?.reason === 'too-large', `refused with ${show(refusalOf(answer))}, not reason "too-large"`);
      }
      const stored = await ctx.history(b.session, b.clientId);
      ensure(!stored.some((m) => m.fp === fp), 'the oversized text is in the history');
    },
  },
  {
    id: 'limits.rate',
    rule: 'protocol §5 (type 500 too-frequent), docs/protocol.md §6',
    title: 'a burst of texts beyond the rate limit is refused with type 500 { reason: "too-frequent", fp }, the rest acknowledged',
    async run(ctx) {
      const r = await ctx.visitor('rate');
      const mark = r.socket.log.length;
      const fps: string[] = [];
      for (let i = 0; i < ctx.options.burst; i += 1) fps.push(r.socket.say(r.clientId, 100, `conformance burst ${i + 1}`));
      const outcomes = await Promise.all(fps.map((fp) => r.socket.next(answers(fp), ctx.options.timeoutMs * 2, mark).catch(() => undefined)));
      const unanswered = outcomes.filter((m) => m === undefined).length;
      const refused = outcomes.filter((m) => m?.type === 500);
      const reasons = refused.map((m) => refusalOf(m as Msg)?.reason);
      ensure(unanswered === 0, `${unanswered} of ${fps.length} texts got neither an acknowledgement nor a refusal`);
      ensure(refused.length > 0, `all ${fps.length} texts sent at once were acknowledged: no rate limit (raise --burst if the server allows more)`);
      ensure(reasons.every((reason) => reason === 'too-frequent'), `refusal reasons ${show(reasons)}, not all "too-frequent"`);
      ensure(refused.length < fps.length, 'every text was refused, even the first');
    },
  },
];
