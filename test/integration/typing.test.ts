/**
 * Typing both ways and sneak peek (type 105, protocol §5a): SDK visitors and an SDK agent against
 * the real server over loopback. Prints the figures of the note: typing latency p50/p99 over 200
 * signals and typing frames per minute of continuous typing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, SendInput, TypingIndicator } from '../../src/index.js';
import { ALICE, clientsPerTest, connectedAgent, connectedVisitor, DEMO, frame, sharedServer, type Recorded, type TestServer, waitUntil } from './harness.js';

const clients = clientsPerTest();
let server: TestServer;
sharedServer((s) => (server = s), { env: { RATE_SOCKET_MAX: '100000' } });

const TYPING = 105;
const agentId = `agent:${ALICE.account}`;

/** A visitor that asked for a human and was accepted by the agent (type 311, no desk needed). */
async function servedVisitor(agent: Recorded): Promise<Recorded> {
  const visitor = await connectedVisitor(clients, server, { clientId: `v-${randomUUID()}` });
  await visitor.client.typing.load();
  visitor.client.transferToHuman();
  await frame(agent, (m) => m.type === 310 && (m.dataContent ?? '').includes(visitor.client.clientId));
  agent.client.send({ type: 311, dataContent: JSON.stringify({ clientId: visitor.client.clientId }) });
  await waitUntil(() => expect(visitor.client.session.getState().status).toBe('agent'));
  return visitor;
}

async function agentWithRoom(): Promise<Recorded> {
  const agent = await connectedAgent(clients, server);
  await agent.client.typing.load();
  return agent;
}

/** What a client said through `client.send` (the typing room sends through it). */
function recordSends(rec: Recorded): SendInput[] {
  const sent: SendInput[] = [];
  const send = rec.client.send.bind(rec.client);
  rec.client.send = (input) => {
    sent.push(input);
    return send(input);
  };
  return sent;
}

const typingFrames = (rec: Recorded): ChatMessage[] => rec.frames.map((f) => f.message).filter((m) => m.type === TYPING);
const indicatorOf = (rec: Recorded, conversationId: string): TypingIndicator | undefined => rec.client.typing.store.getState().conversations[conversationId];

/** Resolves with the time at which `rec` hears `conversationId` typing (performance.now()). */
function heardTyping(rec: Recorded, conversationId: string): Promise<number> {
  return new Promise((resolve) => {
    const on = ({ conversationId: id, indicator }: { conversationId: string; indicator: TypingIndicator | null }): void => {
      if (id !== conversationId || !indicator) return;
      rec.client.off('typing', on);
      resolve(performance.now());
    };
    rec.client.on('typing', on);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('typing, both ways', () => {
  it('is shown on the other side within 300 ms, both ways, and gone at once on send', async () => {
    const agent = await agentWithRoom();
    const visitor = await servedVisitor(agent);
    const id = visitor.client.clientId;

    let heard = heardTyping(agent, id);
    let t0 = performance.now();
    visitor.client.typing.input('Hello, I hav');
    expect((await heard) - t0).toBeLessThan(300);
    expect(indicatorOf(agent, id)).toMatchObject({ typing: true, from: id });
    expect(indicatorOf(agent, id)?.preview).toBeUndefined();

    heard = heardTyping(visitor, id);
    t0 = performance.now();
    agent.client.typing.input('Sure, one momen', id);
    expect((await heard) - t0).toBeLessThan(300);
    expect(indicatorOf(visitor, id)).toMatchObject({ typing: true, from: agentId, who: 'Alice' });

    const sentAt = performance.now();
    visitor.client.sendText('Hello, I have a question');
    await waitUntil(() => expect(indicatorOf(agent, id)).toBeUndefined(), 300);
    expect(performance.now() - sentAt).toBeLessThan(300);
    agent.client.sendText('Sure, one moment', { to: id });
    await waitUntil(() => expect(indicatorOf(visitor, id)).toBeUndefined(), 300);
  });

  it('is gone within 6 s of the last keystroke (the sender says paused after 5 s idle)', async () => {
    const agent = await agentWithRoom();
    const visitor = await servedVisitor(agent);
    const id = visitor.client.clientId;
    visitor.client.typing.input('a');
    await waitUntil(() => expect(indicatorOf(agent, id)?.typing).toBe(true), 1_000);
    const last = performance.now();
    await waitUntil(() => expect(indicatorOf(agent, id)).toBeUndefined(), 7_000);
    const gone = performance.now() - last;
    expect(gone).toBeGreaterThan(4_500);
    expect(gone).toBeLessThan(6_000);
  }, 15_000);

  it('typing frames are never stored, acknowledged or listed in history, and another visitor never hears them', async () => {
    const agent = await agentWithRoom();
    const visitor = await servedVisitor(agent);
    const other = await servedVisitor(agent);
    const bystander = await connectedVisitor(clients, server, { clientId: `v-${randomUUID()}` });
    const id = visitor.client.clientId;
    visitor.client.typing.input('one');
    agent.client.typing.input('reply', id);
    await waitUntil(() => expect(indicatorOf(agent, id)?.typing).toBe(true));
    await waitUntil(() => expect(indicatorOf(visitor, id)?.typing).toBe(true));
    visitor.client.sendText('a real message');
    await frame(agent, (m) => m.type === 100 && m.dataContent === 'a real message');
    await sleep(300);

    for (const rec of [other, bystander]) expect(typingFrames(rec)).toEqual([]);
    // never a row, never in the outbox, never acknowledged back to its sender
    for (const rec of [visitor, agent]) {
      expect(rec.client.messages.getSnapshot().some((m) => m.type === TYPING)).toBe(false);
      expect(typingFrames(rec).every((m) => m.from !== rec.client.userId)).toBe(true);
    }
    const { list } = await visitor.client.api.findMsgForCus({ clientId: id, mchId: DEMO.mchId, platformId: DEMO.platformId, size: 100 });
    expect(list.some((m) => m.dataContent === 'a real message')).toBe(true);
    expect(list.some((m) => m.type === TYPING)).toBe(false);
    const stored = await server.store.chat.conversation(id, DEMO.mchId, DEMO.platformId, { size: 100 });
    expect(stored.some((m) => m.dataContent === 'a real message')).toBe(true);
    expect(stored.some((m) => m.type === TYPING)).toBe(false);
  });

  // The 30 s figure (at most 16 typing frames) is the sender's unit test, on injected time
  // (src/typing/typing.test.ts); here 8 s of real typing through the real server: the same rate
  // (one typing frame at once, then one every 2 s) and every frame relayed.
  it('a visitor typing continuously sends one typing frame every 2 s, and the server relays each', async () => {
    const agent = await agentWithRoom();
    const visitor = await servedVisitor(agent);
    const sent = recordSends(visitor);
    const id = visitor.client.clientId;
    const heard: number[] = [];
    agent.client.on('socket message', ({ message }) => {
      if (message.type === TYPING && message.from === id && message.dataContent?.includes('"typing"')) heard.push(performance.now());
    });
    const seconds = 8;
    const start = performance.now();
    let draft = '';
    while (performance.now() - start < seconds * 1_000) {
      draft = `${draft}x`.slice(-50);
      visitor.client.typing.input(draft);
      await sleep(50);
    }
    await sleep(300); // a trailing typing frame may still be due
    const typingSent = sent.filter((s) => s.type === TYPING && s.dataContent.includes('"typing"')).length;
    console.log(`[typing] continuous typing for ${seconds} s: ${typingSent} typing frames sent, ${heard.length} relayed to the agent (${((typingSent * 60) / seconds).toFixed(1)} frames per minute)`);
    // at 0, 2, 4 and 6 s, and perhaps one more at 8 s
    expect(typingSent).toBeGreaterThanOrEqual(4);
    expect(typingSent).toBeLessThanOrEqual(5);
    expect(heard).toHaveLength(typingSent); // the server dropped none: the SDK keeps its own 1 s gap
    // the frames came about 2 s apart, not in a burst
    for (let i = 1; i < heard.length; i += 1) expect(heard[i]! - heard[i - 1]!).toBeGreaterThan(1_500);
    expect(indicatorOf(agent, id)?.typing).toBe(true);
  }, 20_000);

  it('latency over loopback: p50 and p99 of 200 typing signals', async () => {
    const agent = await agentWithRoom();
    const visitors: Recorded[] = [];
    for (let i = 0; i < 25; i += 1) visitors.push(await servedVisitor(agent));
    const latencies: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      await Promise.all(
        visitors.map(async (v) => {
          const heard = heardTyping(agent, v.client.clientId);
          const t0 = performance.now();
          v.client.typing.input(`round ${round}`);
          latencies.push((await heard) - t0);
          v.client.typing.blur();
        }),
      );
      // the sender's paused goes 1.2 s after its typing; the next typing 1.2 s after that
      await waitUntil(() => expect(Object.keys(agent.client.typing.store.getState().conversations)).toEqual([]), 3_000);
      await sleep(1_300);
    }
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(`[typing] latency over loopback, ${latencies.length} signals: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    expect(latencies).toHaveLength(200);
    expect(p99).toBeLessThan(300);
  }, 60_000);
});

describe('sneak peek (off by default)', () => {
  async function setSneakPeek(on: boolean): Promise<void> {
    const merchant = (await server.store.directory.merchant(DEMO.mchId))!;
    await server.store.directory.putMerchant({ ...merchant, extra: { ...merchant.extra, sneakPeek: on } });
  }

  it('off: the visitor sends no text and the agent sees none', async () => {
    await setSneakPeek(false);
    const agent = await agentWithRoom();
    const visitor = await servedVisitor(agent);
    expect((await visitor.client.loadMerchantInfo())['sneakPeek']).toBe(false);
    const sent = recordSends(visitor);
    visitor.client.typing.input('my secret draft');
    await waitUntil(() => expect(indicatorOf(agent, visitor.client.clientId)?.typing).toBe(true));
    expect(sent.filter((s) => s.type === TYPING)).toHaveLength(1);
    expect(sent.some((s) => s.dataContent.includes('secret'))).toBe(false);
    expect(typingFrames(agent).some((m) => (m.dataContent ?? '').includes('secret'))).toBe(false);
  });

  it('on: the assigned agent sees the draft (at most 200 characters); other visitors and the visitor never get a preview', async () => {
    await setSneakPeek(true);
    try {
      const agent = await agentWithRoom();
      const visitor = await servedVisitor(agent);
      const other = await servedVisitor(agent);
      expect((await visitor.client.loadMerchantInfo())['sneakPeek']).toBe(true);
      const id = visitor.client.clientId;
      visitor.client.typing.input('Where is my ord');
      await waitUntil(() => expect(indicatorOf(agent, id)?.preview).toBe('Where is my ord'));
      await sleep(1_100);
      visitor.client.typing.input('y'.repeat(300));
      await waitUntil(() => expect(indicatorOf(agent, id)?.preview).toBe('y'.repeat(200)), 3_000);
      agent.client.typing.input('agent draft', id);
      await waitUntil(() => expect(indicatorOf(visitor, id)?.typing).toBe(true));
      expect(typingFrames(visitor).some((m) => (m.dataContent ?? '').includes('preview'))).toBe(false);
      expect(typingFrames(other)).toEqual([]);
    } finally {
      await setSneakPeek(false);
    }
  });
});
