/** The record service: complaints and left messages, once per fp, for a known merchant. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { F, refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
beforeEach(async () => {
  fx = await serviceFixture();
});
afterEach(async () => {
  await fx.close();
});

describe('complaints and left messages', () => {
  it('stores a complaint once per fp: a resend answers the stored one', async () => {
    const complaint = { fp: 'fp-complaint-1', clientId: F.plain, mchId: F.mchId, platformId: F.platformId, account: 'acc', description: 'late', occurredAt: 1, images: ['/files/a.png'], video: null };
    const first = await fx.services.records.complain(complaint);
    expect(first).toMatchObject({ ...complaint });
    expect(first.createdAt).toBeGreaterThan(0);
    const again = await fx.services.records.complain({ ...complaint, description: 'changed' });
    expect(again).toEqual(first);
    expect(await fx.store.records.complaints(F.plain)).toHaveLength(1);
  });

  it('stores a left message once per fp', async () => {
    const message = { fp: 'fp-leave-1', clientId: F.plain, mchId: F.mchId, platformId: '', contact: 'me@example.com', content: 'call me', name: '' };
    const first = await fx.services.records.leaveMessage(message);
    expect(await fx.services.records.leaveMessage({ ...message, content: 'again' })).toEqual(first);
    expect(await fx.store.records.leaveMessages(F.plain)).toHaveLength(1);
  });

  it('refuses an unknown merchant (1003) and stores nothing', async () => {
    const refused = await refusalOf(fx.services.records.leaveMessage({ fp: 'fp-leave-2', clientId: F.plain, mchId: F.otherMchId, platformId: '', contact: 'c', content: 'x', name: '' }));
    expect(refused).toEqual({ code: Code.NotFound, message: 'Unknown merchant' });
    expect(await fx.store.records.leaveMessages(F.plain)).toEqual([]);
  });
});
