/**
 * The desk's canned replies, past conversations, visitor context and queued-visitor preview
 * through the SDK (`AgentDesk.canned`, `.past`, `.context`, `.preview`) against the real
 * reference server: CRUD and suggest, search by text and by visitor, paging, open read-only, what
 * a visitor arrived with and its deposit card, a queued visitor's own words before accepting, and
 * the refusals (a visitor's key session, a visitor no longer queued, another platform) with 4003.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError, memoryStorage } from '../../src/index.js';
import { AgentDesk, agentConnectData, DeskApi } from '../../src/agent/index.js';
import { deskAgent, servedBy } from './agent-helpers.js';
import { clientsPerTest, connectedVisitor, DEMO, DEMO_VISITOR, sharedServer, waitUntil, type Recorded, type TestServer } from './harness.js';

type Server = TestServer;
const clients = clientsPerTest();

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

/** A visitor that wrote `text` to the robot and asked for a human: it waits in the desk's queue. */
async function queuedVisitor(desk: AgentDesk, server: Server, text: string, options: Parameters<typeof connectedVisitor>[2] = {}): Promise<Recorded> {
  const visitor = await connectedVisitor(clients, server, options);
  const v = visitor.client;
  const asked = v.sendText(text);
  await waitUntil(() => expect(v.messages.get(asked.fp!)?.sendState).toBe('sent'));
  await waitUntil(() => expect(v.messages.getSnapshot().some((m) => m.type === 200)).toBe(true));
  v.transferToHuman();
  await waitUntil(() => expect(desk.queue.getState().queue.some((q) => q.clientId === v.clientId)).toBe(true));
  return visitor;
}

describe('agent desk: canned replies and past conversations', () => {
  let server: Server;
  sharedServer((s) => (server = s), { env: { AGENT_GRACE_MS: '60000' } });

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

  it('updates a canned reply in place: a shortcut another reply has is refused (1001), an unknown one 1003, another merchant’s and visitors 4003', async () => {
    const { desk } = await deskAgent(clients, server, memoryStorage());
    const mchId = DEMO.mchId;
    const word = randomUUID().slice(0, 6);
    const hours = await desk.canned.add({ mchId, title: 'Hours', text: 'We open at 9.', shortcut: `hours-${word}` });
    const bye = await desk.canned.add({ mchId, title: 'Bye', text: 'Goodbye!', shortcut: `bye-${word}` });
    const updated = await desk.canned.update({ mchId, id: hours.id, title: 'Opening hours', text: 'We open at 9 and close at 18.', shortcut: `/open-${word}` });
    expect(updated).toEqual({ ...hours, title: 'Opening hours', text: 'We open at 9 and close at 18.', shortcut: `open-${word}` });
    expect(desk.canned.suggest(mchId, `/open-${word}`).map((r) => r.text)).toEqual(['We open at 9 and close at 18.']);

    const other = (await deskAgent(clients, server, memoryStorage())).desk; // another agent's desk sees the change
    expect((await other.canned.load(mchId)).find((r) => r.id === hours.id)).toEqual(updated);
    await expect(desk.canned.update({ mchId, id: bye.id, title: 'Bye', text: 'Goodbye!', shortcut: `open-${word}` })).rejects.toThrow(`the shortcut /open-${word} is taken`);
    expect(await codeOf(desk.canned.update({ mchId, id: bye.id, title: '', text: 'Goodbye!', shortcut: `bye-${word}` }))).toBe(1001);
    expect(await codeOf(desk.canned.update({ mchId, id: bye.id, title: 'x'.repeat(101), text: 'Goodbye!', shortcut: `bye-${word}` }))).toBe(1001);
    expect(await codeOf(desk.canned.update({ mchId, id: 'no-such-reply', title: 'T', text: 'x', shortcut: `x-${word}` }))).toBe(1003);
    // another merchant's (the agent works for the demo merchant only): forbidden, nothing changed
    expect(await codeOf(desk.canned.update({ mchId: 'M-other', id: bye.id, title: 'T', text: 'x', shortcut: `x-${word}` }))).toBe(4003);

    const visitor = await connectedVisitor(clients, server);
    expect(await codeOf(new DeskApi(visitor.client.api).agentCannedUpdate({ mchId, id: bye.id, title: 'Mine', text: 'mine', shortcut: 'mine' }))).toBe(4003);
    expect((await other.canned.load(mchId)).find((r) => r.id === bye.id)).toEqual(bye);
    await desk.canned.remove(mchId, hours.id);
    await desk.canned.remove(mchId, bye.id);
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

  it('previews what a queued visitor wrote in its current conversation (not the robot’s answers), then accepts; 4003 once it is no longer queued', async () => {
    const { desk } = await deskAgent(clients, server, memoryStorage());
    const visitor = await queuedVisitor(desk, server, 'Can I change my delivery address?');
    const v = visitor.client;
    const entry = desk.queue.getState().queue.find((q) => q.clientId === v.clientId)!;
    const transcript = await desk.preview.open(entry);
    expect(transcript.messages.map((m) => m.dataContent)).toEqual(['Can I change my delivery address?']);
    expect(transcript.messages.every((m) => m.from === v.clientId)).toBe(true);
    expect(desk.preview.store.getState()).toMatchObject({ visitor: { clientId: v.clientId }, waiting: true, error: null });

    const later = v.sendText('It is urgent, please');
    await waitUntil(() => expect(v.messages.get(later.fp!)?.sendState).toBe('sent'));
    expect((await desk.preview.reload())?.messages.map((m) => m.dataContent)).toEqual(['Can I change my delivery address?', 'It is urgent, please']);

    const where = { clientId: v.clientId, mchId: DEMO.mchId, platformId: DEMO.platformId };
    expect(await codeOf(new DeskApi(v.api).agentQueuedTranscript(where))).toBe(4003); // the visitor itself

    desk.accept(v.clientId);
    expect(desk.preview.store.getState().visitor).toBeNull();
    await waitUntil(() => expect(v.session.getState().status).toBe('agent'));
    expect(await codeOf(desk.past.queued(where))).toBe(4003); // served now: not a queued visitor any more
    await expect(desk.preview.open(entry)).rejects.toThrow(/not queued/);
    expect(desk.preview.store.getState()).toMatchObject({ error: expect.stringMatching(/not queued/), transcript: null });
  });

  it('refuses the preview of a visitor with the robot, of an unknown visitor and of another platform or merchant (4003); a second agent sees the visitor leave the queue', async () => {
    const { desk } = await deskAgent(clients, server, memoryStorage());
    const robotOnly = await connectedVisitor(clients, server);
    const said = robotOnly.client.sendText('Just browsing');
    await waitUntil(() => expect(robotOnly.client.messages.get(said.fp!)?.sendState).toBe('sent'));
    const at = (clientId: string, mchId: string = DEMO.mchId, platformId: string = DEMO.platformId) => ({ clientId, mchId, platformId });
    expect(await codeOf(desk.past.queued(at(robotOnly.client.clientId)))).toBe(4003);
    expect(await codeOf(desk.past.queued(at(`nobody-${randomUUID()}`)))).toBe(4003);

    const visitor = await queuedVisitor(desk, server, 'My order number is 42');
    const id = visitor.client.clientId;
    expect(await codeOf(desk.past.queued(at(id, DEMO.mchId, 'P-other')))).toBe(4003);
    expect(await codeOf(desk.past.queued(at(id, 'M-other')))).toBe(4003);
    expect((await desk.past.queued(at(id))).messages.map((m) => m.dataContent)).toEqual(['My order number is 42']);

    // another agent (bob) accepts it while this one reads: the preview says it is no longer waiting
    const entry = desk.queue.getState().queue.find((q) => q.clientId === id)!;
    await desk.preview.open(entry);
    const { desk: colleague } = await deskAgent(clients, server, memoryStorage(), { connectData: agentConnectData('bob', { password: 'secret2' }) });
    await waitUntil(() => expect(colleague.queue.getState().queue.some((q) => q.clientId === id)).toBe(true));
    colleague.accept(id);
    await waitUntil(() => expect(desk.preview.store.getState().waiting).toBe(false));
    expect(await codeOf(desk.preview.reload())).toBe(4003);
  });

  it('the context panel shows what the visitor arrived with and the deposit card of its order; bad entry data is dropped, never refused', async () => {
    const { desk } = await deskAgent(clients, server, memoryStorage());
    const entry = { kefuId: 'demo', cpay: 'ORD202400001', 'json.account': 'u-889', 'bad name!': 'dropped', nested: { no: 1 } };
    const visitor = await servedBy(clients, server, desk, `v-${randomUUID()}`);
    const where = { clientId: visitor.client.clientId, mchId: DEMO.mchId, platformId: DEMO.platformId };
    expect(await desk.context.load(where)).toMatchObject({ entry: {}, arrivedAt: null, deposit: null });

    const arrived = await connectedVisitor(clients, server, { connectData: { ...DEMO_VISITOR, language: 'en', entry } });
    const v = arrived.client;
    v.sendText('Hi');
    v.transferToHuman();
    await waitUntil(() => expect(desk.queue.getState().queue.some((q) => q.clientId === v.clientId)).toBe(true));
    desk.accept(v.clientId);
    await waitUntil(() => expect(v.session.getState().status).toBe('agent'));
    const context = await desk.context.load({ ...where, clientId: v.clientId });
    expect(context.entry).toEqual({ kefuId: 'demo', cpay: 'ORD202400001', 'json.account': 'u-889' });
    expect(context.arrivedAt).toEqual(expect.any(Number));
    expect(context.deposit).toMatchObject({ mchOrderNo: 'ORD202400001', userAccount: expect.any(String), amount: expect.anything(), status: expect.anything() });
    expect(context).toMatchObject({ name: expect.any(String), language: 'en', merchantName: expect.any(String), platformName: expect.any(String), pastConversations: 0, lastRating: null });
    expect(desk.context.of(v.clientId)).toEqual(context);
  });
});

