/** The desk services: canned replies (rules, limits) and past conversations (agents only). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { MAX_CANNED_PER_MERCHANT } from '../../src/services/canned.js';
import { MAX_ARRIVAL_PARAMS, MAX_ARRIVAL_VALUE, parseArrival } from '../../src/services/arrivals.js';
import { Past } from '../../src/services/past.js';
import type { MessageRecord } from '../../src/store/types.js';
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

describe('canned replies: update', () => {
  it('replaces title, text and shortcut (checked as on add); keeps id and creation time', async () => {
    const added = await fx.services.canned.add(reply);
    const updated = await fx.services.canned.update(added.id, { mchId: F.mchId, title: ' Welcome ', text: 'Welcome back!', shortcut: '/welcome' });
    expect(updated).toEqual({ ...added, title: 'Welcome', text: 'Welcome back!', shortcut: 'welcome' });
    expect(await fx.services.canned.list(F.mchId)).toEqual([updated]);
  });

  it('refuses a shortcut another reply of the merchant has, bad fields (1001), an unknown or another merchant’s reply (1003)', async () => {
    const hi = await fx.services.canned.add(reply);
    const bye = await fx.services.canned.add({ ...reply, shortcut: 'bye', text: 'Goodbye' });
    const elsewhere = await fx.services.canned.add({ ...reply, mchId: F.otherMchId, shortcut: 'bye' });
    expect(await refusalOf(fx.services.canned.update(bye.id, { ...reply, shortcut: 'hi' }))).toEqual({ code: Code.BadRequest, message: 'the shortcut /hi is taken' });
    expect((await refusalOf(fx.services.canned.update(bye.id, { ...reply, shortcut: 'a b' }))).message).toMatch(/shortcut/);
    expect((await refusalOf(fx.services.canned.update(bye.id, { ...reply, shortcut: 'bye', title: ' ' }))).message).toMatch(/title/);
    expect((await refusalOf(fx.services.canned.update(bye.id, { ...reply, shortcut: 'bye', text: 'y'.repeat(2001) }))).message).toMatch(/text/);
    expect(await refusalOf(fx.services.canned.update('no-such-id', reply))).toMatchObject({ code: Code.NotFound });
    expect(await refusalOf(fx.services.canned.update(elsewhere.id, { ...reply, shortcut: 'other' }))).toMatchObject({ code: Code.NotFound });
    expect(await fx.services.canned.list(F.mchId)).toEqual([bye, hi]);
    expect(await fx.services.canned.list(F.otherMchId)).toEqual([elsewhere]);
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

  it('the agent who transferred a conversation closes it off its desk; nobody else, and not across merchants (4003)', async () => {
    const active = { sessionId: 's-moved', clientId: F.plain, mchId: F.mchId, platformId: F.platformId, state: 'active' as const, agentId: 'agent:alice', createdAt: 1, queuedAt: 2, acceptedAt: 3, endedAt: null, score: null, remark: null };
    await fx.store.chat.createSession(active);
    await fx.store.chat.reassign('s-moved', 'agent:alice', 'agent:bob', 10, 3);
    expect(await fx.store.desk.deskTransferred('agent:alice', 10)).toHaveLength(1);
    // the agent it went to serves it: nothing to close; another agent never had it; another merchant's agent neither
    expect(await refusalOf(fx.services.past.close('agent:bob', 's-moved', [F.mchId]))).toMatchObject({ code: Code.Forbidden });
    expect(await refusalOf(fx.services.past.close('agent:mallory', 's-moved', [F.mchId]))).toMatchObject({ code: Code.Forbidden });
    expect(await refusalOf(fx.services.past.close('agent:alice', 's-moved', [F.otherMchId]))).toMatchObject({ code: Code.Forbidden });
    expect(await refusalOf(fx.services.past.close('agent:alice', 'nope', [F.mchId]))).toMatchObject({ code: Code.Forbidden });
    expect(await fx.store.desk.deskTransferred('agent:alice', 10)).toHaveLength(1);
    expect(await fx.services.past.close('agent:alice', 's-moved', [F.mchId])).toBe(true);
    expect(await fx.services.past.close('agent:alice', 's-moved', [F.mchId])).toBe(true);
    expect(await fx.store.desk.deskTransferred('agent:alice', 10)).toEqual([]);
    expect(await fx.store.chat.session('s-moved')).toMatchObject({ state: 'active', agentId: 'agent:bob' });
  });

  it('a queued visitor’s transcript is readable by agents until it is no longer queued', async () => {
    const queued = { sessionId: 's-q', clientId: F.plain, mchId: F.mchId, platformId: F.platformId, state: 'queued' as const, agentId: null, createdAt: 1, queuedAt: 2, acceptedAt: null, endedAt: null, score: null, remark: null };
    await fx.store.chat.createSession(queued);
    expect(await fx.services.past.queued('agent:alice', F.plain, F.mchId, F.platformId)).toMatchObject({ session: { sessionId: 's-q' } });
    expect(await refusalOf(fx.services.past.queued(F.plain, F.plain, F.mchId, F.platformId))).toMatchObject({ code: Code.Forbidden });
    await fx.store.chat.updateSession({ ...queued, state: 'active', agentId: 'agent:bob' });
    expect(await refusalOf(fx.services.past.queued('agent:alice', F.plain, F.mchId, F.platformId))).toMatchObject({ code: Code.Forbidden });
  });

  it('a queued visitor’s transcript holds only what it wrote in its current conversation', async () => {
    const base = { clientId: F.plain, mchId: F.mchId, platformId: F.platformId, agentId: null, queuedAt: null, acceptedAt: null, endedAt: null, score: null, remark: null };
    await fx.store.chat.createSession({ ...base, sessionId: 's-old', state: 'ended', createdAt: 1, agentId: 'agent:alice', endedAt: 5 });
    await fx.store.chat.createSession({ ...base, sessionId: 's-now', state: 'queued', createdAt: 10, queuedAt: 12 });
    const msg = (fp: string, sessionId: string, from: string, type: number, t: number): MessageRecord => ({
      fp, type, from, to: from === F.plain ? 'robot' : F.plain, fn: '', tn: '', fa: '', ta: '', mchId: F.mchId, platformId: F.platformId,
      clientId: F.plain, groupId: null, sessionId, dataContent: fp, isRead: 0, robot: from === 'robot' ? 1 : 0, isGroup: 0, createTime: t, cm: null,
    });
    await fx.store.chat.insertMessage(msg('earlier', 's-old', F.plain, 100, 2));
    await fx.store.chat.insertMessage(msg('agent-said', 's-old', 'agent:alice', 100, 3));
    await fx.store.chat.insertMessage(msg('asked', 's-now', F.plain, 100, 11));
    await fx.store.chat.insertMessage(msg('robot-said', 's-now', 'robot', 200, 11));
    await fx.store.chat.insertMessage(msg('picture', 's-now', F.plain, 101, 12));
    const transcript = await fx.services.past.queued('agent:alice', F.plain, F.mchId, F.platformId);
    expect(transcript.messages.map((m) => m.dataContent)).toEqual(['asked', 'picture']);
  });

  it('refuses a queued visitor of another platform or merchant, an unknown one and one talking to the robot', async () => {
    const base = { clientId: F.plain, mchId: F.mchId, platformId: F.platformId, agentId: null, createdAt: 1, queuedAt: 2, acceptedAt: null, endedAt: null, score: null, remark: null };
    await fx.store.chat.createSession({ ...base, sessionId: 's-q', state: 'queued' });
    await fx.store.chat.createSession({ ...base, sessionId: 's-r', clientId: F.blacklisted, state: 'robot' });
    const refused = async (call: Promise<unknown>): Promise<number> => (await refusalOf(call)).code;
    expect(await refused(fx.services.past.queued('agent:alice', F.plain, F.otherMchId, F.platformId))).toBe(Code.Forbidden);
    expect(await refused(fx.services.past.queued('agent:alice', F.plain, F.mchId, F.disabledPlatformId))).toBe(Code.Forbidden);
    expect(await refused(fx.services.past.queued('agent:alice', 'nobody', F.mchId, F.platformId))).toBe(Code.Forbidden);
    expect(await refused(fx.services.past.queued('agent:alice', F.blacklisted, F.mchId, F.platformId))).toBe(Code.Forbidden);
    // an agent naming another merchant is refused by the route (agent.requireMerchant: test/integration/agent-merchants.test.ts)
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
    expect(context).toMatchObject({ entry: {}, arrivedAt: null, deposit: null });
  });

  it('shows what the visitor arrived with and the deposit card of the order it named (only the merchant’s own orders)', async () => {
    await fx.store.directory.putOrder({ mchId: F.mchId, orderNo: 'ORD-9', userAccount: 'ann', userMchId: 'U-1', amount: '88.00', status: 'success' });
    await fx.store.directory.putOrder({ mchId: F.otherMchId, orderNo: 'ORD-X', userAccount: 'bob', userMchId: 'U-2', amount: '1.00', status: 'pending' });
    await fx.services.arrivals.record(F.plain, F.mchId, F.platformId, { kefuId: '77', cpay: 'ORD-9', 'json.account': 'ann' });
    const context = await fx.services.past.context(F.plain, F.mchId, F.platformId);
    expect(context.entry).toEqual({ kefuId: '77', cpay: 'ORD-9', 'json.account': 'ann' });
    expect(context.arrivedAt).toEqual(expect.any(Number));
    expect(context.deposit).toEqual({ userAccount: 'ann', userMchId: 'U-1', mchOrderNo: 'ORD-9', amount: '88.00', status: 'success' });
    // an arrival without parameters keeps the earlier one; another merchant's order shows no card
    await fx.services.arrivals.record(F.plain, F.mchId, F.platformId, {});
    expect((await fx.services.past.context(F.plain, F.mchId, F.platformId)).entry.kefuId).toBe('77');
    await fx.services.arrivals.record(F.plain, F.mchId, F.platformId, { cpay: 'ORD-X' });
    expect(await fx.services.past.context(F.plain, F.mchId, F.platformId)).toMatchObject({ entry: { cpay: 'ORD-X' }, deposit: null });
  });
});

describe('arrivals: parsing d.entry', () => {
  it('keeps strings, numbers and booleans under well-formed names, trimmed and cut; drops the rest', () => {
    expect(parseArrival({ kefuId: 77, isapp: true, cpay: ' ORD-1 ', 'json.account': 'ann', empty: '', nested: { a: 1 }, list: [1], nan: Number.NaN, 'bad name': 'x', ['x'.repeat(33)]: 'long name' })).toEqual({
      kefuId: '77',
      isapp: 'true',
      cpay: 'ORD-1',
      'json.account': 'ann',
    });
    expect(parseArrival({ long: 'v'.repeat(5000) }).long).toHaveLength(MAX_ARRIVAL_VALUE);
    expect(Object.keys(parseArrival(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v']))))).toHaveLength(MAX_ARRIVAL_PARAMS);
    for (const bad of [undefined, null, 'text', 42, ['a'], JSON.parse('{"__proto__":{"polluted":"yes"}}')]) expect(parseArrival(bad)).toEqual({});
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
