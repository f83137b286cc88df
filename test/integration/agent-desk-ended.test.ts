/**
 * The desk and a visitor who ends and comes back (desk issue, defect 2): SDK agent and SDK visitor
 * against the real reference server. The visitor ends the chat and rates it; the conversation
 * stays on the desk, ended by the visitor, with the rating; the visitor starts again, talks to the
 * robot and asks for a human; the agent accepts in the same desk: the new conversation is open at
 * once with its robot phase, and the ended one is past. After a reload (a new client and desk on
 * the kept login) the ended conversations come back, with who ended them and the rating, until the
 * agent closes them; nobody else can close them.
 */
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { DeskApi } from '../../src/agent/index.js';
import { conversationAt, deskAgent, servedBy } from './agent-helpers.js';
import { clientsPerTest, connectedVisitor, frame, isEvent, open, sharedServer, type TestServer, waitUntil } from './harness.js';

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

  it('after a reload the desk shows the ended conversations again, who ended them and the rating, until the agent closes them', async () => {
    const storage = memoryStorage();
    const { rec: agent, desk } = await deskAgent(clients, server, storage);
    const byVisitor = await servedBy(clients, server, desk);
    const byAgent = await servedBy(clients, server, desk);
    const [v1, v2] = [byVisitor.client, byAgent.client];
    const s1 = v1.session.getState().sessionId!;
    const s2 = v2.session.getState().sessionId!;
    const reply = agent.client.sendText('Alice: your refund is on its way', { to: v1.clientId });
    await waitUntil(() => expect(agent.client.messages.get(reply.fp!)?.sendState).toBe('sent'));
    v1.endConversation();
    await frame(byVisitor, isEvent('rate-invite'));
    await v1.rate(5, 'very kind');
    desk.end(v2.clientId);
    await frame(byAgent, isEvent('ended'));
    await waitUntil(() => expect(desk.conversations.store.getState().list.find((c) => c.sessionId === s1)?.rating).toEqual({ score: 5, remark: 'very kind' }));

    // the reload: the page's client and desk are gone; a new desk logs in with the kept token
    agent.client.destroy();
    desk.destroy();
    const again = await deskAgent(clients, server, storage);
    // (the earlier test's open conversation is on alice's desk too)
    const mine = (d: typeof desk) => d.conversations.store.getState().list.filter((c) => c.sessionId === s1 || c.sessionId === s2);
    await waitUntil(() =>
      expect(mine(again.desk)).toEqual([
        expect.objectContaining({ sessionId: s1, clientId: v1.clientId, status: 'ended', endedBy: 'visitor', rating: { score: 5, remark: 'very kind' } }),
        expect.objectContaining({ sessionId: s2, clientId: v2.clientId, status: 'ended', endedBy: 'agent' }),
      ]),
    );
    // read-only, with its messages: the robot phase and the agent's reply
    await waitUntil(() => expect(conversationAt(again.rec, v1.clientId).map((m) => m.dataContent)).toEqual(expect.arrayContaining(['What are your opening hours?', 'Alice: your refund is on its way'])));
    const w = again.desk.conversations.window(s1);
    expect(w.until).toBeGreaterThanOrEqual(Number(agent.client.messages.get(reply.fp!)?.createTime));

    // another agent and a visitor cannot close it; its agent can, and it stays closed after the next reload
    const bob = clients.make(server, { connectData: { role: 'agent', account: 'bob', password: 'secret2' } });
    await open(bob);
    await expect(new DeskApi(bob.client.api).agentCloseConversation({ sessionId: s1 })).rejects.toMatchObject({ code: 4003 });
    const stranger = await connectedVisitor(clients, server);
    await expect(new DeskApi(stranger.client.api).agentCloseConversation({ sessionId: s1 })).rejects.toMatchObject({ code: 4003 });
    expect(await again.desk.conversations.close(s1)).toBe(true);
    expect(mine(again.desk).map((c) => c.sessionId)).toEqual([s2]);
    again.rec.client.destroy();
    again.desk.destroy();
    const third = await deskAgent(clients, server, storage);
    await waitUntil(() => expect(third.desk.queue.getState().received).toBe(true));
    await waitUntil(() => expect(mine(third.desk).map((c) => [c.sessionId, c.status])).toEqual([[s2, 'ended']]));
  });
});
