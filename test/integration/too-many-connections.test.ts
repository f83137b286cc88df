/**
 * 4005 too many connections, SDK against the real reference server: with
 * `MAX_SOCKETS_PER_IDENTITY` sockets of one identity open, one more client of that identity is
 * refused with 4005 and makes no further connect attempt by itself, even with the suite's fast
 * reconnect limits (50 ms); once a socket is closed, the user's "reconnect now" gets it in.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CloseCode } from '../../src/codes.js';
import { memoryStorage, type WebSocketConstructor } from '../../src/index.js';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { Clients, connectedVisitor, DEMO, waitUntil } from './harness.js';

/** The identity's socket limit of the server under test. */
const MAX_SOCKETS = 2;

let server: Awaited<ReturnType<typeof startServer>>;
const clients = new Clients();

beforeAll(async () => {
  server = await startServer({}, { MAX_SOCKETS_PER_IDENTITY: String(MAX_SOCKETS) });
});
afterEach(() => clients.destroyAll());
afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
  expect(server.errors).toEqual([]);
});

/** A `ws` constructor that counts the sockets it makes (every connect attempt is one upgrade). */
function countingWebSocket(): { WebSocket: WebSocketConstructor; attempts: () => number } {
  let made = 0;
  class Counting extends WebSocket {
    constructor(url: string) {
      super(url);
      made++;
    }
  }
  return { WebSocket: Counting as unknown as WebSocketConstructor, attempts: () => made };
}

describe('one socket more than MAX_SOCKETS_PER_IDENTITY: 4005, then no connect until the user acts', () => {
  it('the extra client halts with the reason, tries nothing for seconds, and gets in on reconnect() once a socket closed', async () => {
    // one identity (client id and secret in one storage), as in tabs that do not coordinate
    const storage = memoryStorage();
    const clientId = randomUUID();
    const open = [await connectedVisitor(clients, server, { clientId, storage })];
    for (let i = 1; i < MAX_SOCKETS; i++) open.push(await connectedVisitor(clients, server, { storage }));
    expect(server.connections()).toBe(MAX_SOCKETS);

    const counting = countingWebSocket();
    const extra = clients.make(server, {
      storage,
      WebSocket: counting.WebSocket,
      connectData: { role: 'visitor', mchId: DEMO.mchId, platformId: DEMO.platformId, language: 'en' },
    });
    expect(extra.client.clientId).toBe(clientId);
    await extra.client.start();
    extra.client.connect();
    await waitUntil(() =>
      expect(extra.client.connectionStore.getSnapshot()).toMatchObject({ state: 'failed', halted: true, haltReason: 'too-many-connections', lastCloseCode: CloseCode.TooManyConnections }),
    );
    expect(extra.notices).toContainEqual(expect.objectContaining({ key: 'tooManyConnections', level: 'error' }));
    // without the halt, the fast limits (50 ms) would retry some 60 times in these 3 s
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(counting.attempts()).toBe(1);
    expect(server.connections()).toBe(MAX_SOCKETS);

    // another socket of the identity goes away; the user asks to reconnect
    open[0]?.client.destroy();
    await waitUntil(() => expect(server.connections()).toBe(MAX_SOCKETS - 1));
    extra.client.reconnect();
    await waitUntil(() => expect(extra.client.connectionStore.getSnapshot()).toMatchObject({ state: 'open', halted: false, haltReason: null }));
    expect(counting.attempts()).toBe(2);
    expect(extra.errors).toEqual([]);
  });
});
