/** The desk services: canned replies (rules, limits) and past conversations (agents only). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { MAX_CANNED_PER_MERCHANT } from '../../src/services/canned.js';
import { F, refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
beforeEach(async () => {
  fx = await serviceFixture();
});
afterEach(async () => {
  await fx.close();
});

const reply = { mchId: F.mchId, title: 'Greeting', text: 'Hello, how can I help?', shortcut: 'hi' };

describe('canned replies', () => {
  it('adds (a leading / dropped, fields trimmed), lists by shortcut, removes once', async () => {
    const added = await fx.services.canned.add({ ...reply, shortcut: '/hi', title: ' Greeting ' });
    expect(added).toMatchObject(reply);
    await fx.services.canned.add({ ...reply, shortcut: 'bye', text: 'Goodbye' });
    expect((await fx.services.canned.list(F.mchId)).map((r) => r.shortcut)).toEqual(['bye', 'hi']);
    expect(await fx.services.canned.list(F.otherMchId)).toEqual([]);
    await fx.services.canned.remove(F.mchId, added.id);
    expect(await refusalOf(fx.services.canned.remove(F.mchId, added.id))).toMatchObject({ code: Code.NotFound });
  });

  it('refuses bad fields, a taken shortcut and a merchant at the limit with 1001', async () => {
    await fx.services.canned.add(reply);
    expect(await refusalOf(fx.services.canned.add(reply))).toEqual({ code: Code.BadRequest, message: 'the shortcut /hi is taken' });
    expect((await refusalOf(fx.services.canned.add({ ...reply, shortcut: 'a b' }))).message).toMatch(/shortcut/);
    expect((await refusalOf(fx.services.canned.add({ ...reply, shortcut: 'x', title: '' }))).message).toMatch(/title/);
    expect((await refusalOf(fx.services.canned.add({ ...reply, shortcut: 'x', text: 'y'.repeat(2001) }))).message).toMatch(/text/);
    for (let i = 1; i < MAX_CANNED_PER_MERCHANT; i += 1) await fx.services.canned.add({ ...reply, shortcut: `s${i}` });
    expect((await refusalOf(fx.services.canned.add({ ...reply, shortcut: 'one-more' }))).message).toMatch(/at most 200/);
  });
});

describe('past conversations', () => {
  it('lists and opens ended conversations for agents; visitors get 4003', async () => {
    const ended = { sessionId: 's-ended', clientId: F.plain, mchId: F.mchId, platformId: F.platformId, state: 'ended' as const, agentId: 'agent:alice', createdAt: 1, queuedAt: 2, acceptedAt: 3, endedAt: 4, score: 5, remark: null };
    await fx.store.chat.createSession(ended);
    const page = await fx.services.past.list('agent:alice', { offset: 0, size: 10, mchIds: [F.mchId] });
    expect(page).toMatchObject({ hasMore: false, list: [{ sessionId: 's-ended', score: 5 }] });
    expect(await fx.services.past.open('agent:bob', 's-ended', [F.mchId])).toMatchObject({ session: { sessionId: 's-ended', visitorName: expect.any(String) }, messages: [] });
    expect(await refusalOf(fx.services.past.list(F.plain, { offset: 0, size: 10, mchIds: [] }))).toMatchObject({ code: Code.Forbidden });
    expect(await refusalOf(fx.services.past.open(F.plain, 's-ended', [F.mchId]))).toMatchObject({ code: Code.Forbidden });
    expect(await refusalOf(fx.services.past.open('agent:alice', 'nope', [F.mchId]))).toMatchObject({ code: Code.NotFound });
  });

  it('an agent of another merchant neither lists, opens nor closes them (4003)', async () => {
    const ended = { sessionId: 's-ended', clientId: F.plain, mchId: F.mchId, platformId: F.platformId, state: 'ended' as const, agentId: 'agent:alice', createdAt: 1, queuedAt: 2, acceptedAt: 3, endedAt: 4, score: 5, remark: null };
    await fx.store.chat.createSession(ended);
    expect(await fx.services.past.list('agent:mallory', { offset: 0, size: 10, mchIds: [F.otherMchId] })).toEqual({ list: [], hasMore: false });
    expect(await refusalOf(fx.services.past.open('agent:mallory', 's-ended', [F.otherMchId]))).toMatchObject({ code: Code.Forbidden });
    // even the agent who served it, once no longer of that merchant
    expect(await refusalOf(fx.services.past.close('agent:alice', 's-ended', [F.otherMchId]))).toMatchObject({ code: Code.Forbidden });
    expect(await fx.store.desk.deskEnded('agent:alice', 10)).toHaveLength(1);
    expect(await fx.services.past.close('agent:alice', 's-ended', [F.mchId])).toBe(true);
    expect(await fx.store.desk.deskEnded('agent:alice', 10)).toEqual([]);
  });

  it('a queued visitor’s transcript is readable by agents until it is no longer queued', async () => {
    const queued = { sessionId: 's-q', clientId: F.plain, mchId: F.mchId, platformId: F.platformId, state: 'queued' as const, agentId: null, createdAt: 1, queuedAt: 2, acceptedAt: null, endedAt: null, score: null, remark: null };
    await fx.store.chat.createSession(queued);
    expect(await fx.services.past.queued('agent:alice', F.plain, F.mchId, F.platformId)).toMatchObject({ session: { sessionId: 's-q' } });
    expect(await refusalOf(fx.services.past.queued(F.plain, F.plain, F.mchId, F.platformId))).toMatchObject({ code: Code.Forbidden });
    await fx.store.chat.updateSession({ ...queued, state: 'active', agentId: 'agent:bob' });
    expect(await refusalOf(fx.services.past.queued('agent:alice', F.plain, F.mchId, F.platformId))).toMatchObject({ code: Code.Forbidden });
  });
});

describe('visitor context', () => {
  it('names the visitor, the merchant and platform, counts its ended conversations and gives the last rating', async () => {
    const base = { clientId: F.plain, mchId: F.mchId, platformId: F.platformId, agentId: 'agent:alice', createdAt: 1, queuedAt: 2, acceptedAt: 3, remark: null };
    await fx.store.chat.createSession({ ...base, sessionId: 'a', state: 'ended', endedAt: 10, score: 4 });
    await fx.store.chat.createSession({ ...base, sessionId: 'b', state: 'ended', endedAt: 20, score: null });
    await fx.store.chat.createSession({ ...base, sessionId: 'c', mchId: F.otherMchId, state: 'ended', endedAt: 30, score: 1 });
    const context = await fx.services.past.context(F.plain, F.mchId, F.platformId);
    expect(context).toMatchObject({ clientId: F.plain, mchId: F.mchId, platformId: F.platformId, pastConversations: 2, lastRating: 4 });
    expect(context.merchantName).not.toBe('');
    expect(context.firstSeen).toBeGreaterThan(0);
    expect(await refusalOf(fx.services.past.context('nobody', F.mchId, F.platformId))).toMatchObject({ code: Code.NotFound });
  });
});
