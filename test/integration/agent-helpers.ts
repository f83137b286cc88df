/**
 * Helpers of the agent desk's integration tests: an agent whose network the test can cut, an
 * agent client with its desk, a visitor served by it, and the agent's view of one conversation.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import type { StorageLike, StoredMessage, WebSocketConstructor } from '../../src/index.js';
import { AgentDesk, agentConnectData, readAgentLogin } from '../../src/agent/index.js';
import { ALICE, connectedVisitor, open, waitUntil, type Clients, type Recorded, type ServerEndpoints } from './harness.js';

/** An agent's network that the test can cut: sockets are dropped and refused, fetch fails. */
export function cuttableNetwork(): { WebSocket: WebSocketConstructor; fetch: typeof fetch; cut(): void; restore(): void } {
  const sockets = new Set<WebSocket>();
  const net = { down: false };
  class Cuttable extends WebSocket {
    constructor(url: string) {
      if (net.down) throw new Error('network unreachable (test: the agent is offline)');
      super(url);
      sockets.add(this);
      this.addEventListener('close', () => sockets.delete(this));
    }
  }
  return {
    WebSocket: Cuttable as unknown as WebSocketConstructor,
    fetch: (input, init) => (net.down ? Promise.reject(new TypeError('fetch failed (test: the agent is offline)')) : fetch(input, init)),
    cut() {
      net.down = true;
      for (const ws of sockets) ws.terminate();
    },
    restore() {
      net.down = false;
    },
  };
}

/** Extra client options of an agent. */
export type AgentExtra = Parameters<Clients['make']>[1];

/** An agent client with a desk; `storage` keeps its login (a reload reuses it). */
export async function deskAgent(clients: Clients, server: ServerEndpoints, storage: StorageLike, extra: AgentExtra = {}): Promise<{ rec: Recorded; desk: AgentDesk }> {
  const kept = readAgentLogin(storage);
  const connectData = kept ? agentConnectData(kept.account, { token: kept.token }) : agentConnectData(ALICE.account, { password: ALICE.password });
  const rec = clients.make(server, { connectData, ...extra });
  const desk = new AgentDesk(rec.client, { storage });
  await open(rec);
  return { rec, desk };
}

/** A visitor that asked the robot something, then transferred; the agent accepts it. */
export async function servedBy(clients: Clients, server: ServerEndpoints, desk: AgentDesk, clientId = `v-${randomUUID()}`): Promise<Recorded> {
  const visitor = await connectedVisitor(clients, server, { clientId });
  const v = visitor.client;
  const question = v.sendText('What are your opening hours?');
  await waitUntil(() => expect(v.messages.get(question.fp!)?.sendState).toBe('sent'));
  await waitUntil(() => expect(v.messages.getSnapshot().filter((m) => m.type === 200).length).toBeGreaterThanOrEqual(2));
  v.transferToHuman();
  await waitUntil(() => expect(desk.queue.getState().queue.some((q) => q.clientId === v.clientId)).toBe(true));
  desk.accept(v.clientId);
  await waitUntil(() => expect(v.session.getState().status).toBe('agent'));
  return visitor;
}

/** The agent's chat messages of one visitor, in list order. */
export function conversationAt(agent: Recorded, clientId: string): StoredMessage[] {
  return agent.client.messages.getSnapshot().filter((m) => (m.from === clientId || m.to === clientId) && m.type >= 100 && m.type !== 104 && m.type !== 300 && m.type !== 201);
}
