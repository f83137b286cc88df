/**
 * The conformance kit's typing checks (protocol §5a) can fail: the ones that need an agent cannot
 * be shown against the kit's fake server (it has no agents), so they run here against the reference
 * server with its typing relay patched to break one rule at a time, and exactly the check of that
 * rule fails. Only the typing checks run (they serve a conversation of their own), on a fresh
 * in-memory server per case, so that no rate memory or conversation carries over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS, CheckContext, CheckSkipped, resolveOptions } from '../../../conformance/src/index.js';
import type { Peer } from '../src/chat/hub.js';
import { Messaging, type ClientFrame } from '../src/chat/messaging.js';
import { T } from '../src/chat/wire.js';
import { Typing, type TypingDelivery } from '../src/services/typing.js';
import { removeDir, startServer } from './helpers/start.js';

const TYPING = CHECKS.filter((c) => c.id.startsWith('typing.'));

/** The private parts of the relay that the patches replace. */
type TypingParts = {
  relay(peer: Peer, frame: Readonly<Record<string, unknown>>): Promise<TypingDelivery | undefined>;
  allow(userId: string): boolean;
  agentOf(peer: Peer): Promise<{ to: string; mchId: string } | undefined>;
};
type MessagingParts = { typing(peer: Peer, frame: ClientFrame): Promise<void> };

const typingProto = Typing.prototype as unknown as TypingParts;
const messagingProto = Messaging.prototype as unknown as MessagingParts;
const restores: (() => void)[] = [];

/** Replaces `proto[name]` until the end of the test. */
function patch<P extends object, K extends keyof P>(proto: P, name: K, make: (original: P[K]) => P[K]): void {
  const original = proto[name];
  proto[name] = make(original);
  restores.push(() => {
    proto[name] = original;
  });
}

afterEach(() => {
  for (const restore of restores.splice(0).reverse()) restore();
});

/**
 * Runs the typing checks against a fresh reference server (the demo agent); the ids that failed,
 * with their reasons.
 * @param env - further settings
 */
async function typingFailures(env: Record<string, string> = {}): Promise<Record<string, string>> {
  const server = await startServer({}, { AGENTS: '', ...env });
  const ctx = new CheckContext(resolveOptions({ baseUrl: server.url }));
  const failed: Record<string, string> = {};
  try {
    for (const check of TYPING) {
      try {
        await check.run(ctx);
      } catch (error) {
        if (!(error instanceof CheckSkipped)) failed[check.id] = (error as Error).message;
      }
    }
  } finally {
    await ctx.dispose();
    await server.close();
    removeDir(server.dataDir);
  }
  expect(server.errors).toEqual([]);
  return failed;
}

describe('the typing checks against the reference server', () => {
  // sneak peek off is the run of conformance.test.ts; on, the agent gets the visitor's draft
  it('pass when it follows protocol §5a, with sneak peek on', async () => {
    expect(await typingFailures({ SNEAK_PEEK_MERCHANTS: '*' })).toEqual({});
  }, 30_000);

  const flaws: [string, () => void, string][] = [
    [
      'acknowledges a typing frame (sent back to its sender, same fp)',
      () =>
        patch(messagingProto, 'typing', (original) => async function (this: Messaging, peer, frame) {
          await original.call(this, peer, frame);
          peer.send({ type: T.Typing, from: peer.userId, to: peer.userId, fp: String(frame.fp), createTime: Date.now(), dataContent: String(frame.dataContent) });
        }),
      'typing.relay',
    ],
    [
      "passes an agent's preview on to the visitor",
      () =>
        patch(typingProto, 'relay', (original) => async function (this: Typing, peer, frame) {
          const delivery = await original.call(this, peer, frame);
          const preview = (JSON.parse(String(frame.dataContent)) as { preview?: unknown }).preview;
          if (delivery && peer.role === 'agent' && preview !== undefined) {
            delivery.message.dataContent = JSON.stringify({ ...(JSON.parse(String(delivery.message.dataContent)) as object), preview });
          }
          return delivery;
        }),
      'typing.preview',
    ],
    [
      "gives the agent a preview that is not the visitor's draft",
      () =>
        patch(typingProto, 'relay', (original) => async function (this: Typing, peer, frame) {
          const delivery = await original.call(this, peer, frame);
          if (delivery && peer.role === 'visitor') delivery.message.dataContent = JSON.stringify({ state: 'typing', preview: 'not what the visitor typed' });
          return delivery;
        }),
      'typing.preview',
    ],
    ['relays every typing frame (no rate rule)', () => patch(typingProto, 'allow', () => () => true), 'typing.rate'],
    [
      "relays a visitor's typing to the agent outside any conversation",
      () =>
        patch(typingProto, 'agentOf', (original) => async function (this: Typing, peer) {
          return (await original.call(this, peer)) ?? { to: 'agent:demo', mchId: peer.mchId };
        }),
      'typing.outside-conversation',
    ],
  ];
  it.each(flaws)('that %s: fails exactly that check', async (_flaw, apply, expected) => {
    apply();
    const failed = await typingFailures();
    expect(Object.keys(failed)).toEqual([expected]);
    expect(failed[expected]).toBeTruthy();
  }, 30_000);
});
