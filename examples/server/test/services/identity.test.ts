/** The identity service: key sessions per request key, their expiry, binding and claims, and who may act for whom. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { hashSecret } from '../../src/identity/secrets.js';
import { Identity, roleOf } from '../../src/services/identity.js';
import { F, refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
let now: number;
let identity: Identity;
beforeEach(async () => {
  fx = await serviceFixture();
  now = 1_000_000;
  // alice and bob work for the fixture's merchant, mallory for another
  identity = new Identity(fx.store, 60_000, () => now, async (agentId) => (agentId === 'agent:mallory' ? [F.otherMchId] : agentId.startsWith('agent:') ? [F.mchId] : []));
});
afterEach(async () => {
  await fx.close();
});

const REQUEST_KEY = '0123456789abcdef0123456789abcdef';

describe('key sessions', () => {
  it('one per request key; a live one is found by its salt key until a TTL after its last use', async () => {
    const session = await identity.sessionFor(REQUEST_KEY, () => true);
    expect(await identity.sessionFor(REQUEST_KEY, () => false)).toEqual(session);
    await expect(identity.requireLive(session.saltKey)).resolves.toMatchObject({ requestKey: REQUEST_KEY });
    expect(await identity.knows(session.saltKey)).toBe(true);
    now += 60_001;
    expect(await refusalOf(identity.requireLive(session.saltKey))).toEqual({ code: Code.BadSalt, message: 'Unknown or expired salt key: restart the key exchange' });
    expect((await refusalOf(identity.requireLive(''))).code).toBe(Code.BadSalt);
    expect(await identity.knows('')).toBe(false);
  });

  it('keep moves a live one\'s last use on (an open socket keeps it); an unknown or expired one stays gone', async () => {
    expect(identity.keepEvery).toBe(15_000);
    expect(new Identity(fx.store, 24 * 3_600_000).keepEvery).toBe(15 * 60_000);
    const session = await identity.sessionFor(REQUEST_KEY, () => true);
    for (let i = 0; i < 4; i++) {
      now += identity.keepEvery;
      await identity.keep(session.saltKey);
    }
    // 60 s after it was made, 15 s after its last keep: alive
    now += 50_000;
    expect(await identity.live(session.saltKey)).toBeDefined();
    now += 60_001;
    await identity.keep(session.saltKey);
    expect(await identity.live(session.saltKey)).toBeUndefined();
    await expect(identity.keep('unknown')).resolves.toBeUndefined();
  });

  it('one that no connect bound lives its own, shorter TTL; once bound, the whole TTL; housekeeping forgets by the same rule', async () => {
    const short = new Identity(fx.store, 60_000, () => now, async () => [], 10_000);
    const free = await short.sessionFor(REQUEST_KEY, () => true);
    const bound = await short.sessionFor('fedcba9876543210fedcba9876543210', () => true);
    expect(await short.bind(bound.saltKey, F.plain)).toBe(true);
    now += 9_000;
    expect(await short.live(free.saltKey)).toBeDefined(); // used: its last use moves on
    now += 9_000;
    expect(await short.live(free.saltKey)).toBeDefined();
    now += 10_001;
    expect(await short.live(free.saltKey)).toBeUndefined();
    expect(await short.live(bound.saltKey)).toBeDefined();
    // a new start-up with the expired one's request key gets a new session
    const again = await short.sessionFor(REQUEST_KEY, () => true);
    expect(again.saltKey).not.toBe(free.saltKey);
    now += 60_001;
    expect(await short.purgeUnused()).toBe(2);
    expect(await fx.store.keys.bySaltKey(bound.saltKey)).toBeUndefined();
    // an unbound TTL longer than the TTL is the TTL
    const longer = new Identity(fx.store, 60_000, () => now, async () => [], 120_000);
    const s = await longer.sessionFor(REQUEST_KEY, () => true);
    now += 60_001;
    expect(await longer.live(s.saltKey)).toBeUndefined();
  });

  it('refuses a new one when the limit says no, and creates nothing', async () => {
    await expect(identity.sessionFor(REQUEST_KEY, () => false)).rejects.toThrow(/too frequent/);
    expect(await fx.store.keys.byRequestKey(REQUEST_KEY)).toBeUndefined();
  });
});

describe('live key sessions (the socket\'s connect check)', () => {
  it('answers a live one, undefined for an unknown, empty or expired one', async () => {
    const session = await identity.sessionFor(REQUEST_KEY, () => true);
    expect(await identity.live(session.saltKey)).toMatchObject({ saltKey: session.saltKey });
    expect(await identity.live('unknown')).toBeUndefined();
    expect(await identity.live('')).toBeUndefined();
    now += 60_001;
    expect(await identity.live(session.saltKey)).toBeUndefined();
  });
});

describe('binding and claims (protocol §3a)', () => {
  it('a key session is bound to the first identity, again to that one, never to another', async () => {
    const session = await identity.sessionFor(REQUEST_KEY, () => true);
    expect(await identity.bind(session.saltKey, F.plain)).toBe(true);
    expect(await identity.bind(session.saltKey, F.plain)).toBe(true);
    expect(await identity.bind(session.saltKey, F.banned)).toBe(false);
    expect((await fx.store.keys.bySaltKey(session.saltKey))?.boundTo).toBe(F.plain);
  });

  it('an unseen id is claimed once, its secret stored only as a hash; the secret then proves it', async () => {
    expect(await identity.checkClaim(F.plain, 'anything')).toBe('unclaimed');
    expect(await identity.claim(F.plain, 'the-secret')).toBe(true);
    expect(await fx.store.identity.secretHash(F.plain)).toBe(hashSecret('the-secret'));
    expect(await identity.claim(F.plain, 'another-secret')).toBe(false);
    expect(await identity.checkClaim(F.plain, 'the-secret')).toBe('matches');
    expect(await identity.checkClaim(F.plain, 'another-secret')).toBe('mismatch');
    expect(await identity.checkClaim(F.plain, undefined)).toBe('mismatch');
  });
});

describe('who may act for whom (protocol §3a.3)', () => {
  it('a visitor only for itself; an agent only for the visitors assigned to it', async () => {
    expect(roleOf('agent:alice')).toBe('agent');
    expect(roleOf(F.plain)).toBe('visitor');
    expect(await identity.mayActFor(F.plain, F.plain)).toBe(true);
    expect(await identity.mayActFor(F.plain, F.banned)).toBe(false);
    expect(await identity.mayActFor('agent:alice', F.plain)).toBe(false);
    expect(await identity.mayActFor('agent:alice', '')).toBe(false);
    await fx.services.conversations.triggerUpdate({ clientId: F.plain, mchId: F.mchId, platformId: F.platformId, language: 'en' });
    const open = await fx.store.chat.latestSession(F.plain, F.mchId, F.platformId);
    if (!open) throw new Error('triggerUpdate started no session');
    await fx.store.chat.updateSession({ ...open, state: 'queued', queuedAt: 1 });
    expect(await fx.store.chat.claimQueued(F.plain, 'agent:alice', 2, [F.mchId])).toBeDefined();
    expect(await identity.mayActFor('agent:alice', F.plain)).toBe(true);
    expect(await identity.mayActFor('agent:alice', F.plain, F.mchId)).toBe(true);
    expect(await identity.mayActFor('agent:bob', F.plain)).toBe(false);
    // the visitor's conversation with another merchant is not alice's to name
    expect(await identity.mayActFor('agent:alice', F.plain, F.otherMchId)).toBe(false);
  });

  it('an agent of another merchant names none of this merchant’s visitors, even one once assigned to it', async () => {
    await fx.services.conversations.triggerUpdate({ clientId: F.plain, mchId: F.mchId, platformId: F.platformId, language: 'en' });
    const open = await fx.store.chat.latestSession(F.plain, F.mchId, F.platformId);
    if (!open) throw new Error('triggerUpdate started no session');
    await fx.store.chat.updateSession({ ...open, state: 'active', agentId: 'agent:mallory', acceptedAt: 2 });
    expect(await identity.mayActFor('agent:mallory', F.plain)).toBe(false);
    expect(await identity.mayActFor('agent:mallory', F.plain, F.mchId)).toBe(false);
    expect(await identity.merchantsOf('agent:mallory')).toEqual([F.otherMchId]);
    expect(await identity.merchantsOf(F.plain)).toEqual([]);
  });
});
