/**
 * The visitor service: the ban and blacklist rule in one place, and every entry point (HTTP
 * calls through the services, the socket's admission and its messages) refusing a banned
 * visitor the same way.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Messaging } from '../../src/chat/messaging.js';
import { T } from '../../src/chat/wire.js';
import { Code } from '../../src/http/envelope.js';
import { visitorRefusal } from '../../src/services/visitors.js';
import { F, refusalOf, recordingPeer, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
beforeEach(async () => {
  fx = await serviceFixture();
});
afterEach(async () => {
  await fx.close();
});


const BANNED = { code: Code.Banned, message: 'Access denied: please contact the administrator' };

describe('the rule: banned is refused everything, blacklisted is refused sending and rating', () => {
  it('answers per flag and action', () => {
    const plain = { banned: false, blacklisted: false };
    const black = { banned: false, blacklisted: true };
    const banned = { banned: true, blacklisted: false };
    expect(['use', 'send', 'rate'].map((a) => visitorRefusal(undefined, a as 'use'))).toEqual([undefined, undefined, undefined]);
    expect(['use', 'send', 'rate'].map((a) => visitorRefusal(plain, a as 'use'))).toEqual([undefined, undefined, undefined]);
    expect(['use', 'send', 'rate'].map((a) => visitorRefusal(black, a as 'use'))).toEqual([undefined, 'blacklisted', 'blacklisted']);
    expect(['use', 'send', 'rate'].map((a) => visitorRefusal(banned, a as 'use'))).toEqual(['banned', 'banned', 'banned']);
    expect(visitorRefusal({ banned: true, blacklisted: true }, 'rate')).toBe('banned');
  });

  it('requireAllowed throws 2003 for banned, 2001 for a blacklisted rating, nothing otherwise', async () => {
    const { visitors } = fx.services;
    expect(await refusalOf(visitors.requireAllowed(F.banned))).toEqual(BANNED);
    expect(await refusalOf(visitors.requireAllowed(F.blacklisted, 'rate'))).toEqual({ code: Code.Blacklisted, message: 'You have been blacklisted and cannot use the review function' });
    await expect(visitors.requireAllowed(F.blacklisted)).resolves.toBeUndefined();
    await expect(visitors.requireAllowed(F.plain, 'rate')).resolves.toBeUndefined();
    await expect(visitors.requireAllowed('never-seen', 'send')).resolves.toBeUndefined();
    expect(await visitors.isBanned(F.banned)).toBe(true);
    expect(await visitors.isBanned(F.blacklisted)).toBe(false);
  });
});

describe('a banned visitor is refused the same way by every entry point', () => {
  it('HTTP calls answer 2003 with one message; the socket refuses it at connect and its messages with `banned`; nothing is stored', async () => {
    const { conversations, visitors, groups } = fx.services;
    const caller = { clientId: F.banned, mchId: F.mchId, platformId: F.platformId, language: 'en' };
    const http = await Promise.all([
      refusalOf(conversations.history(F.banned, F.mchId, F.platformId, { size: 20 })),
      refusalOf(conversations.groupHistory(F.openGroupId, F.banned, { size: 20 })),
      refusalOf(conversations.rate({ ...caller, sessionId: '', score: 5, remark: '' })),
      refusalOf(conversations.ask(caller, F.questionId)),
      refusalOf(conversations.triggerUpdate(caller)),
      refusalOf(visitors.requireAllowed(F.banned)), // createMsg, getGroupInfo
    ]);
    expect(http).toEqual(Array.from({ length: http.length }, () => BANNED));

    // the socket's admission asks the same rule
    expect(await visitors.refusal(F.banned, 'use')).toBe('banned');
    // and so do its messages
    const peer = recordingPeer(F.banned);
    const messaging = new Messaging(fx.ctx, fx.sessions, () => true, fx.services);
    await messaging.handle(peer, { type: T.Text, fp: 'fp-banned-1', to: 'robot', dataContent: 'hello' });
    expect(peer.sent).toHaveLength(1);
    expect(peer.sent[0]?.type).toBe(T.Refusal);
    expect(JSON.parse(peer.sent[0]?.dataContent ?? '')).toEqual({ reason: 'banned', fp: 'fp-banned-1' });

    expect(await fx.store.chat.latestSession(F.banned, F.mchId, F.platformId)).toBeUndefined();
    expect(await fx.store.chat.message('fp-banned-1')).toBeUndefined();
    expect(await groups.isMember(F.openGroupId, F.banned)).toBe(false);
  });

  it('a blacklisted visitor reads but is refused sending (socket) and rating (HTTP)', async () => {
    const peer = recordingPeer(F.blacklisted);
    const messaging = new Messaging(fx.ctx, fx.sessions, () => true, fx.services);
    await messaging.handle(peer, { type: T.Text, fp: 'fp-black-1', to: 'robot', dataContent: 'hello' });
    expect(JSON.parse(peer.sent[0]?.dataContent ?? '')).toEqual({ reason: 'blacklisted', fp: 'fp-black-1' });
    const rated = await refusalOf(fx.services.conversations.rate({ clientId: F.blacklisted, mchId: F.mchId, platformId: F.platformId, sessionId: '', score: 5, remark: '' }));
    expect(rated.code).toBe(Code.Blacklisted);
    await expect(fx.services.conversations.history(F.blacklisted, F.mchId, F.platformId, { size: 20 })).resolves.toEqual({ list: [], hasMore: false });
  });
});

describe('saveOnConnect: the visitor upsert of an accepted socket', () => {
  it('stores a new visitor, unflagged, first and last seen now', async () => {
    const saved = await fx.services.visitors.saveOnConnect({ clientId: 'v-new', name: 'New', avatar: '/n.png', language: 'zh' });
    expect(saved).toMatchObject({ clientId: 'v-new', name: 'New', banned: false, blacklisted: false });
    expect(saved.createdAt).toBe(saved.lastSeen);
    expect(await fx.store.chat.visitor('v-new')).toMatchObject({ name: 'New', avatar: '/n.png', language: 'zh', banned: false });
  });

  it('updates name, avatar, language and last seen of a known visitor and keeps its flags and first-seen time', async () => {
    const before = await fx.store.chat.visitor(F.banned);
    const saved = await fx.services.visitors.saveOnConnect({ clientId: F.banned, name: 'Renamed', avatar: '/r.png', language: 'zh' });
    expect(saved).toMatchObject({ name: 'Renamed', avatar: '/r.png', language: 'zh', banned: true, blacklisted: false, createdAt: before?.createdAt });
    expect(await fx.store.chat.visitor(F.banned)).toMatchObject({ name: 'Renamed', banned: true });
    expect(await fx.services.visitors.isBanned(F.banned)).toBe(true);
  });
});

describe('ref: the visitor in a conversation, stored or with defaults', () => {
  it('uses the stored profile, else a name from the client id in the fallback language', async () => {
    const { visitors } = fx.services;
    expect(await visitors.ref(F.plain, F.mchId, F.platformId, 'zh')).toMatchObject({ name: `${F.plain} stored`, avatar: `/a/${F.plain}.png`, language: 'en' });
    expect(await visitors.ref('abcdef', F.mchId, F.platformId, 'zh-CN')).toMatchObject({ name: '访客abcd', language: 'zh-CN' });
    const en = await visitors.ref('abcdef', F.mchId, F.platformId, 'en');
    expect(en.name).toBe('Visitor abcd');
    expect(en.avatar.startsWith('data:image/svg+xml')).toBe(true);
  });
});
