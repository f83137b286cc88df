/**
 * Agent status and routing (desk issue "the desk runs a real support team"), SDK agents and
 * visitors against the real server with `AUTO_ASSIGN=1`: three agents of capacities 1, 2 and 3
 * get queued visitors by the rule (fewest open, ties longest idle), nobody over capacity, the
 * rest stay queued; an away agent gets nobody and keeps its visitors; a transfer moves the
 * conversation, its access and its history to the other agent, and the old desk keeps it as
 * transferred; a transfer to an agent at capacity, away or offline is refused with a typed error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { AgentDesk, agentConnectData } from '../../src/agent/index.js';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { conversationAt } from './agent-helpers.js';
import { Clients, connectedVisitor, open, waitUntil, type Recorded } from './harness.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const clients = new Clients();

const ACCOUNTS = { one: 1, two: 2, three: 3 } as const;
type Account = keyof typeof ACCOUNTS;

// a server per test: each starts with empty desks and an empty queue
let server: Server;
beforeEach(async () => {
  server = await startServer({}, {
    AGENTS: 'one:pw-one:Agent One,two:pw-two:Agent Two,three:pw-three:Agent Three',
    AGENT_CAPACITIES: 'one:1,two:2,three:3',
    AUTO_ASSIGN: '1',
    AGENT_GRACE_MS: '60000',
  });
});
afterEach(async () => {
  clients.destroyAll();
  await server.close();
  removeDir(server.dataDir);
  expect(server.errors).toEqual([]);
});

interface Agent {
  account: Account;
  rec: Recorded;
  desk: AgentDesk;
}

async function agent(account: Account): Promise<Agent> {
  const rec = clients.make(server, { connectData: agentConnectData(account, { password: `pw-${account}` }) });
  const desk = new AgentDesk(rec.client, { storage: memoryStorage() });
  await open(rec);
  return { account, rec, desk };
}

/** The three agents, each seeing the other two online. */
async function team(): Promise<Record<Account, Agent>> {
  const all = { one: await agent('one'), two: await agent('two'), three: await agent('three') };
  for (const a of Object.values(all)) await waitUntil(() => expect(a.desk.status.getState().others).toHaveLength(2));
  return all;
}

/** A visitor asking for a human. */
async function queuedVisitor(): Promise<Recorded> {
  const visitor = await connectedVisitor(clients, server);
  visitor.client.transferToHuman();
  await waitUntil(() => expect(['queued', 'agent']).toContain(visitor.client.session.getState().status));
  return visitor;
}

/** Which agent's desk lists the visitor (throws when more than one). */
function servingAgent(agents: Record<Account, Agent>, clientId: string): Account | undefined {
  const serving = Object.values(agents).filter((a) => a.desk.session(clientId) !== undefined);
  expect(serving.length).toBeLessThanOrEqual(1);
  return serving[0]?.account;
}

function loads(agents: Record<Account, Agent>): Record<Account, number> {
  return { one: agents.one.desk.queue.getState().sessions.length, two: agents.two.desk.queue.getState().sessions.length, three: agents.three.desk.queue.getState().sessions.length };
}

describe('routing with three agents of capacities 1, 2 and 3', () => {
  it('spreads 10 queued visitors by the rule, nobody over capacity, each once; the rest stay queued', async () => {
    const agents = await team();
    for (const a of Object.values(agents)) expect(a.desk.status.getState()).toMatchObject({ status: 'available', capacity: ACCOUNTS[a.account] });
    const order: (Account | undefined)[] = [];
    const visitors: Recorded[] = [];
    for (let i = 0; i < 10; i += 1) {
      const visitor = await queuedVisitor();
      visitors.push(visitor);
      if (i < 6) {
        await waitUntil(() => expect(servingAgent(agents, visitor.client.clientId)).toBeDefined());
        order.push(servingAgent(agents, visitor.client.clientId));
      }
    }
    // fewest open first; equal load goes to the longest idle (never assigned first, then by account)
    expect(order).toEqual(['one', 'three', 'two', 'three', 'two', 'three']);
    await waitUntil(() => expect(agents.one.desk.queue.getState().queue).toHaveLength(4));
    expect(loads(agents)).toEqual({ one: 1, two: 2, three: 3 });
    for (const v of visitors.slice(0, 6)) expect(v.client.session.getState().status).toBe('agent');
    for (const v of visitors.slice(6)) expect(v.client.session.getState().status).toBe('queued');
    for (const v of visitors) expect(Object.values(agents).filter((a) => a.desk.session(v.client.clientId)).length).toBeLessThanOrEqual(1);
    for (const a of Object.values(agents)) await waitUntil(() => expect(a.desk.status.getState().open).toBe(ACCOUNTS[a.account]));

    // two goes away and ends a conversation: it keeps the other and gets nobody new
    agents.two.desk.setStatus('away');
    await waitUntil(() => expect(agents.one.desk.status.getState().others.find((o) => o.id === 'agent:two')?.status).toBe('away'));
    const ended = agents.two.desk.queue.getState().sessions[0]!.clientId;
    agents.two.desk.end(ended);
    await waitUntil(() => expect(agents.two.desk.session(ended)).toBeUndefined());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loads(agents)).toEqual({ one: 1, two: 1, three: 3 });
    expect(agents.one.desk.queue.getState().queue).toHaveLength(4);

    // back available: the head of the queue goes to two at once
    const head = agents.one.desk.queue.getState().queue[0]!.clientId;
    agents.two.desk.setStatus('available');
    await waitUntil(() => expect(servingAgent(agents, head)).toBe('two'));
    await waitUntil(() => expect(agents.one.desk.queue.getState().queue).toHaveLength(3));
    expect(loads(agents)).toEqual({ one: 1, two: 2, three: 3 });
  });

  it('a transfer moves the conversation, its access and its history; the visitor hears who serves it now', async () => {
    const agents = await team();
    const visitor = await queuedVisitor();
    const id = visitor.client.clientId;
    await waitUntil(() => expect(servingAgent(agents, id)).toBeDefined());
    const from = agents[servingAgent(agents, id)!];
    const to = Object.values(agents).find((a) => a !== from)!;
    visitor.client.sendText('my order 42 is late');
    await waitUntil(() => expect(conversationAt(from.rec, id).map((m) => m.dataContent)).toContain('my order 42 is late'));
    const session = from.desk.session(id)!;
    const where = { mchId: session.mchId ?? '', platformId: session.platformId ?? '' };

    await from.desk.transfer(id, `agent:${to.account}`, 'VIP, wants a refund');
    await waitUntil(() => expect(to.desk.session(id)).toBeDefined());
    await waitUntil(() => expect(from.desk.session(id)).toBeUndefined());
    // the old desk keeps it, read-only, as transferred to the new agent (not ended)
    const toName = `Agent ${to.account[0]!.toUpperCase()}${to.account.slice(1)}`;
    await waitUntil(() =>
      expect(from.desk.conversations.store.getState().list).toEqual([
        expect.objectContaining({ sessionId: session.sessionId, status: 'transferred', transferredTo: { id: `agent:${to.account}`, name: toName } }),
      ]),
    );
    expect(from.desk.transfers.store.getState().last).toEqual({ clientId: id, toAgentId: `agent:${to.account}`, state: 'done' });
    expect(servingAgent(agents, id)).toBe(to.account);
    await waitUntil(() => expect(visitor.client.session.getState().agent?.name).toBe(`Agent ${to.account[0]!.toUpperCase()}${to.account.slice(1)}`));
    expect(to.desk.status.getState().notes[id]).toEqual({ from: { id: `agent:${from.account}`, name: expect.stringMatching(/^Agent /) as unknown }, note: 'VIP, wants a refund' });
    // the note is for agents: nothing the visitor has mentions it
    expect(visitor.client.messages.getSnapshot().some((m) => (m.dataContent ?? '').includes('VIP'))).toBe(false);

    // the history follows: the new agent's history call has the visitor's text
    await waitUntil(() => expect(conversationAt(to.rec, id).map((m) => m.dataContent)).toContain('my order 42 is late'));
    const page = await to.rec.client.api.findMsgForCus({ clientId: id, ...where, size: 50 });
    expect(page.list.map((m) => m.dataContent)).toContain('my order 42 is late');
    // the old agent lost access (protocol §3a step 5)
    await expect(from.rec.client.api.findMsgForCus({ clientId: id, ...where, size: 50 })).rejects.toMatchObject({ code: 4003 });

    // the visitor's next text reaches the new agent only
    const text = visitor.client.sendText('still there?');
    await waitUntil(() => expect(conversationAt(to.rec, id).some((m) => m.fp === text.fp)).toBe(true));
    expect(conversationAt(from.rec, id).some((m) => m.fp === text.fp)).toBe(false);
  });

  it('refuses a transfer to an agent at capacity, away or offline with a typed error, and one of a conversation the agent does not serve; nothing changes', async () => {
    const agents = await team();
    const first = await queuedVisitor();
    await waitUntil(() => expect(servingAgent(agents, first.client.clientId)).toBe('one'));
    const visitor = await queuedVisitor();
    const id = visitor.client.clientId;
    await waitUntil(() => expect(servingAgent(agents, id)).toBe('three'));
    const from = agents.three;
    await waitUntil(() => expect(from.desk.status.getState().others.find((o) => o.id === 'agent:one')?.open).toBe(1));

    // one serves 1 of its 1
    await expect(from.desk.transfer(id, 'agent:one', 'please take it')).rejects.toMatchObject({ name: 'TransferError', reason: 'at-capacity', clientId: id, toAgentId: 'agent:one' });
    expect(from.desk.transfers.store.getState().last).toEqual({ clientId: id, toAgentId: 'agent:one', state: 'refused', reason: 'at-capacity' });
    // two is away
    agents.two.desk.setStatus('away');
    await waitUntil(() => expect(from.desk.status.getState().others.find((o) => o.id === 'agent:two')?.status).toBe('away'));
    await expect(from.desk.transfer(id, 'agent:two')).rejects.toMatchObject({ reason: 'agent-away' });
    // one does not serve this visitor; nobody is called "nobody"; an agent cannot transfer to itself
    await expect(agents.one.desk.transfer(id, 'agent:two')).rejects.toMatchObject({ reason: 'not-allowed' });
    await expect(from.desk.transfer(id, 'agent:nobody')).rejects.toMatchObject({ reason: 'not-allowed' });
    await expect(from.desk.transfer(id, 'agent:three')).rejects.toMatchObject({ reason: 'not-allowed' });
    // two goes offline
    agents.two.rec.client.disconnect();
    await waitUntil(() => expect(from.desk.status.getState().others.some((o) => o.id === 'agent:two')).toBe(false));
    await expect(from.desk.transfer(id, 'agent:two')).rejects.toMatchObject({ reason: 'agent-offline' });

    // nothing changed: three still serves the visitor, who was told of nobody else
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(servingAgent(agents, id)).toBe('three');
    expect(visitor.client.session.getState()).toMatchObject({ status: 'agent', agent: { name: 'Agent Three' } });
    expect(from.desk.conversations.store.getState().list).toEqual([expect.objectContaining({ clientId: id, status: 'active' })]);
    expect(loads(agents)).toMatchObject({ one: 1, three: 1 });
  });
});
