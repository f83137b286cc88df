/**
 * The desk's canned replies and past conversations through the SDK (`AgentDesk.canned`,
 * `AgentDesk.past`) against the real reference server: CRUD and suggest, search by text and by
 * visitor, paging, open read-only, a queued visitor's transcript, and the agents-only rule (a
 * visitor's key session gets 4003).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, memoryStorage } from '../../src/index.js';
import { AgentDesk, DeskApi } from '../../src/agent/index.js';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { deskAgent, servedBy } from './agent-helpers.js';
import { Clients, connectedVisitor, DEMO, waitUntil, type Recorded } from './harness.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const clients = new Clients();
afterEach(() => clients.destroyAll());

/** The code a rejected call carries. */
async function codeOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  throw new Error('the call was not refused');
}

/** Serves a visitor who writes `text`, then the agent ends the conversation. */
async function endedConversation(server: Server, desk: AgentDesk, text: string): Promise<Recorded> {
  const visitor = await servedBy(clients, server, desk);
  const sent = visitor.client.sendText(text);
  await waitUntil(() => expect(visitor.client.messages.get(sent.fp!)?.sendState).toBe('sent'));
  desk.end(visitor.client.clientId);
  await waitUntil(() => expect(desk.queue.getState().sessions.some((s) => s.clientId === visitor.client.clientId)).toBe(false));
  return visitor;
}

describe('agent desk: canned replies and past conversations', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({}, { AGENT_GRACE_MS: '60000' });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
    expect(server.errors).toEqual([]);
  });

  it('adds, lists, suggests and removes canned replies; a taken shortcut is refused; visitors get 4003', async () => {
    const { desk } = await deskAgent(clients, server, memoryStorage());
    const mchId = DEMO.mchId;
    await desk.canned.add({ mchId, title: 'Greeting', text: 'Hello! How can I help?', shortcut: '/hello' });
    await desk.canned.add({ mchId, title: 'Refund status', text: 'Your refund is on its way.', shortcut: 'refund' });
    await expect(desk.canned.add({ mchId, title: 'Again', text: 'x', shortcut: 'hello' })).rejects.toThrow('the shortcut /hello is taken');
    await expect(desk.canned.add({ mchId, title: 'Bad', text: 'x', shortcut: 'two words' })).rejects.toThrow(/shortcut/);

    const reloaded = (await deskAgent(clients, server, memoryStorage())).desk;
    expect((await reloaded.canned.load(mchId)).map((r) => r.shortcut)).toEqual(['hello', 'refund']);
    expect(reloaded.canned.suggest(mchId, '/ref').map((r) => r.text)).toEqual(['Your refund is on its way.']);
    expect(reloaded.canned.suggest(mchId, '/').map((r) => r.shortcut)).toEqual(['hello', 'refund']);

    const hello = reloaded.canned.replies(mchId).find((r) => r.shortcut === 'hello')!;
    await reloaded.canned.remove(mchId, hello.id);
    expect((await desk.canned.load(mchId)).map((r) => r.shortcut)).toEqual(['refund']);

    const visitor = await connectedVisitor(clients, server);
    expect(await codeOf(new DeskApi(visitor.client.api).agentCannedList({ mchId }))).toBe(4003);
    expect(await codeOf(new DeskApi(visitor.client.api).agentCannedAdd({ mchId, title: 't', text: 't', shortcut: 'mine' }))).toBe(4003);
    expect((await desk.canned.load(mchId)).map((r) => r.shortcut)).toEqual(['refund']);
  });

  it('lists ended conversations newest first, paged; searches by text and by visitor; opens one read-only; visitors get 4003', async () => {
    const { desk } = await deskAgent(clients, server, memoryStorage());
    const word = `parcel-${randomUUID().slice(0, 8)}`;
    const first = await endedConversation(server, desk, `Where is my ${word}?`);
    const second = await endedConversation(server, desk, 'Thanks, all good');

    const small = new AgentDesk((await deskAgent(clients, server, memoryStorage())).rec.client, { pastPageSize: 1 });
    await small.past.search();
    expect(small.past.store.getState()).toMatchObject({ page: 0, hasMore: true });
    expect(small.past.store.getState().list.map((p) => p.clientId)).toEqual([second.client.clientId]);
    await small.past.next();
    expect(small.past.store.getState().list.map((p) => p.clientId)).toEqual([first.client.clientId]);
    small.destroy();

    await desk.past.search({ text: word.toUpperCase() });
    expect(desk.past.store.getState().list.map((p) => p.clientId)).toEqual([first.client.clientId]);
    expect(desk.past.store.getState().list[0]).toMatchObject({ mchId: DEMO.mchId, agentId: 'agent:alice', endedAt: expect.any(Number) });
    const firstSessionId = desk.past.store.getState().list[0]!.sessionId;
    await desk.past.search({ visitor: second.client.clientId });
    expect(desk.past.store.getState().list.map((p) => p.clientId)).toEqual([second.client.clientId]);
    await desk.past.search({ text: '%' });
    expect(desk.past.store.getState().list).toEqual([]);

    const opened = await desk.past.open(firstSessionId);
    const texts = opened.messages.map((m) => m.dataContent);
    expect(texts).toContain('What are your opening hours?');
    expect(texts).toContain(`Where is my ${word}?`);
    expect(desk.past.store.getState().opened?.session).toMatchObject({ clientId: first.client.clientId, visitorName: expect.any(String), state: 'ended' });

    expect(await codeOf(new DeskApi(first.client.api).agentPastList({}))).toBe(4003);

    // the context panel of an assigned visitor: merchant, platform, its ended conversations
    const where = { clientId: first.client.clientId, mchId: DEMO.mchId, platformId: DEMO.platformId };
    const context = await desk.context.load(where);
    expect(context).toMatchObject({ clientId: first.client.clientId, mchId: DEMO.mchId, pastConversations: 1, lastRating: null });
    expect(context.merchantName).not.toBe('');
    expect(await codeOf(new DeskApi(first.client.api).agentVisitorContext(where))).toBe(4003);
    const stranger = await connectedVisitor(clients, server);
    expect(await codeOf(desk.context.load({ ...where, clientId: stranger.client.clientId }))).toBe(4003);
    expect(await codeOf(new DeskApi(first.client.api).agentPastOpen({ sessionId: opened.session.sessionId }))).toBe(4003);
  });

  it('reads what a queued visitor wrote to the robot before accepting; not once it is no longer queued', async () => {
    const { desk } = await deskAgent(clients, server, memoryStorage());
    const visitor = await connectedVisitor(clients, server);
    const v = visitor.client;
    const asked = v.sendText('Can I change my delivery address?');
    await waitUntil(() => expect(v.messages.get(asked.fp!)?.sendState).toBe('sent'));
    v.transferToHuman();
    await waitUntil(() => expect(desk.queue.getState().queue.some((q) => q.clientId === v.clientId)).toBe(true));
    const where = { clientId: v.clientId, mchId: DEMO.mchId, platformId: DEMO.platformId };
    const transcript = await desk.past.queued(where);
    expect(transcript.messages.map((m) => m.dataContent)).toContain('Can I change my delivery address?');
    expect(await codeOf(new DeskApi(v.api).agentQueuedTranscript(where))).toBe(4003);
    desk.accept(v.clientId);
    await waitUntil(() => expect(v.session.getState().status).toBe('agent'));
    expect(await codeOf(desk.past.queued(where))).toBe(4003);
  });
});

