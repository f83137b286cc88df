/**
 * The typing relay (type 105, protocol §5a): only between a visitor and the agent assigned to its
 * active conversation, one frame per second per sender, the draft only with sneak peek on and cut
 * to 200 characters, nothing stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Messaging } from '../../src/chat/messaging.js';
import { T } from '../../src/chat/wire.js';
import { loadConfig } from '../../src/config.js';
import { capPreview, PREVIEW_MAX_CHARS, readTypingSignal, sneakPeekOn, Typing } from '../../src/services/typing.js';
import type { ServiceSession } from '../../src/store/types.js';
import { F, recordingPeer, serviceFixture, type RecordingPeer, type ServiceFixture } from './fixture.js';

const ALICE = 'agent:alice';
const BOB = 'agent:bob';
const OTHER = 'v-other';

let fx: ServiceFixture;
let now: number;
let typing: Typing;
let messaging: Messaging;
let peers: Record<'visitor' | 'other' | 'alice' | 'bob', RecordingPeer>;

function active(clientId: string, agentId: string): ServiceSession {
  return { sessionId: `s-${clientId}`, clientId, mchId: F.mchId, platformId: F.platformId, state: 'active', agentId, createdAt: 1, queuedAt: 1, acceptedAt: 2, endedAt: null, score: null, remark: null };
}

function frame(state: 'typing' | 'paused', extra: Record<string, unknown> = {}): { type: number; dataContent: string; fp: string; [key: string]: unknown } {
  const { preview, ...rest } = extra;
  return { type: T.Typing, fp: `fp-${Math.random().toString(36).slice(2)}`, dataContent: JSON.stringify(preview === undefined ? { state } : { state, preview }), ...rest };
}

const typingFrames = (peer: RecordingPeer) => peer.sent.filter((m) => m.type === T.Typing);

beforeEach(async () => {
  fx = await serviceFixture();
  now = 10_000;
  typing = new Typing(fx.store, [], fx.services.visitors, () => now);
  messaging = new Messaging(fx.ctx, fx.sessions, () => true, { ...fx.services, typing });
  peers = { visitor: recordingPeer(F.plain), other: recordingPeer(OTHER), alice: recordingPeer(ALICE, 'agent'), bob: recordingPeer(BOB, 'agent') };
  for (const peer of Object.values(peers)) fx.ctx.hub.add(peer);
  await fx.store.chat.createSession(active(F.plain, ALICE));
  await fx.store.chat.createSession(active(OTHER, BOB));
});
afterEach(async () => {
  await fx.close();
});

describe('relay: visitor <-> its assigned agent, and nobody else', () => {
  it('a visitor\'s typing reaches its agent only: not another visitor, not another agent, not itself', async () => {
    await messaging.handle(peers.visitor, frame('typing'));
    expect(typingFrames(peers.alice)).toHaveLength(1);
    expect(typingFrames(peers.alice)[0]).toMatchObject({ type: 105, from: F.plain, to: ALICE, fn: `${F.plain} name`, dataContent: '{"state":"typing"}' });
    for (const peer of [peers.other, peers.bob, peers.visitor]) expect(peer.sent).toEqual([]);
  });

  it('an agent\'s typing reaches the visitor it serves; naming a visitor it does not serve reaches nobody', async () => {
    await messaging.handle(peers.alice, frame('typing', { to: F.plain }));
    expect(typingFrames(peers.visitor)).toMatchObject([{ from: ALICE, to: F.plain, dataContent: '{"state":"typing"}' }]);
    now += 5_000;
    await messaging.handle(peers.alice, frame('typing', { to: OTHER }));
    now += 5_000;
    await messaging.handle(peers.alice, frame('typing'));
    expect(peers.other.sent).toEqual([]);
    expect(typingFrames(peers.visitor)).toHaveLength(1);
    expect(peers.bob.sent).toEqual([]);
  });

  it('a visitor without an active conversation (robot, queued, ended) is heard by nobody', async () => {
    const session = (await fx.store.chat.latestSession(F.plain, F.mchId, F.platformId))!;
    for (const state of ['ended', 'queued'] as const) {
      await fx.store.chat.updateSession({ ...session, state, agentId: state === 'ended' ? ALICE : null });
      now += 5_000;
      await messaging.handle(peers.visitor, frame('typing'));
    }
    expect(peers.alice.sent).toEqual([]);
  });

  it('a frame that speaks for someone else, or is malformed, is dropped silently (no refusal)', async () => {
    await messaging.handle(peers.visitor, frame('typing', { from: OTHER }));
    for (const dataContent of ['nope', '{"state":"shouting"}', '[]', 'null']) {
      now += 5_000;
      await messaging.handle(peers.visitor, { type: T.Typing, fp: 'fp-bad-0001', dataContent });
    }
    now += 5_000;
    await messaging.handle(peers.visitor, { type: T.Typing, fp: 'fp-bad-0002', dataContent: 42 });
    expect(peers.visitor.sent).toEqual([]);
    expect(peers.alice.sent).toEqual([]);
  });

  it('a banned or blacklisted visitor is heard by nobody', async () => {
    const banned = recordingPeer(F.banned);
    await fx.store.chat.createSession(active(F.banned, ALICE));
    await messaging.handle(banned, frame('typing'));
    expect(peers.alice.sent).toEqual([]);
  });

  it('nothing is stored: no message, no history row', async () => {
    await messaging.handle(peers.visitor, frame('typing', { fp: 'fp-typing-kept?' }));
    now += 5_000;
    await messaging.handle(peers.alice, frame('paused', { to: F.plain }));
    expect(await fx.store.chat.message('fp-typing-kept?')).toBeUndefined();
    expect(await fx.store.chat.maxCreateTime()).toBe(0);
    expect(typingFrames(peers.alice)).toHaveLength(1);
    expect(typingFrames(peers.visitor)).toHaveLength(1);
  });
});

describe('rate rule: more than 1 per second per sender is dropped silently', () => {
  it('passes one frame per second, drops the rest without a refusal, counts each sender apart', async () => {
    for (let i = 0; i < 10; i += 1) {
      await messaging.handle(peers.visitor, frame(i % 2 === 0 ? 'typing' : 'paused'));
      await messaging.handle(peers.alice, frame('typing', { to: F.plain }));
      now += 250;
    }
    // t = 0, 1000, 2000 (2500 is past the loop's last frame at 2250)
    expect(typingFrames(peers.alice)).toHaveLength(3);
    expect(typingFrames(peers.visitor)).toHaveLength(3);
    expect(peers.visitor.sent.every((m) => m.type === T.Typing)).toBe(true);
  });
});

describe('sneak peek: the draft reaches the assigned agent only when the merchant has it on', () => {
  it('off (the default): the preview is stripped', async () => {
    await messaging.handle(peers.visitor, frame('typing', { preview: 'my card number is' }));
    expect(JSON.parse(typingFrames(peers.alice)[0]!.dataContent!)).toEqual({ state: 'typing' });
  });

  it('on: the preview goes to the agent, cut to 200 characters; an agent\'s preview never reaches the visitor', async () => {
    typing = new Typing(fx.store, [F.mchId], fx.services.visitors, () => now);
    messaging = new Messaging(fx.ctx, fx.sessions, () => true, { ...fx.services, typing });
    const long = `${'😀'.repeat(150)}${'x'.repeat(150)}`;
    await messaging.handle(peers.visitor, frame('typing', { preview: long }));
    const preview = (JSON.parse(typingFrames(peers.alice)[0]!.dataContent!) as { preview: string }).preview;
    expect(Array.from(preview)).toHaveLength(PREVIEW_MAX_CHARS);
    expect(preview).toBe(`${'😀'.repeat(150)}${'x'.repeat(50)}`);
    await messaging.handle(peers.alice, frame('typing', { to: F.plain, preview: 'agent draft' }));
    expect(JSON.parse(typingFrames(peers.visitor)[0]!.dataContent!)).toEqual({ state: 'typing' });
    expect(peers.other.sent).toEqual([]);
    expect(peers.bob.sent).toEqual([]);
  });

  it('is on per merchant: SNEAK_PEEK_MERCHANTS (ids or *) or the stored flag; off for unknown merchants', () => {
    const m = { mchId: 'M1', name: '', kefuAvatar2: '', extra: {} };
    expect(sneakPeekOn([], m)).toBe(false);
    expect(sneakPeekOn(['M2'], m)).toBe(false);
    expect(sneakPeekOn(['M2', 'M1'], m)).toBe(true);
    expect(sneakPeekOn(['*'], m)).toBe(true);
    expect(sneakPeekOn([], { ...m, extra: { sneakPeek: true } })).toBe(true);
    expect(sneakPeekOn([], { ...m, extra: { sneakPeek: 'yes' } })).toBe(false);
    expect(sneakPeekOn(['*'], undefined)).toBe(false);
  });

  it('the merchant profile says whether it is on (the visitor page tells the visitor)', async () => {
    expect(await fx.services.merchants.profile(F.mchId, F.platformId)).toMatchObject({ sneakPeek: false });
    const merchant = (await fx.store.directory.merchant(F.mchId))!;
    await fx.store.directory.putMerchant({ ...merchant, extra: { ...merchant.extra, sneakPeek: true } });
    expect(await fx.services.merchants.profile(F.mchId, F.platformId)).toMatchObject({ sneakPeek: true, currency: 'CNY' });
  });

  it('SNEAK_PEEK_MERCHANTS is read from the environment; a bad entry stops the start', () => {
    expect(loadConfig({}).sneakPeekMerchants).toEqual([]);
    expect(loadConfig({ SNEAK_PEEK_MERCHANTS: ' M1, *' }).sneakPeekMerchants).toEqual(['M1', '*']);
    expect(() => loadConfig({ SNEAK_PEEK_MERCHANTS: 'M 1' })).toThrow(/SNEAK_PEEK_MERCHANTS/);
  });
});

describe('reading a typing frame', () => {
  it('takes typing or paused, a string preview only with typing; caps by code points', () => {
    expect(readTypingSignal('{"state":"paused","preview":"x"}')).toEqual({ state: 'paused' });
    expect(readTypingSignal('{"state":"typing","preview":7}')).toEqual({ state: 'typing' });
    expect(readTypingSignal(`{"state":"typing","preview":"${'a'.repeat(5000)}"}`)).toBeUndefined();
    expect(capPreview('short')).toBe('short');
  });
});
