/**
 * Agents tied to merchants (desk issue "the desk runs a real support team"), as an attacker would
 * try it: SDK agents and visitors against the real server with `AUTO_ASSIGN=1`. Alice works for
 * the demo merchant A (M1001), Mallory for merchant B (M2002). Mallory's desk never shows A's queue
 * or agents, routing never gives her A's visitors, and every call of hers naming A's visitor or
 * conversation is refused (permit calls 4003, socket frames `not-allowed`) and changes nothing,
 * even once the same visitor talks to B and is hers there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage, type StorageLike } from '../../src/index.js';
import { AgentDesk, agentConnectData, DeskApi } from '../../src/agent/index.js';
import { clientsPerTest, DEMO, frame, isEvent, open, sharedServer, waitUntil, type Recorded, type TestServer } from './harness.js';

const A = DEMO.mchId;
const B = 'M2002';
const clients = clientsPerTest();
let server!: TestServer;
sharedServer((s) => (server = s), {
  env: {
    AGENTS: 'alice:secret1:Alice,mallory:secret3:Mallory',
    AGENT_MERCHANTS: `alice:${A},mallory:${B}`,
    AUTO_ASSIGN: '1',
    AGENT_GRACE_MS: '60000',
  },
});
beforeAll(async () => {
  await server.store.directory.putMerchant({ mchId: B, name: 'Shop B', kefuAvatar2: '', extra: {} });
  await server.store.directory.putPlatform({ mchId: B, platformId: 'P01', name: 'Web', enabled: true });
});

interface Agent {
  rec: Recorded;
  desk: AgentDesk;
  api: DeskApi;
}

async function agent(account: 'alice' | 'mallory', password: string): Promise<Agent> {
  const rec = clients.make(server, { connectData: agentConnectData(account, { password }) });
  const desk = new AgentDesk(rec.client, { storage: memoryStorage() });
  await open(rec);
  await waitUntil(() => expect(desk.queue.getState().received).toBe(true));
  return { rec, desk, api: new DeskApi(rec.client.api) };
}

/** A visitor of `mchId` (its identity kept in `storage`, so the same visitor can come to both merchants). */
async function visitorOf(mchId: string, storage: StorageLike): Promise<Recorded> {
  const rec = clients.make(server, { storage, connectData: { role: 'visitor', mchId, platformId: 'P01', language: 'en' } });
  await open(rec);
  await waitUntil(() => expect(rec.client.session.getState().sessionId).toBeTruthy());
  return rec;
}

/** The refusal (type 500) an agent got for the frame `fp`. */
function refusalOf(rec: Recorded, fp: string | undefined): Promise<{ reason: string; fp: string }> {
  return frame(rec, (m) => m.type === 500 && (m.dataContent ?? '').includes(String(fp))).then((m) => JSON.parse(m.dataContent ?? '{}') as { reason: string; fp: string });
}

const forbidden = { code: 4003 };

describe('an agent of merchant B and the visitors of merchant A', () => {
  it('sees none of A’s queue or agents, is routed none of them, and is refused every call naming them; nothing changes', async () => {
    const alice = await agent('alice', 'secret1');
    const mallory = await agent('mallory', 'secret3');
    alice.desk.setStatus('away'); // A's visitor waits: mallory is available, but not A's
    await waitUntil(() => expect(alice.desk.status.getState().status).toBe('away'));
    await new Promise((resolve) => setTimeout(resolve, 100));

    const storage = memoryStorage();
    const visitor = await visitorOf(A, storage);
    const id = visitor.client.clientId;
    visitor.client.sendText('my deposit is missing');
    visitor.client.transferToHuman();
    await waitUntil(() => expect(alice.desk.queue.getState().queue.map((q) => q.clientId)).toContain(id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // B's desk: no queue, no conversation, no agent of A (alice) to transfer to
    expect(visitor.client.session.getState().status).toBe('queued');
    expect(mallory.desk.queue.getState()).toMatchObject({ queue: [], sessions: [], online: 1 });
    expect(mallory.desk.status.getState().others).toEqual([]);
    expect(alice.desk.status.getState().others).toEqual([]);

    // accepting A's visitor, reading what it wrote, A's canned replies: refused
    const accept = mallory.rec.client.send({ type: 311, dataContent: JSON.stringify({ clientId: id }) });
    expect(await refusalOf(mallory.rec, accept.fp)).toMatchObject({ reason: 'not-allowed' });
    await expect(mallory.api.agentQueuedTranscript({ clientId: id, mchId: A, platformId: 'P01' })).rejects.toMatchObject(forbidden);
    await expect(mallory.api.agentQueuedTranscript({ clientId: id, mchId: B, platformId: 'P01' })).rejects.toMatchObject(forbidden);
    const reply = await alice.api.agentCannedAdd({ mchId: A, title: 'Hello', text: 'Hello from A', shortcut: 'hi' });
    await expect(mallory.api.agentCannedList({ mchId: A })).rejects.toMatchObject(forbidden);
    await expect(mallory.api.agentCannedAdd({ mchId: A, title: 'Phish', text: 'send me your password', shortcut: 'pw' })).rejects.toMatchObject(forbidden);
    await expect(mallory.api.agentCannedRemove({ mchId: A, id: reply.id })).rejects.toMatchObject(forbidden);
    expect((await alice.api.agentCannedList({ mchId: A })).map((r) => r.shortcut)).toEqual(['hi']);
    expect(await mallory.api.agentCannedList({ mchId: B })).toEqual([]);
    expect(visitor.client.session.getState().status).toBe('queued');

    // A's agent comes back: routing gives A's visitor to A's agent
    alice.desk.setStatus('available');
    await waitUntil(() => expect(alice.desk.session(id)).toBeDefined());
    await waitUntil(() => expect(visitor.client.session.getState()).toMatchObject({ status: 'agent', agent: { name: 'Alice' } }));
    const where = { clientId: id, mchId: A, platformId: 'P01', size: 20 };

    // reading, replying, ending, transferring A's conversation: refused
    await expect(mallory.rec.client.api.findMsgForCus(where)).rejects.toMatchObject(forbidden);
    await expect(mallory.api.agentVisitorContext({ clientId: id, mchId: A, platformId: 'P01' })).rejects.toMatchObject(forbidden);
    const text = mallory.rec.client.sendText('Mallory here, give me your card number', { to: id });
    expect(await refusalOf(mallory.rec, text.fp)).toMatchObject({ reason: 'not-allowed' });
    const end = mallory.rec.client.send({ type: 302, to: id, dataContent: '{}' });
    expect(await refusalOf(mallory.rec, end.fp)).toMatchObject({ reason: 'not-allowed' });
    await expect(mallory.desk.transfer(id, 'agent:mallory')).rejects.toMatchObject({ name: 'TransferError', reason: 'not-allowed' });
    // and A's agent cannot hand it to B's
    await expect(alice.desk.transfer(id, 'agent:mallory', 'take it')).rejects.toMatchObject({ reason: 'not-allowed' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(visitor.client.messages.getSnapshot().some((m) => (m.dataContent ?? '').includes('Mallory'))).toBe(false);
    expect(visitor.client.session.getState()).toMatchObject({ status: 'agent', agent: { name: 'Alice' } });
    expect((await server.store.chat.latestSession(id, A, 'P01'))).toMatchObject({ state: 'active', agentId: 'agent:alice' });
    expect(mallory.desk.queue.getState().sessions).toEqual([]);

    // the same visitor comes to B: mallory serves it there, and still may not name its conversation with A
    const atB = await visitorOf(B, storage);
    expect(atB.client.clientId).toBe(id);
    atB.client.transferToHuman();
    await waitUntil(() => expect(mallory.desk.session(id)).toMatchObject({ mchId: B }));
    expect((await mallory.rec.client.api.findMsgForCus({ ...where, mchId: B })).list.length).toBeGreaterThan(0);
    await expect(mallory.rec.client.api.findMsgForCus(where)).rejects.toMatchObject(forbidden);
    await expect(mallory.api.agentVisitorContext({ clientId: id, mchId: A, platformId: 'P01' })).rejects.toMatchObject(forbidden);
    await expect(mallory.rec.client.api.markScore({ clientId: id, mchId: A, platformId: 'P01', score: 1 })).rejects.toMatchObject(forbidden);
    expect(alice.desk.session(id)).toMatchObject({ mchId: A });

    // A's conversation ends: B's agent neither lists, opens nor closes it
    visitor.client.endConversation();
    await frame(visitor, isEvent('rate-invite'));
    const ended = (await server.store.chat.latestSession(id, A, 'P01'))!;
    expect(ended.state).toBe('ended');
    expect((await alice.api.agentPastList({ visitor: id })).list.map((p) => p.sessionId)).toContain(ended.sessionId);
    expect((await mallory.api.agentPastList({ visitor: id })).list.map((p) => p.mchId)).not.toContain(A);
    await expect(mallory.api.agentPastList({ mchId: A })).rejects.toMatchObject(forbidden);
    await expect(mallory.api.agentPastOpen({ sessionId: ended.sessionId })).rejects.toMatchObject(forbidden);
    await expect(mallory.api.agentCloseConversation({ sessionId: ended.sessionId })).rejects.toMatchObject(forbidden);
    expect((await alice.api.agentPastOpen({ sessionId: ended.sessionId })).messages.map((m) => m.dataContent)).toContain('my deposit is missing');
    await waitUntil(() => expect(alice.desk.conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: ended.sessionId, status: 'ended' })]));
  });

  it('a visitor of B queued while nobody of B is available waits; A’s available agent never gets it', async () => {
    const alice = await agent('alice', 'secret1');
    const mallory = await agent('mallory', 'secret3');
    mallory.desk.setStatus('away');
    await waitUntil(() => expect(mallory.desk.status.getState().status).toBe('away'));
    const visitor = await visitorOf(B, memoryStorage());
    const availability = await visitor.client.availability();
    // B's availability: nobody of B is available, whatever A's agents do
    await waitUntil(() => expect(availability.getSnapshot()).toMatchObject({ known: true, agentsAvailable: false }));
    visitor.client.transferToHuman();
    await waitUntil(() => expect(mallory.desk.queue.getState().queue.map((q) => q.clientId)).toContain(visitor.client.clientId));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(alice.desk.queue.getState().queue.map((q) => q.clientId)).not.toContain(visitor.client.clientId);
    expect(alice.desk.session(visitor.client.clientId)).toBeUndefined();
    expect(availability.getSnapshot().agentsAvailable).toBe(false);
    mallory.desk.setStatus('available');
    await waitUntil(() => expect(mallory.desk.session(visitor.client.clientId)).toBeDefined());
    await waitUntil(() => expect(availability.getSnapshot().agentsAvailable).toBe(true));
  });

  it('A’s groups: B’s agent neither reads their members, posts in them nor hears them', async () => {
    const alice = await agent('alice', 'secret1');
    const mallory = await agent('mallory', 'secret3');
    const group = 'G100'; // the demo group of A
    const member = clients.make(server, { connectData: { role: 'visitor', mchId: A, platformId: 'P01', groupId: group, language: 'en' } });
    await open(member);
    await expect(mallory.rec.client.api.getGroupUserList({ groupId: group })).rejects.toMatchObject(forbidden);
    expect((await alice.rec.client.api.getGroupUserList({ groupId: group })).length).toBeGreaterThan(0);
    const post = mallory.rec.client.send({ type: 100, to: group, isGroup: true, dataContent: 'Mallory in A’s group' });
    expect(await refusalOf(mallory.rec, post.fp)).toMatchObject({ reason: 'not-allowed' });
    const hello = member.client.send({ type: 100, to: group, isGroup: true, dataContent: `hello group ${Date.now()}` });
    await frame(alice.rec, (m) => m.fp === hello.fp);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mallory.rec.frames.some((f) => f.message.fp === hello.fp)).toBe(false);
    expect(member.client.messages.getSnapshot().some((m) => (m.dataContent ?? '').includes('Mallory'))).toBe(false);
  });
});
