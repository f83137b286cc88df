/**
 * The server's store fails while a text is being stored (the database away for a moment): the
 * server closes that socket with 1011, and the SDK reconnects by itself, resends the text, and
 * ends with it sent once and shown once. No user action.
 */
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../examples/server/src/store/types.js';
import { clientsPerTest, connectedAgent, connectedVisitor, recordingWebSocket, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;
sharedServer((s) => (server = s), { allowErrors: true });
const clients = clientsPerTest();

describe('a store failure while a text is stored', () => {
  it('closes with 1011; the client reconnects, resends, and the text is sent and stored once', async () => {
    const traffic = recordingWebSocket();
    const visitor = await connectedVisitor(clients, server, { WebSocket: traffic.WebSocket });
    const agent = await connectedAgent(clients, server);
    const v = visitor.client;

    // the database fails once, on this text only
    const chat = server.store.chat as { insertMessage: (m: MessageRecord) => Promise<boolean> };
    const insert = chat.insertMessage;
    let failures = 0;
    chat.insertMessage = async (m) => {
      if (m.dataContent === 'stored on the second try' && failures === 0) {
        failures += 1;
        throw new Error('connection to the database lost (test)');
      }
      return insert(m);
    };
    try {
      const text = v.sendText('stored on the second try');
      await waitUntil(() => expect(v.messages.get(text.fp!)?.sendState).toBe('sent'), 15_000);
      expect(failures).toBe(1);
      expect(traffic.closeCodes).toContain(1011);
      expect(visitor.logins.length).toBeGreaterThanOrEqual(2); // reconnected by itself
      const stored = await server.store.chat.conversation(v.clientId, 'M1001', 'P01', { size: 101 });
      expect(stored.filter((m) => m.dataContent === 'stored on the second try')).toHaveLength(1);
      expect(v.messages.getSnapshot().filter((m) => m.dataContent === 'stored on the second try')).toHaveLength(1);
      // the server reported what went wrong, and the agent's connection was not touched
      expect(server.errors.some((e) => String(e).includes('database lost'))).toBe(true);
      server.errors.length = 0;
      expect(agent.client.connectionState).toBe('open');
    } finally {
      chat.insertMessage = insert;
    }
  });
});
