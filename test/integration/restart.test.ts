/**
 * A server restart mid-conversation (issue 3, "Done means"), SDK against the real reference
 * server on a SQLite file: the clients reconnect to the new process on the same port and data
 * directory, what was pending is delivered exactly once, and what was sent to the visitor while it
 * was away is fetched; nothing is lost or duplicated.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ChatMessage, StoredMessage, WebSocketConstructor } from '../../src/index.js';
import { ALICE, DEMO, DEMO_VISITOR, ecbDecrypt, endpointsFrom, frame, isEvent, open, portOf, restartableServers, waitUntil } from './harness.js';

const servers = restartableServers();
const { clients, dataDir } = servers;

/**
 * The visitor's network: while `away`, opening a socket fails at once (as offline); `dropOnce`
 * loses one incoming frame by its `fp` (an acknowledgement lost on the way), reading encrypted
 * frames with `userKey`.
 */
const network = { away: false, dropOnce: new Set<string>(), userKey: '' };
const dropped: ChatMessage[] = [];

class VisitorSocket extends WebSocket {
  constructor(url: string) {
    if (network.away) throw new Error('network unreachable (test: the visitor is away)');
    super(url);
    const accessor = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
    Object.defineProperty(this, 'onmessage', {
      configurable: true,
      get: () => accessor?.get?.call(this) as unknown,
      set: (handler: ((e: { data: unknown }) => void) | null) => {
        const filtered = handler && ((e: { data: unknown }) => {
          if (network.dropOnce.size === 0) return handler(e);
          const text = typeof e.data === 'string' ? e.data : Buffer.from(e.data as ArrayBuffer).toString('utf8');
          const message = JSON.parse(text.startsWith('{') ? text : ecbDecrypt(network.userKey, text)) as ChatMessage;
          if (message.fp && network.dropOnce.delete(message.fp)) {
            dropped.push(message);
            return;
          }
          handler(e);
        });
        accessor?.set?.call(this, filtered);
      },
    });
  }
}

function countBy<T>(items: readonly T[], key: (item: T) => unknown): Map<unknown, number> {
  const counts = new Map<unknown, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

describe('server restart mid-conversation: the client reconnects; no message is lost or duplicated', () => {
  it('delivers the outbox exactly once and fetches what the agent wrote while the visitor was away', async () => {
    let server = await servers.start();
    const port = portOf(server);
    const endpoints = endpointsFrom(server);
    const visitor = clients.make(endpoints, {
      WebSocket: VisitorSocket as unknown as WebSocketConstructor,
      limits: { reconnectDelay: 50, maxReconnectAttempts: 400 },
      connectData: { ...DEMO_VISITOR, language: 'en' },
    });
    const agent = clients.make(endpoints, { connectData: { ...ALICE } });
    await open(visitor);
    await open(agent);
    const v = visitor.client;
    const a = agent.client;
    const id = v.clientId;
    network.userKey = (await v.start()).session!.userKey;

    // ---- a conversation with the agent
    v.transferToHuman();
    await frame(agent, (m) => m.type === 310 && (m.dataContent ?? '').includes(id));
    a.send({ type: 311, dataContent: JSON.stringify({ clientId: id }) });
    await frame(visitor, isEvent('agent-joined'));
    const before = v.sendText('before the restart');
    await waitUntil(() => expect(v.messages.get(before.fp!)?.sendState).toBe('sent'));
    const answer = a.sendText('an answer before the restart', { to: id });
    await frame(visitor, (m) => m.fp === answer.fp);

    // ---- a message whose acknowledgement is lost: stored by the server, pending at the client
    const lostAck = v.sendText('stored, but the ack was lost');
    network.dropOnce.add(lostAck.fp!);
    await waitUntil(() => expect(dropped.map((m) => m.fp)).toEqual([lostAck.fp]));
    await frame(agent, (m) => m.fp === lostAck.fp);
    expect(v.messages.get(lostAck.fp!)?.sendState).toBe('pending');

    // ---- the server goes down (sockets closed with 1001); the visitor's network goes away too
    network.away = true;
    await server.close();
    await waitUntil(() => {
      expect(v.connectionState).toBe('reconnecting');
      expect(a.connectionState).toBe('reconnecting');
    });
    expect(existsSync(join(dataDir, 'kefu.db'))).toBe(true);

    // ---- sent while down: they wait in the outbox
    const p1 = v.sendText('sent while the server was down (1)');
    const p2 = v.sendText('sent while the server was down (2)');
    const a1 = a.sendText('the agent wrote while the server was down', { to: id });
    for (const m of [p1, p2]) expect(v.messages.get(m.fp!)?.sendState).toBe('pending');
    expect(a.messages.get(a1.fp!)?.sendState).toBe('pending');

    // ---- a new process on the same port and data directory: same keys, key sessions, conversation
    server = await servers.start({ port });
    expect(server.url).toBe(endpoints.url);
    expect(server.socketKey).toBe(endpoints.socketKey);

    // the agent comes back first: its pending message is delivered, and it writes once more
    await waitUntil(() => expect(agent.logins).toEqual([{ reconnected: false }, { reconnected: true }]));
    await waitUntil(() => expect(a.messages.get(a1.fp!)?.sendState).toBe('sent'));
    const a2 = a.sendText('the agent wrote while the visitor was away', { to: id });
    await waitUntil(() => expect(a.messages.get(a2.fp!)?.sendState).toBe('sent'));
    expect(v.connectionState).toBe('reconnecting');

    // ---- the visitor's network is back: it reconnects, resends its outbox, fetches what it missed
    network.away = false;
    await waitUntil(() => expect(visitor.logins).toEqual([{ reconnected: false }, { reconnected: true }]));
    await waitUntil(() => {
      for (const m of [lostAck, p1, p2]) expect(v.messages.get(m.fp!)?.sendState).toBe('sent');
      expect(v.messages.get(a1.fp!)?.dataContent).toBe('the agent wrote while the server was down');
      expect(v.messages.get(a2.fp!)?.dataContent).toBe('the agent wrote while the visitor was away');
    });
    // the agent receives each of the visitor's messages once (the lost-ack resend is not forwarded again)
    await waitUntil(() => {
      for (const m of [p1, p2]) expect(agent.frames.filter((f) => f.message.fp === m.fp)).toHaveLength(1);
    });
    expect(agent.frames.filter((f) => f.message.fp === lostAck.fp)).toHaveLength(1);

    // ---- the server holds one record per fp, with everything in it
    const stored = await server.store.chat.conversation(id, DEMO.mchId, DEMO.platformId, { size: 100 });
    expect([...countBy(stored, (m) => m.fp).values()].every((n) => n === 1)).toBe(true);
    const wanted = [before, answer, lostAck, p1, p2, a1, a2];
    for (const m of wanted) expect(stored.filter((r) => r.fp === m.fp).map((r) => r.dataContent)).toEqual([m.dataContent]);

    // ---- the visitor shows each message once, every chat message it sent as 'sent'
    const shown: readonly StoredMessage[] = v.messages.getSnapshot();
    expect([...countBy(shown, (m) => m.fp).values()].every((n) => n === 1)).toBe(true);
    expect(shown.filter((m) => m.from === id && m.type === 100).map((m) => [m.dataContent, m.sendState])).toEqual([
      ['before the restart', 'sent'],
      ['stored, but the ack was lost', 'sent'],
      ['sent while the server was down (1)', 'sent'],
      ['sent while the server was down (2)', 'sent'],
    ]);
    // and in the server's order: what the visitor holds matches the stored conversation
    const chat = (list: readonly { type: number; fp?: string }[]) => list.filter((m) => m.type === 100).map((m) => m.fp);
    expect(chat(shown)).toEqual(chat(stored));

    // a later history read agrees (nothing newer than the newest held)
    const page = await v.api.findMsgForCus({ clientId: id, mchId: DEMO.mchId, platformId: DEMO.platformId, after: v.messages.newestTime()! });
    expect(page.list).toEqual([]);
    // nothing went wrong that the user is told about; the only errors are failed opens while down or away
    expect(visitor.notices).toEqual([]);
    expect(agent.notices).toEqual([]);
    expect(agent.errors.filter((e) => e.source !== 'connect')).toEqual([]);
    expect(visitor.errors.filter((e) => e.source !== 'connect')).toEqual([]);
    expect(visitor.errors.length).toBeGreaterThan(0); // it did try while away
  });
});
