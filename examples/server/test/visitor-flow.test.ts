import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { content, enc, isEvent, keyExchange, TestSocket, type Msg, type Session } from '../../../conformance/src/client/index.js';
import { serverForFile } from './helpers/file-server.js';

const server = serverForFile();

const where = { mchId: 'M1001', platformId: 'P01' };

async function visitor(name = 'Ming', language = 'zh'): Promise<{ id: string; session: Session; socket: TestSocket }> {
  const session = await keyExchange(server.url);
  const id = randomUUID();
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, { ...where, name, language });
  return { id, session, socket };
}

async function agent(account = 'alice', password = 'secret1'): Promise<{ session: Session; socket: TestSocket }> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, 'desk', { role: 'agent', account, password });
  return { session, socket };
}

describe('the visitor flow over raw frames (AES switch on)', () => {
  it('start, suggestions, robot answer, transfer, agent accepts and replies, receipts both ways, end, rate once', async () => {
    const v = await visitor();
    // session start: created, suggested questions (201), the robot greeting (200, robot 1)
    const created = await v.socket.next(isEvent('created'));
    const sessionId = content<{ sessionId: string }>(created).sessionId;
    const suggestions = await v.socket.next((m) => m.type === 201);
    const list = content<{ id: string; question: string }[]>(suggestions);
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toEqual({ id: expect.any(String), question: expect.any(String) });
    await v.socket.next((m) => m.type === 200 && m.robot === 1);

    // robot answer from the FAQ
    const askFp = v.socket.say(v.id, 100, '充值多久能到账？');
    const ack = await v.socket.next((m) => m.fp === askFp);
    expect(ack).toMatchObject({ type: 100, from: v.id, dataContent: '充值多久能到账？' });
    expect(typeof ack.createTime).toBe('number');
    const answer = await v.socket.next((m) => m.type === 200 && String(m.dataContent).includes('1-5 分钟'));
    expect(answer.robot).toBe(1);

    // an agent comes online and sees an empty queue
    const a = await agent();
    const firstSnapshot = await a.socket.next((m) => m.type === 310);
    expect(content<{ online: number }>(firstSnapshot).online).toBe(1);

    // transfer: acknowledged, queued at position 1, not busy; the agent's snapshot lists the visitor
    const transferFp = v.socket.say(v.id, 301, '{}');
    await v.socket.next((m) => m.fp === transferFp);
    const queued = await v.socket.next(isEvent('queued'));
    expect(content(queued)).toMatchObject({ event: 'queued', sessionId, position: 1, busy: false });
    const withVisitor = await a.socket.next((m) => m.type === 310 && content<{ queue: { clientId: string }[] }>(m).queue.some((q) => q.clientId === v.id));
    expect(content<{ queue: { position: number; name: string }[] }>(withVisitor).queue[0]).toMatchObject({ position: 1, name: 'Ming' });

    // the agent accepts: the visitor hears agent-joined with the agent's name
    a.socket.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: v.id }) });
    const joined = await v.socket.next(isEvent('agent-joined'));
    expect(content(joined)).toMatchObject({ sessionId, agent: { id: 'agent:alice', name: 'Alice' } });
    await a.socket.next((m) => m.type === 310 && content<{ sessions: { clientId: string }[] }>(m).sessions.some((s) => s.clientId === v.id));

    // visitor -> agent, agent's receipt back to the visitor
    const helloFp = v.socket.say(v.id, 100, 'hello, my deposit is missing');
    const hello = await a.socket.next((m) => m.fp === helloFp);
    expect(hello).toMatchObject({ type: 100, from: v.id, to: 'agent:alice' });
    a.socket.send({ type: 104, from: 'agent:alice', to: v.id, fp: randomUUID(), dataContent: helloFp, cm: hello.createTime });
    const receiptToVisitor = await v.socket.next((m) => m.type === 104);
    expect(receiptToVisitor).toMatchObject({ from: 'agent:alice', to: v.id, dataContent: helloFp, cm: hello.createTime });

    // agent -> visitor, visitor's receipt back to the agent
    const replyFp = a.socket.say('agent:alice', 100, 'Let me check that for you', { to: v.id });
    await a.socket.next((m) => m.fp === replyFp && typeof m.createTime === 'number');
    const reply = await v.socket.next((m) => m.fp === replyFp);
    expect(reply).toMatchObject({ from: 'agent:alice', fn: 'Alice', to: v.id });
    v.socket.send({ type: 104, from: v.id, to: 'agent:alice', fp: randomUUID(), dataContent: replyFp, cm: reply.createTime });
    const receiptToAgent = await a.socket.next((m) => m.type === 104);
    expect(receiptToAgent).toMatchObject({ from: v.id, dataContent: replyFp });

    // receipts are stored: history shows both messages read
    const history = await enc<{ list: Msg[]; hasMore: boolean }>(server.url, v.session, 'POST', 'findMsgForCus', { clientId: v.id, ...where, size: 100 });
    expect(history.code).toBe(0);
    const byFp = new Map(history.data.list.map((m) => [m.fp, m]));
    expect(byFp.get(helloFp)?.isRead).toBe(1);
    expect(byFp.get(replyFp)?.isRead).toBe(1);
    expect(history.data.list.some((m) => m.type === 104)).toBe(false);

    // the agent ends: ended + rate-invite for the visitor
    const endFp = a.socket.say('agent:alice', 302, '{}', { to: v.id });
    await a.socket.next((m) => m.fp === endFp);
    await v.socket.next(isEvent('ended'));
    const invite = await v.socket.next(isEvent('rate-invite'));
    expect(content(invite)).toMatchObject({ sessionId });
    await a.socket.next(isEvent('ended'));

    // rate once; a second rating is refused with 2002
    const rated = await enc(server.url, v.session, 'POST', 'markScore', { clientId: v.id, ...where, sessionId, score: 5, remark: 'great' });
    expect(rated).toMatchObject({ code: 0, data: { sessionId, score: 5 } });
    const again = await enc(server.url, v.session, 'POST', 'markScore', { clientId: v.id, ...where, sessionId, score: 1 });
    expect(again.code).toBe(2002);
    expect(again.message).toBe('您已经评价过了'); // Accept-Language: zh

    await v.socket.close();
    await a.socket.close();
  });

  it('the question call stores the question and the robot answer and pushes both', async () => {
    const v = await visitor('Rose', 'en');
    await v.socket.next((m) => m.type === 201);
    const res = await enc<{ id: string; question: string; answer: string }>(server.url, v.session, 'POST', 'question', { clientId: v.id, ...where, questionId: 'en-q21' });
    expect(res).toMatchObject({ code: 0, data: { id: 'en-q21', question: 'How do I change my password?' } });
    await v.socket.next((m) => m.type === 100 && m.dataContent === 'How do I change my password?');
    await v.socket.next((m) => m.type === 200 && String(m.dataContent).startsWith('Go to Me'));
    await v.socket.close();
  });
});

describe('the queue: positions update as it moves, busy when no agent is online', () => {
  it('tells queued visitors their position and busy flag, and updates them', async () => {
    const first = await visitor('First');
    const second = await visitor('Second');
    for (const v of [first, second]) {
      await v.socket.next((m) => m.type === 201);
      v.socket.say(v.id, 301, '{}');
    }
    const firstQueued = await first.socket.next(isEvent('queued'));
    expect(content(firstQueued)).toMatchObject({ position: 1, busy: true });
    const secondQueued = await second.socket.next(isEvent('queued'));
    expect(content(secondQueued)).toMatchObject({ position: 2, busy: true });
    // 'customer service is busy' is told by the robot
    await first.socket.next((m) => m.type === 200 && String(m.dataContent).includes('客服当前繁忙'));

    // the first leaves the queue: the second moves up
    const mark = second.socket.log.length;
    first.socket.say(first.id, 302, '{}');
    await first.socket.next(isEvent('ended'));
    const moved = await second.socket.next((m) => isEvent('queued')(m) && content<{ position: number }>(m).position === 1, 3000, mark);
    expect(content(moved)).toMatchObject({ position: 1, busy: true });

    // an agent comes online: no longer busy
    const a = await agent('bob', 'secret2');
    const notBusy = await second.socket.next((m) => isEvent('queued')(m) && content<{ busy: boolean }>(m).busy === false);
    expect(content(notBusy)).toMatchObject({ position: 1, busy: false });
    await Promise.all([first.socket.close(), second.socket.close(), a.socket.close()]);
  });
});
