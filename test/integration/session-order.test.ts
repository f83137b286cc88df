/**
 * Session events that cross on the wire (the cluster routing flake of the desk issue): a queue
 * position (`queued`, live) is read from the store and sent a moment later; when another node
 * assigns the visitor in between, its `agent-joined` can reach the visitor first. Seen on two
 * nodes under load: the store's assignment was exact but the visitor's client stayed `queued`.
 *
 * The real server and the SDK visitor, with the visitor's socket delivering every `queued` only
 * after the next `agent-joined` (the order two nodes can produce); the AES switch is off so the
 * test can read the frames.
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { WebSocketConstructor } from '../../src/index.js';
import { ALICE, clientsPerTest, DEMO_VISITOR, frame, isEvent, open, sharedServer, waitUntil, type TestServer } from './harness.js';

const clients = clientsPerTest();
let server!: TestServer;
sharedServer((s) => (server = s), { env: { AES_SWITCH: '0' } });

type Handler = ((event: { data: unknown }) => void) | null;

/** The session event named in a plain frame, if it is one. */
function eventOf(data: unknown): string | undefined {
  try {
    const message = JSON.parse(String(data)) as { type?: number; dataContent?: string };
    return message.type === 300 ? (JSON.parse(message.dataContent ?? '{}') as { event?: string }).event : undefined;
  } catch {
    return undefined;
  }
}

/** A socket that holds back `queued` session events and delivers them right after the next `agent-joined`. */
function queuedAfterJoined(): { WebSocket: WebSocketConstructor; held: () => number; released: () => number } {
  const counts = { held: 0, released: 0 };
  // ws keeps `onmessage` as an accessor of its prototype: the SDK's handler is wrapped on the way in
  const inherited = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  class Crossing extends WebSocket {
    constructor(url: string) {
      super(url);
      const waiting: unknown[] = [];
      let handler: Handler = null;
      Object.defineProperty(this, 'onmessage', {
        get: () => handler,
        set: (next: Handler) => {
          handler = next;
          inherited?.set?.call(this, (event: { data: unknown }) => {
            const name = eventOf(event.data);
            if (name === 'queued') {
              counts.held += 1;
              waiting.push(event.data);
              return;
            }
            handler?.(event);
            if (name !== 'agent-joined') return;
            for (const data of waiting.splice(0)) {
              counts.released += 1;
              handler?.({ data });
            }
          });
        },
      });
    }
  }
  return { WebSocket: Crossing as unknown as WebSocketConstructor, held: () => counts.held, released: () => counts.released };
}

describe('a `queued` that reaches the visitor after its `agent-joined` does not take the served state back', () => {
  it('the visitor stays served by the agent', async () => {
    const wire = queuedAfterJoined();
    const visitor = clients.make(server, { WebSocket: wire.WebSocket, connectData: { ...DEMO_VISITOR, language: 'en' } });
    const agent = clients.make(server, { connectData: { ...ALICE } });
    await open(visitor);
    await open(agent);
    const v = visitor.client;
    await waitUntil(() => expect(v.session.getState().sessionId).toBeTruthy());

    v.transferToHuman();
    await waitUntil(() => expect(wire.held()).toBeGreaterThan(0));
    await frame(agent, (m) => m.type === 310 && (m.dataContent ?? '').includes(v.clientId));
    agent.client.send({ type: 311, dataContent: JSON.stringify({ clientId: v.clientId }) });
    await frame(visitor, isEvent('agent-joined'));
    await waitUntil(() => expect(wire.released()).toBe(wire.held()));

    expect(v.session.getState()).toMatchObject({ status: 'agent', position: null, agent: { name: 'Alice' } });
  });
});
