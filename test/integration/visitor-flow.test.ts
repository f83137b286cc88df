/**
 * The whole visitor flow, SDK against the real reference server over loopback (issue 3, "Done
 * means"): start, connect, suggested questions, robot answers, transfer to the queue, an agent
 * (an SDK client too) accepts and replies, read receipts both ways, the agent ends, the visitor
 * rates once and a second rating is refused.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, type ChatMessage, type DocumentLike, type QueueEntry, type AgentQueueSnapshot } from '../../src/index.js';
import { clientsPerTest, connectedAgent, connectedVisitor, content, DEMO, frame, isEvent, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;

sharedServer((s) => (server = s));
const clients = clientsPerTest();

/** A document that stays hidden: the agent's receipts queue until it marks a message read. */
const hiddenDocument: DocumentLike = {
  visibilityState: 'hidden',
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
};

function snapshotOf(m: ChatMessage): AgentQueueSnapshot {
  return content<AgentQueueSnapshot>(m);
}

describe('visitor flow: start, connect, robot, transfer, agent, receipts, end, rate once', () => {
  it('runs the whole conversation end to end over the real server', async () => {
    // ---- start and connect: the key exchange, then 'socket login' and the welcome's user id
    const visitor = await connectedVisitor(clients, server);
    const v = visitor.client;
    const id = v.clientId;
    expect(v.ready).toBe(true);
    expect(visitor.logins).toEqual([{ reconnected: false }]);
    expect(v.userId).toBe(id);
    expect(visitor.states).toEqual(['connecting', 'open']);

    // ---- first contact: session created, suggested questions (201) and the robot's greeting
    const suggestions = await frame(visitor, (m) => m.type === 201);
    await waitUntil(() => expect(v.session.getState().suggestions.length).toBeGreaterThan(0));
    const questions = v.session.getState().suggestions;
    expect(questions).toEqual(content(suggestions));
    expect(questions.map((q) => q.question)).toContain('How do I change my password?');
    await frame(visitor, isEvent('created'));
    expect(v.session.getState()).toMatchObject({ status: 'robot' });
    expect(v.session.getState().sessionId).toEqual(expect.any(String));
    const greeting = await frame(visitor, (m) => m.type === 200);
    expect(greeting.robot).toBe(1);

    // ---- robot answer by question id (permit call `question`): answered over HTTP and in the chat
    const first = questions[0]!;
    const answer = await v.api.question({ clientId: id, mchId: DEMO.mchId, platformId: DEMO.platformId, questionId: first.id });
    expect(answer).toMatchObject({ id: first.id, question: first.question });
    expect(answer.answer).toMatch(/\w/);
    await frame(visitor, (m) => m.type === 200 && m.dataContent === answer.answer && m.robot === 1);
    await waitUntil(() => expect(v.messages.getSnapshot().some((m) => m.type === 100 && m.dataContent === first.question)).toBe(true));

    // ---- robot answer to a typed text matching the FAQ
    const typed = v.sendText('How do I change my password?');
    expect(typed.sendState).toBe('pending');
    await waitUntil(() => expect(v.messages.get(typed.fp!)?.sendState).toBe('sent'));
    const robotReply = await frame(visitor, (m) => m.type === 200 && /Security - Change password/.test(m.dataContent ?? ''));
    expect(robotReply.from).toBe('robot');
    expect(v.messages.get(robotReply.fp!)).toBeDefined();
    expect(await server.store.chat.message(typed.fp!)).toMatchObject({ from: id, to: 'robot', dataContent: 'How do I change my password?' });

    // ---- transfer with nobody online: queued, position 1, busy (the 'serviceBusy' notice)
    v.transferToHuman();
    await waitUntil(() => expect(v.session.getState()).toMatchObject({ status: 'queued', position: 1, busy: true }));
    await waitUntil(() => expect(visitor.notices.map((n) => n.key)).toContain('serviceBusy'));

    // ---- an agent logs in: it sees the queue (310); the visitor learns it is no longer busy
    const agent = await connectedAgent(clients, server, { document: hiddenDocument });
    const a = agent.client;
    expect(a.userId).toBe('agent:alice');
    const snapshot = await frame(agent, (m) => m.type === 310 && snapshotOf(m).queue.some((q) => q.clientId === id));
    const entry = snapshotOf(snapshot).queue.find((q) => q.clientId === id) as QueueEntry;
    expect(entry).toMatchObject({ clientId: id, position: 1 });
    expect(snapshotOf(snapshot).online).toBe(1);
    await waitUntil(() => expect(v.session.getState()).toMatchObject({ status: 'queued', position: 1, busy: false }));

    // ---- the agent accepts (311): the visitor gets 'agent-joined'; the queue empties
    const accept = a.send({ type: 311, dataContent: JSON.stringify({ clientId: id }) });
    expect(accept.sendState).toBe('sent');
    await waitUntil(() => expect(v.session.getState()).toMatchObject({ status: 'agent', agent: { id: 'agent:alice', name: 'Alice' } }));
    await frame(
      agent,
      (m) => m.type === 310 && snapshotOf(m).queue.length === 0 && snapshotOf(m).sessions.some((s) => s.clientId === id),
    );

    // ---- the agent replies; the visitor (visible) acknowledges at once: a 104 reaches the agent
    const reply = a.sendText('Hello, Alice here. How can I help?', { to: id });
    await waitUntil(() => expect(a.messages.get(reply.fp!)?.sendState).toBe('sent'));
    const received = await frame(visitor, (m) => m.type === 100 && m.fp === reply.fp);
    expect(received).toMatchObject({ from: 'agent:alice', to: id, dataContent: 'Hello, Alice here. How can I help?' });
    expect(v.messages.get(reply.fp!)).toBeDefined();
    const receiptAtAgent = await frame(agent, (m) => m.type === 104 && m.dataContent === reply.fp);
    expect(receiptAtAgent.from).toBe(id);
    await waitUntil(() => expect(a.messages.get(reply.fp!)?.isRead).toBe(1));
    expect((await server.store.chat.message(reply.fp!))?.isRead).toBe(1);

    // ---- the visitor writes; the agent (hidden) queues the receipt until it marks the message read
    const question = v.sendText('My deposit of 100.00 is missing, order ORD202400001');
    await waitUntil(() => expect(v.messages.get(question.fp!)?.sendState).toBe('sent'));
    expect(v.messages.get(question.fp!)?.to).toBe('agent:alice');
    const atAgent = await frame(agent, (m) => m.type === 100 && m.fp === question.fp);
    await waitUntil(() => expect(a.receipts.getStatus().queued).toBe(1));
    expect(v.messages.get(question.fp!)?.isRead).not.toBe(1);
    a.markRead(atAgent);
    const receiptAtVisitor = await frame(visitor, (m) => m.type === 104 && m.dataContent === question.fp);
    expect(receiptAtVisitor.from).toBe('agent:alice');
    await waitUntil(() => expect(v.messages.get(question.fp!)?.isRead).toBe(1));
    expect((await server.store.chat.message(question.fp!))?.isRead).toBe(1);

    // ---- the agent ends (302, `to` = the visitor): 'ended' and the rating invite
    const end = a.send({ type: 302, to: id, dataContent: '{}' });
    expect(end.sendState).toBe('pending');
    const endAck = await frame(agent, (m) => m.type === 302 && m.fp === end.fp);
    expect(endAck).toMatchObject({ from: 'agent:alice', to: id, createTime: expect.any(Number) });
    await frame(visitor, isEvent('ended'));
    await frame(visitor, isEvent('rate-invite'));
    await waitUntil(() => expect(v.session.getState()).toMatchObject({ status: 'ended', rateInvited: true }));
    expect(visitor.notices.map((n) => n.key)).toContain('conversationOver');
    const sessionId = v.session.getState().sessionId!;
    expect(await server.store.chat.session(sessionId)).toMatchObject({ state: 'ended', agentId: 'agent:alice', clientId: id });

    // ---- rate once: stored; a second rating is refused with 2002 and the server's message shown
    await v.rate(5, 'quick and kind');
    expect(v.session.getState().rateInvited).toBe(false);
    expect(await server.store.chat.session(sessionId)).toMatchObject({ score: 5, remark: 'quick and kind' });
    const before = visitor.notices.length;
    const second = await v.rate(4).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ApiError);
    expect(second).toMatchObject({ code: 2002, message: '您已经评价过了' }); // Accept-Language: zh
    expect(visitor.notices.slice(before)).toEqual([expect.objectContaining({ key: 'requestFailed', text: '您已经评价过了', level: 'error' })]);
    expect((await server.store.chat.session(sessionId))?.score).toBe(5);

    // ---- nothing shown twice: each fp once in the visitor's list
    const fps = v.messages.getSnapshot().map((m) => m.fp);
    expect(new Set(fps).size).toBe(fps.length);
    expect(visitor.errors).toEqual([]);
    expect(agent.errors).toEqual([]);
  });
});
