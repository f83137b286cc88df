import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boundSession, content, enc, isEvent, keyExchange, TestSocket, type Msg } from '../../../conformance/src/client/index.js';
import { serverForFile } from './helpers/file-server.js';

const server = serverForFile();

const where = { mchId: 'M1001', platformId: 'P01' };

async function connectVisitor(id: string, language = 'en', platformId = where.platformId): Promise<TestSocket> {
  const session = await keyExchange(server.url);
  return TestSocket.connect(server.socketUrl, server.socketKey, session, id, { ...where, platformId, name: 'Ming', language });
}

/** The questions of a suggestions message (type 201). */
function questions(m: Msg): string[] {
  return content<{ question: string }[]>(m).map((q) => q.question);
}

const isSuggestions = (m: Msg): boolean => m.type === 201;
const isRobotText = (m: Msg): boolean => m.type === 200 && m.robot === 1;

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

describe('issue 23: the suggested questions come with the welcome, also after a reload', () => {
  it('a reloaded page of a visitor the robot serves gets them live (not stored again)', async () => {
    const id = randomUUID();
    const first = await connectVisitor(id, 'zh');
    const stored = await first.next(isSuggestions);
    await first.next(isRobotText);
    await first.close();

    const reloaded = await connectVisitor(id, 'zh');
    const live = await reloaded.next(isSuggestions);
    expect(questions(live)).toEqual(questions(stored));
    expect(live.robot).toBe(1);
    const history = await enc<{ list: Msg[] }>(server.url, await boundSession(server, id, where), 'POST', 'findMsgForCus', { clientId: id, ...where, size: 100 });
    expect(history.data.list.filter(isSuggestions)).toHaveLength(1);
    await reloaded.close();
  });

  it('the greeting points to the questions only when there are some, and carries its text key', async () => {
    const id = randomUUID();
    const socket = await connectVisitor(id, 'zh');
    const greeting = await socket.next(isRobotText);
    expect(greeting).toMatchObject({ textKey: 'greeting', dataContent: expect.stringContaining('下面的问题') });
    const history = await enc<{ list: Msg[] }>(server.url, await boundSession(server, id, where), 'POST', 'findMsgForCus', { clientId: id, ...where, size: 100 });
    expect(history.data.list.find(isRobotText)).toMatchObject({ textKey: 'greeting' });
    await socket.close();

    // a platform whose merchant wrote no FAQ: no questions, and a greeting that promises none
    await server.store.directory.putPlatform({ mchId: where.mchId, platformId: 'P-NOFAQ', name: 'No FAQ', enabled: true });
    const bare = await connectVisitor(randomUUID(), 'en', 'P-NOFAQ');
    expect(questions(await bare.next(isSuggestions))).toEqual([]);
    const plain = await bare.next(isRobotText);
    expect(plain).toMatchObject({ textKey: 'greeting-no-questions' });
    expect(String(plain.dataContent)).not.toMatch(/question below/i);
    await bare.close();
  });
});

describe("issue 23: type 106, a visitor's change of language: the server's texts follow it", () => {
  it('sends the questions again in the new language; later robot, queue and busy texts and the robot name follow', async () => {
    const id = randomUUID();
    const socket = await connectVisitor(id, 'zh');
    const zhQuestions = questions(await socket.next(isSuggestions));
    expect(zhQuestions.join('')).toMatch(/[\u4e00-\u9fff]/);
    await socket.next(isRobotText);
    await socket.quiet();

    const from = socket.log.length;
    socket.say(id, 106, JSON.stringify({ language: 'en' }));
    const enSuggestions = await socket.next(isSuggestions, 3000, from);
    expect(questions(enSuggestions).join('')).not.toMatch(/[\u4e00-\u9fff]/);
    expect(questions(enSuggestions).length).toBe(zhQuestions.length);

    const askFp = socket.say(id, 100, 'qwxyz zzkq');
    await socket.next((m) => m.fp === askFp, 3000, from);
    const notUnderstood = await socket.next(isRobotText, 3000, from);
    expect(notUnderstood.dataContent).toMatch(/^Sorry, I did not understand/);
    expect(String(notUnderstood.fn)).toMatch(/Assistant$/);
    socket.say(id, 301, '{}');
    const busy = await socket.next((m) => isRobotText(m) && socket.log.indexOf(m) > socket.log.indexOf(notUnderstood), 3000, from);
    expect(busy.dataContent).toMatch(/busy|Connecting you/);
    expect((await server.store.chat.visitor(id))?.language).toBe('en');
    await socket.close();
  });

  it('is never acknowledged or stored; a bad one is refused, an agent\'s ignored, the same language again changes nothing', async () => {
    const id = randomUUID();
    const socket = await connectVisitor(id, 'en');
    await socket.next(isRobotText);
    await socket.quiet();
    let from = socket.log.length;
    const badFp = socket.say(id, 106, JSON.stringify({ language: '<script>' }));
    const refusal = await socket.next((m) => m.type === 500, 3000, from);
    expect(content(refusal)).toEqual({ reason: 'bad-frame', fp: badFp });
    for (const bad of ['not json', '{}', JSON.stringify({ language: 'x'.repeat(17) }), JSON.stringify({ language: 7 })]) socket.say(id, 106, bad);
    await socket.quiet();
    expect(socket.log.slice(from).filter((m) => m.type === 500)).toHaveLength(5);

    from = socket.log.length;
    const sameFp = socket.say(id, 106, JSON.stringify({ language: 'en' }));
    await socket.quiet(300);
    expect(socket.log.slice(from)).toEqual([]);
    expect(await server.store.chat.message(sameFp)).toBeUndefined();

    const agentSession = await keyExchange(server.url);
    const agent = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'bob', password: 'secret2' });
    await agent.quiet();
    const agentFrom = agent.log.length;
    agent.say('agent:bob', 106, JSON.stringify({ language: 'zh' }));
    await agent.quiet(300);
    expect(agent.log.slice(agentFrom).filter((m) => m.type === 500)).toEqual([]);
    for (const s of [socket, agent]) await s.close();
  });
});
