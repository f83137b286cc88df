/**
 * Two nodes in one process, on one SQLite file and one Redis (`REDIS_URL`), talked to with the raw
 * protocol client: a visitor on node A and an agent on node B chat (queue snapshots, accept and
 * texts cross nodes through Redis), and a text that a node stored but never delivered (it died in
 * between) reaches the agent when the visitor resends it. Skips with the reason when Redis does
 * not answer, except under CI.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, isEvent, keyExchange, TestSocket } from '../../../conformance/src/client/index.js';
import { skipWithoutRedis, TEST_REDIS_URL as REDIS_URL } from './helpers/prerequisites.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const skip = await skipWithoutRedis('cluster-delivery');

type Server = Awaited<ReturnType<typeof startServer>>;
const where = { mchId: 'M1001', platformId: 'P01' };

describe.skipIf(skip)('delivery between two nodes through Redis', () => {
  const dataDir = tempDir();
  let a: Server;
  let b: Server;
  beforeAll(async () => {
    // a cluster of its own: other test files' nodes share the Redis
    const cluster = { REDIS_URL, CLUSTER_NAME: `test-${randomUUID()}` };
    a = await startServer({ memoryDb: false, dataDir }, { ...cluster, NODE_ID: 'a' });
    b = await startServer({ memoryDb: false, dataDir }, { ...cluster, NODE_ID: 'b' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    removeDir(dataDir);
  });

  it('a visitor on node A and an agent on node B: queue, accept, texts both ways; a stored but undelivered text arrives on resend', async () => {
    const agentSession = await keyExchange(b.url);
    const agent = await TestSocket.connect(b.socketUrl, b.socketKey, agentSession, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
    await agent.next((m) => m.type === 310);

    const visitorSession = await keyExchange(a.url);
    const id = randomUUID();
    const visitor = await TestSocket.connect(a.socketUrl, a.socketKey, visitorSession, id, { ...where, name: 'Cross', language: 'en' });
    await visitor.next(isEvent('created'));
    visitor.say(id, 301, '{}');
    // node A queued it; node B's agent hears of it (snapshot published through Redis), not busy
    expect(content(await visitor.next(isEvent('queued')))).toMatchObject({ position: 1, busy: false });
    await agent.next((m) => m.type === 310 && content<{ queue: { clientId: string }[] }>(m).queue.some((q) => q.clientId === id));

    agent.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) });
    await visitor.next(isEvent('agent-joined'));
    const hello = visitor.say(id, 100, 'hello from node A');
    expect(await agent.next((m) => m.fp === hello)).toMatchObject({ from: id, dataContent: 'hello from node A' });
    const reply = agent.say('agent:alice', 100, 'hello from node B', { to: id });
    expect(await visitor.next((m) => m.fp === reply)).toMatchObject({ from: 'agent:alice', dataContent: 'hello from node B' });

    // a node stored this text and died before delivering it (written straight into the store)
    const stored = await a.store.chat.message(hello);
    const lost = randomUUID();
    await a.store.chat.insertMessage({ ...stored!, fp: lost, dataContent: 'stored, never delivered', createTime: Date.now(), isRead: 0, seq: undefined });
    await agent.quiet(200);
    expect(agent.log.some((m) => m.fp === lost)).toBe(false);
    // the visitor never got its ack, so it resends: acknowledged again, and now delivered
    visitor.send({ type: 100, from: id, to: 'agent:alice', fp: lost, dataContent: 'stored, never delivered' });
    await visitor.next((m) => m.fp === lost);
    expect(await agent.next((m) => m.fp === lost)).toMatchObject({ dataContent: 'stored, never delivered' });
    // still one record
    const conversation = await b.store.chat.conversation(id, where.mchId, where.platformId, { size: 101 });
    expect(conversation.filter((m) => m.fp === lost)).toHaveLength(1);

    await visitor.close();
    await agent.close();
  });
  it('typing signals (105) cross nodes like any delivery: visitor on A <-> its agent on B, never stored', async () => {
    const agentSession = await keyExchange(b.url);
    const agent = await TestSocket.connect(b.socketUrl, b.socketKey, agentSession, 'desk-typing', { role: 'agent', account: 'alice', password: 'secret1' });
    await agent.next((m) => m.type === 310);
    const visitorSession = await keyExchange(a.url);
    const id = randomUUID();
    const visitor = await TestSocket.connect(a.socketUrl, a.socketKey, visitorSession, id, { ...where, name: 'Typist', language: 'en' });
    await visitor.next(isEvent('created'));
    visitor.say(id, 301, '{}');
    await agent.next((m) => m.type === 310 && content<{ queue: { clientId: string }[] }>(m).queue.some((q) => q.clientId === id));
    agent.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) });
    await visitor.next(isEvent('agent-joined'));

    visitor.send({ type: 105, from: id, fp: randomUUID(), dataContent: '{"state":"typing","preview":"not for the agent: sneak peek is off"}' });
    expect(await agent.next((m) => m.type === 105)).toMatchObject({ from: id, to: 'agent:alice', dataContent: '{"state":"typing"}' });
    agent.send({ type: 105, from: 'agent:alice', to: id, fp: randomUUID(), dataContent: '{"state":"typing"}' });
    expect(await visitor.next((m) => m.type === 105)).toMatchObject({ from: 'agent:alice', to: id, dataContent: '{"state":"typing"}' });
    const conversation = await b.store.chat.conversation(id, where.mchId, where.platformId, { size: 100 });
    expect(conversation.some((m) => m.type === 105)).toBe(false);

    await visitor.close();
    await agent.close();
  });
});
