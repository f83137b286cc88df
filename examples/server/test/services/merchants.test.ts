/** The merchant service: platforms open to visitors, profiles, orders, entry links. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { decodeEntryParam } from '../../src/services/merchants.js';
import { F, refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
beforeEach(async () => {
  fx = await serviceFixture();
});
afterEach(async () => {
  await fx.close();
});

describe('requirePlatform: a known merchant\'s enabled platform', () => {
  it('answers it, and 1003 for an unknown merchant or platform and for a disabled one', async () => {
    const { merchants } = fx.services;
    await expect(merchants.requirePlatform(F.mchId, F.platformId)).resolves.toMatchObject({ name: 'Web', enabled: true });
    expect(await refusalOf(merchants.requirePlatform(F.otherMchId, F.platformId))).toEqual({ code: Code.NotFound, message: 'Unknown merchant or platform' });
    expect(await refusalOf(merchants.requirePlatform(F.mchId, 'P9'))).toEqual({ code: Code.NotFound, message: 'Unknown merchant or platform' });
    expect(await refusalOf(merchants.requirePlatform(F.mchId, F.disabledPlatformId))).toEqual({ code: Code.NotFound, message: 'This platform is not enabled' });
    // checkPlatform shows a disabled platform as it is
    await expect(merchants.platform(F.mchId, F.disabledPlatformId)).resolves.toMatchObject({ enabled: false });
  });
});

describe('profile, orders and entry links', () => {
  it('the profile carries the extra fields, the names and a default avatar', async () => {
    const profile = await fx.services.merchants.profile(F.mchId, F.platformId);
    expect(profile).toMatchObject({ currency: 'CNY', mchId: F.mchId, platformId: F.platformId, platformName: 'Web', name: 'Shop' });
    expect(profile.kefuAvatar2.startsWith('data:image/svg+xml')).toBe(true);
  });

  it('an unknown order is 1003', async () => {
    await fx.store.directory.putOrder({ mchId: F.mchId, orderNo: 'O1', userAccount: 'u', userMchId: F.mchId, amount: '1.00', status: 'SUCCESS' });
    await expect(fx.services.merchants.requireOrder(F.mchId, 'O1')).resolves.toMatchObject({ amount: '1.00' });
    expect(await refusalOf(fx.services.merchants.requireOrder(F.mchId, 'O2'))).toEqual({ code: Code.NotFound, message: 'Unknown merchant order' });
  });

  it('an entry param is a stored value or base64url of a data layout; anything else is a broken link', async () => {
    await fx.store.directory.putEntryLink('opaque1', 'data3:x:M1:P1:k');
    expect(await fx.services.merchants.entryRaw('opaque1')).toBe('data3:x:M1:P1:k');
    expect(await fx.services.merchants.entryRaw(Buffer.from('data:x:M1:P1:k').toString('base64url'))).toBe('data:x:M1:P1:k');
    expect(await refusalOf(fx.services.merchants.entryRaw(Buffer.from('hello').toString('base64url')))).toEqual({ code: Code.NotFound, message: 'Link is broken' });
    expect(await decodeEntryParam('not base64!', async () => undefined)).toBeUndefined();
  });
});
