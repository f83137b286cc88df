import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundSession, content, enc, isEvent, keyExchange, TestSocket, type Msg } from '../../../conformance/src/client/index.js';
import { removeDir, startServer } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

const where = { mchId: 'M1001', platformId: 'P01' };

async function connectVisitor(id: string): Promise<TestSocket> {
  const session = await keyExchange(server.url);
  return TestSocket.connect(server.socketUrl, server.socketKey, session, id, { ...where, name: 'Ming', language: 'en' });
}

const isState = isEvent('state');

describe('after the welcome a visitor hears its service state (session event `state`), not stored', () => {
  it('robot, then queued with the position, then active with the agent, then ended: one event per connect', async () => {
    const id = randomUUID();
    const first = await connectVisitor(id);
    await first.next(isEvent('created'));
    const robot = await first.next(isState);
    expect(content(robot)).toMatchObject({ event: 'state', state: 'robot', sessionId: expect.any(String) });
    const sessionId = content<{ sessionId: string }>(robot).sessionId;
    first.say(id, 301, '{}');
    await first.next(isEvent('queued'));

    const queued = await connectVisitor(id); // a reload, or a second tab
    expect(content(await queued.next(isState))).toMatchObject({ state: 'queued', sessionId, position: 1, busy: true });

    const agentSession = await keyExchange(server.url);
    const agent = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
    agent.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) });
    await first.next(isEvent('agent-joined'));

    const reloaded = await connectVisitor(id);
    const active = await reloaded.next(isState);
    expect(content(active)).toMatchObject({ state: 'active', sessionId, agent: { id: 'agent:alice', name: 'Alice' } });
    await reloaded.quiet(200);
    expect(reloaded.log.filter(isState)).toHaveLength(1);
    expect(reloaded.log.some((m: Msg) => isEvent('created')(m))).toBe(false); // no new session

    first.say(id, 302, '{}');
    await first.next(isEvent('ended'));
    const after = await connectVisitor(id);
    expect(content(await after.next(isState))).toMatchObject({ state: 'ended', sessionId });

    const history = await enc<{ list: Msg[] }>(server.url, await boundSession(server, id, where), 'POST', 'findMsgForCus', { clientId: id, ...where, size: 100 });
    expect(history.code).toBe(0);
    expect(history.data.list.some((m) => m.type === 300 && content<{ event: string }>(m).event === 'agent-joined')).toBe(true);
    expect(history.data.list.filter((m) => m.type === 300 && content<{ event: string }>(m).event === 'state')).toEqual([]);
    for (const s of [first, queued, reloaded, after, agent]) await s.close();
  });

  it('a visitor who never had a session hears no state before its session starts', async () => {
    const id = randomUUID();
    const socket = await connectVisitor(id);
    const created = await socket.next(isEvent('created'));
    const state = await socket.next(isState);
    expect(socket.log.indexOf(created)).toBeLessThan(socket.log.indexOf(state));
    expect(content(state)).toMatchObject({ state: 'robot' });
    await socket.close();
  });
});
