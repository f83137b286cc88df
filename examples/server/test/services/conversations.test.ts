/**
 * The conversation service: the robot's answer to a chosen question (known and unknown), history
 * pages, rating once, the session update, and the FAQ reads.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { T } from '../../src/chat/wire.js';
import { Code } from '../../src/http/envelope.js';
import { F, recordingPeer, refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
beforeEach(async () => {
  fx = await serviceFixture();
});
afterEach(async () => {
  await fx.close();
});

const plain = { clientId: F.plain, mchId: F.mchId, platformId: F.platformId, language: 'en' };

describe('the robot answers a chosen question', () => {
  it('a known question: the visitor\'s question then the robot\'s answer, stored in the open session and pushed', async () => {
    const peer = recordingPeer(F.plain);
    fx.ctx.hub.add(peer);
    const answer = await fx.services.conversations.ask(plain, F.questionId);
    expect(answer).toEqual({ id: F.questionId, question: F.question, answer: F.answer });

    const session = await fx.store.chat.latestSession(F.plain, F.mchId, F.platformId);
    expect(session?.state).toBe('robot');
    const stored = await fx.store.chat.conversation(F.plain, F.mchId, F.platformId, { size: 101 });
    const asked = stored.find((m) => m.type === T.Text);
    expect(asked).toMatchObject({ from: F.plain, to: 'robot', dataContent: F.question, sessionId: session?.sessionId, fn: `${F.plain} stored` });
    const robot = stored.filter((m) => m.type === T.RobotText && m.dataContent === F.answer);
    expect(robot).toHaveLength(1);
    expect(robot[0]).toMatchObject({ from: 'robot', robot: 1, sessionId: session?.sessionId });
    expect(robot[0]?.fn).toBe('Shop Assistant'); // the merchant's robot, in the visitor's language
    expect((asked?.createTime ?? 0) < (robot[0]?.createTime ?? 0)).toBe(true);
    // both reached the visitor's connection, the question first
    const pushed = peer.sent.filter((m) => m.dataContent === F.question || m.dataContent === F.answer).map((m) => m.dataContent);
    expect(pushed).toEqual([F.question, F.answer]);
  });

  it('asking twice uses the one open session', async () => {
    await fx.services.conversations.ask(plain, F.questionId);
    const first = await fx.store.chat.latestSession(F.plain, F.mchId, F.platformId);
    await fx.services.conversations.ask(plain, F.questionId);
    expect((await fx.store.chat.latestSession(F.plain, F.mchId, F.platformId))?.sessionId).toBe(first?.sessionId);
  });

  it('an unknown question, or one of another platform: 1003 "Unknown question", nothing stored', async () => {
    const unknown = { code: Code.NotFound, message: 'Unknown question' };
    expect(await refusalOf(fx.services.conversations.ask(plain, 'q-none'))).toEqual(unknown);
    expect(await refusalOf(fx.services.conversations.ask(plain, F.otherPlatformQuestionId))).toEqual(unknown);
    expect(await fx.store.chat.latestSession(F.plain, F.mchId, F.platformId)).toBeUndefined();
    expect(await fx.store.chat.conversation(F.plain, F.mchId, F.platformId, { size: 101 })).toEqual([]);
  });

  it('a disabled platform is refused before anything else (1003)', async () => {
    const refused = await refusalOf(fx.services.conversations.ask({ ...plain, platformId: F.disabledPlatformId }, F.otherPlatformQuestionId));
    expect(refused).toEqual({ code: Code.NotFound, message: 'This platform is not enabled' });
  });
});

describe('history pages', () => {
  it('pages backwards with hasMore, forwards by afterSeq', async () => {
    await fx.services.conversations.triggerUpdate(plain); // created, suggestions, greeting
    for (let i = 0; i < 3; i += 1) await fx.services.conversations.ask(plain, F.questionId); // 6 more
    const all = await fx.services.conversations.history(F.plain, F.mchId, F.platformId, { size: 100 });
    expect(all.hasMore).toBe(false);
    expect(all.list).toHaveLength(9);
    const last = await fx.services.conversations.history(F.plain, F.mchId, F.platformId, { size: 4 });
    expect(last).toMatchObject({ hasMore: true });
    expect(last.list.map((m) => m.fp)).toEqual(all.list.slice(5).map((m) => m.fp));
    const afterThird = await fx.services.conversations.history(F.plain, F.mchId, F.platformId, { afterSeq: 3, size: 2 });
    expect(afterThird).toMatchObject({ hasMore: true });
    expect(afterThird.list.map((m) => m.fp)).toEqual(all.list.slice(3, 5).map((m) => m.fp));
  });

  it('refuses an unknown platform (1003)', async () => {
    expect((await refusalOf(fx.services.conversations.history(F.plain, F.otherMchId, F.platformId, { size: 5 }))).message).toBe('Unknown merchant or platform');
  });
});

describe('rating: once per session', () => {
  it('rates the latest session, then answers 2002; no session to rate is 1003', async () => {
    const rating = { ...plain, sessionId: '', score: 4, remark: 'ok' };
    expect(await refusalOf(fx.services.conversations.rate(rating))).toEqual({ code: Code.NotFound, message: 'There is no conversation to rate' });
    const { session } = await fx.services.conversations.triggerUpdate(plain);
    expect(await fx.services.conversations.rate(rating)).toEqual({ sessionId: session.sessionId, score: 4 });
    expect(await fx.store.chat.session(session.sessionId)).toMatchObject({ score: 4, remark: 'ok' });
    expect((await refusalOf(fx.services.conversations.rate({ ...rating, sessionId: session.sessionId, score: 1 }))).code).toBe(Code.AlreadyRated);
    expect(await fx.store.chat.session(session.sessionId)).toMatchObject({ score: 4 });
  });
});

describe('triggerUpdate', () => {
  it('starts a session when none is open, else answers the open one', async () => {
    const first = await fx.services.conversations.triggerUpdate(plain);
    expect(first.session).toMatchObject({ state: 'robot' });
    const second = await fx.services.conversations.triggerUpdate(plain);
    expect(second.session.sessionId).toBe(first.session.sessionId);
  });
});

describe('FAQ reads', () => {
  it('categories in the asked language, else the first the merchant wrote; questions like a keyword', async () => {
    const expected = [{ id: 'c-pay', name: 'Payments', questions: [{ id: F.questionId, question: F.question }] }];
    expect(await fx.services.conversations.faqCategories(F.mchId, F.platformId, 'en-GB')).toEqual(expected);
    expect(await fx.services.conversations.faqCategories(F.mchId, F.platformId, 'zh')).toEqual(expected);
    expect(await fx.services.conversations.questionsLike(F.mchId, F.platformId, 'deposit')).toEqual([{ id: F.questionId, question: F.question }]);
    expect(await fx.services.conversations.questionsLike(F.mchId, F.platformId, 'zzz')).toEqual([]);
  });
});
