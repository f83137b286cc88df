/**
 * Unread counts (live signals) through the real receipts: an SDK agent with its desk and SDK
 * visitors against the reference server over loopback. Each client has a document whose
 * visibility the test sets; the counts rise while it is hidden and clear once it has been
 * visible for `autoReadDelay`, when the receipt of the latest message reaches the other side.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ImClient } from '../../src/index.js';
import { AgentDesk, agentConnectData } from '../../src/agent/index.js';
import { ALICE, clientsPerTest, connectedVisitor, open, type Recorded, type ServerEndpoints, sharedServer, type TestServer, waitUntil } from './harness.js';

/** A document whose visibility the test sets. */
class PageDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
  set(state: 'visible' | 'hidden'): void {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

const AUTO_READ = 200;
const receipts = { autoReadDelay: AUTO_READ, debounceDelay: 0 };
const clients = clientsPerTest();

/** Subscribes to the client's unread counts and waits until the counting code has loaded. */
async function watchUnread(client: ImClient): Promise<void> {
  client.unread.subscribe(() => undefined);
  await waitUntil(() => expect(client.messages.listenerCount).toBeGreaterThan(0));
}

/** The visitor's own text, once the server has acknowledged it. */
async function sent(visitor: Recorded, text: string): Promise<string> {
  const fp = visitor.client.sendText(text).fp as string;
  await waitUntil(() => expect(visitor.client.messages.get(fp)?.sendState).toBe('sent'));
  return fp;
}

describe('unread counts per conversation, cleared through the real receipts', () => {
  let server: TestServer;
  sharedServer((s) => (server = s));

  async function agentWithDesk(doc: PageDocument): Promise<{ agent: Recorded; desk: AgentDesk }> {
    const agent = clients.make(server, { connectData: agentConnectData(ALICE.account, { password: ALICE.password }), document: doc, receipts });
    const desk = new AgentDesk(agent.client);
    await open(agent);
    return { agent, desk };
  }

  async function servedVisitor(endpoints: ServerEndpoints, desk: AgentDesk, doc = new PageDocument()): Promise<Recorded> {
    const visitor = await connectedVisitor(clients, endpoints, { clientId: `v-${randomUUID()}`, document: doc, receipts });
    visitor.client.transferToHuman();
    await waitUntil(() => expect(desk.queue.getState().queue.some((q) => q.clientId === visitor.client.clientId)).toBe(true));
    desk.accept(visitor.client.clientId);
    await waitUntil(() => expect(visitor.client.session.getState().status).toBe('agent'));
    return visitor;
  }

  it('an agent counts per visitor while hidden; visible again, the counts clear and each visitor sees its latest message read', async () => {
    const agentDoc = new PageDocument();
    const { agent, desk } = await agentWithDesk(agentDoc);
    const v1 = await servedVisitor(server, desk);
    const v2 = await servedVisitor(server, desk);
    await watchUnread(agent.client);

    agentDoc.set('hidden');
    await waitUntil(() => expect(agent.client.visibility.getSnapshot()).toBe(false));
    await sent(v1, 'first from v1');
    const latest1 = await sent(v1, 'second from v1');
    const latest2 = await sent(v2, 'only from v2');
    await waitUntil(() => expect(agent.client.unread.getSnapshot().byConversation).toEqual({ [v1.client.clientId]: 2, [v2.client.clientId]: 1 }));
    expect(agent.client.unread.count()).toBe(3);
    expect(v1.client.messages.get(latest1)?.isRead).not.toBe(1); // hidden: no receipt yet

    agentDoc.set('visible');
    await waitUntil(() => expect(agent.client.unread.getSnapshot()).toEqual({ total: 0, byConversation: {} }));
    await waitUntil(() => expect(v1.client.messages.get(latest1)?.isRead).toBe(1)); // the receipt of the latest went out
    await waitUntil(() => expect(v2.client.messages.get(latest2)?.isRead).toBe(1));
    desk.destroy();
  });

  it('a visitor counts the agent’s messages while hidden, never its own, and clears when it reads them', async () => {
    const { agent, desk } = await agentWithDesk(new PageDocument());
    const visitorDoc = new PageDocument();
    const visitor = await servedVisitor(server, desk, visitorDoc);
    const v = visitor.client;
    await watchUnread(v);

    visitorDoc.set('hidden');
    await waitUntil(() => expect(v.visibility.getSnapshot()).toBe(false));
    await sent(visitor, 'my own text never counts');
    const agentId = agent.client.userId as string;
    agent.client.sendText('Hello, how can I help?', { to: v.clientId });
    const reply = agent.client.sendText('Are you still there?', { to: v.clientId });
    await waitUntil(() => expect(v.unread.getSnapshot()).toEqual({ total: 2, byConversation: { [agentId]: 2 } }));
    expect(agent.client.messages.get(reply.fp as string)?.isRead).not.toBe(1);

    visitorDoc.set('visible');
    await waitUntil(() => expect(v.unread.count()).toBe(0));
    await waitUntil(() => expect(agent.client.messages.get(reply.fp as string)?.isRead).toBe(1));
    desk.destroy();
  });

  it('robot answers count for a visitor whose page went hidden after asking', async () => {
    const doc = new PageDocument();
    const visitor = await connectedVisitor(clients, server, { clientId: `v-${randomUUID()}`, document: doc, receipts });
    const v = visitor.client;
    await watchUnread(v);
    doc.set('hidden');
    await waitUntil(() => expect(v.visibility.getSnapshot()).toBe(false));
    await sent(visitor, 'What are your opening hours?');
    await waitUntil(() => expect(v.unread.count()).toBeGreaterThanOrEqual(1));
    const robot = Object.keys(v.unread.getSnapshot().byConversation);
    expect(robot).toHaveLength(1);
    expect(v.messages.getSnapshot().some((m) => m.from === robot[0] && m.type === 200)).toBe(true);
    doc.set('visible');
    await waitUntil(() => expect(v.unread.count()).toBe(0));
  });
});
