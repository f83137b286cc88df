/**
 * The desk and a visitor who ends and comes back (desk issue, defect 2): SDK agent and SDK visitor
 * against the real reference server. The visitor ends the chat and rates it; the conversation
 * stays on the desk, ended by the visitor, with the rating; the visitor starts again, talks to the
 * robot and asks for a human; the agent accepts in the same desk: the new conversation is open at
 * once with its robot phase, and the ended one is past.
 */
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { conversationAt, deskAgent, servedBy } from './agent-helpers.js';
import { clientsPerTest, frame, isEvent, sharedServer, type TestServer, waitUntil } from './harness.js';

const clients = clientsPerTest();

describe('a visitor who ended and came back: the desk shows the new conversation, the ended one as past', () => {
  let server!: TestServer;
  sharedServer((started) => (server = started), { env: { AGENT_GRACE_MS: '60000' } });

  it('keeps the ended conversation with the rating, and opens the new one with its robot phase', async () => {
    const { rec: agent, desk } = await deskAgent(clients, server, memoryStorage());
    const visitor = await servedBy(clients, server, desk);
    const v = visitor.client;
    const id = v.clientId;
    const first = v.session.getState().sessionId!;
    await waitUntil(() => expect(desk.conversations.store.getState().list).toEqual([expect.objectContaining({ sessionId: first, status: 'active' })]));
    const reply = agent.client.sendText('Alice here, first conversation', { to: id });
    await waitUntil(() => expect(agent.client.messages.get(reply.fp!)?.sendState).toBe('sent'));

    // the visitor ends and rates: the conversation stays on the desk, ended by the visitor, rated
    v.endConversation();
    await frame(visitor, isEvent('rate-invite'));
    await waitUntil(() => expect(desk.queue.getState().sessions).toEqual([]));
    await v.rate(4, 'quick and kind');
    await waitUntil(() =>
      expect(desk.conversations.store.getState().list).toEqual([
        expect.objectContaining({ sessionId: first, clientId: id, status: 'ended', endedBy: 'visitor', rating: { score: 4, remark: 'quick and kind' } }),
      ]),
    );

    // the visitor starts again: the robot, then a human
    const again = v.sendText('Back again: what about refunds?');
    await waitUntil(() => expect(v.messages.get(again.fp!)?.sendState).toBe('sent'));
    await waitUntil(() => expect(v.session.getState().sessionId).not.toBe(first));
    await waitUntil(() => expect(v.messages.getSnapshot().filter((m) => m.type === 200 && Number(m.createTime) > Number(v.messages.get(again.fp!)?.createTime)).length).toBeGreaterThanOrEqual(1));
    v.transferToHuman();
    await waitUntil(() => expect(desk.queue.getState().queue.some((q) => q.clientId === id)).toBe(true));
    desk.accept(id);
    await waitUntil(() => expect(v.session.getState().status).toBe('agent'));
    const second = v.session.getState().sessionId!;

    // the desk: the new conversation is open, the ended one past; each shows its own part
    await waitUntil(() =>
      expect(desk.conversations.store.getState().list.map((c) => [c.sessionId, c.status])).toEqual([
        [first, 'ended'],
        [second, 'active'],
      ]),
    );
    await waitUntil(() => expect(conversationAt(agent, id).map((m) => m.dataContent)).toContain('Back again: what about refunds?'));
    const inWindow = (sessionId: string) => {
      const w = desk.conversations.window(sessionId);
      return conversationAt(agent, id)
        .filter((m) => (w.after === undefined || Number(m.createTime) > w.after) && (w.until === undefined || Number(m.createTime) <= w.until))
        .map((m) => m.dataContent);
    };
    expect(inWindow(first)).toEqual(expect.arrayContaining(['What are your opening hours?', 'Alice here, first conversation']));
    expect(inWindow(first)).not.toContain('Back again: what about refunds?');
    // the robot phase: the new session's greeting, the visitor's question and the robot's answer
    expect(inWindow(second)).toContain('Back again: what about refunds?');
    expect(inWindow(second).length).toBeGreaterThanOrEqual(3);
    expect(inWindow(second)).not.toContain('Alice here, first conversation');

    // the agent's replies reach the visitor; closing the past one leaves the open one
    const answer = agent.client.sendText('Alice again, about refunds', { to: id });
    await frame(visitor, (m) => m.fp === answer.fp);
    desk.conversations.close(first);
    expect(desk.conversations.store.getState().list.map((c) => c.sessionId)).toEqual([second]);
  });
});
