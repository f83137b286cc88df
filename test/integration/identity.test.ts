/**
 * Protocol §3a end to end, SDK against the real reference server on loopback: a visitor keeps its
 * conversation across reconnects and restarts because it keeps its secret; a second client that
 * knows only the uuid is refused (4004), becomes a new visitor with a notice, and never sees the
 * first visitor's conversation.
 */
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { clientsPerTest, DEMO_VISITOR, frame, open, recordingWebSocket, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;
const connectData = DEMO_VISITOR;

sharedServer((s) => (server = s));
const clients = clientsPerTest();

describe('protocol §3a: the visitor comes back with its secret', () => {
  it('keeps the conversation across a dropped socket and a page reload (same storage)', async () => {
    const storage = memoryStorage();
    const first = clients.make(server, { storage, connectData });
    await open(first);
    const id = first.client.clientId;
    expect(storage.getItem('clientSecret')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sent = first.client.sendText('remember my order 1234');
    await waitUntil(() => expect(first.client.messages.get(sent.fp!)?.sendState).toBe('sent'));

    // the socket goes down and comes back: the client reconnects with its secret and is welcomed again
    first.client.disconnect();
    first.client.connect();
    await waitUntil(() => expect(first.logins).toHaveLength(2));
    await waitUntil(() => expect(first.client.connectionState).toBe('open'));
    first.client.destroy();

    // a reload: a new client on the same storage is the same visitor and reads its history
    const again = clients.make(server, { storage, connectData });
    await open(again);
    expect(again.client.clientId).toBe(id);
    expect(again.client.userId).toBe(id);
    const page = await again.client.loadOlder(50);
    expect(page.list.map((m) => m.dataContent)).toContain('remember my order 1234');
    expect(again.notices.map((n) => n.key)).not.toContain('identityReset');
    expect(again.errors).toEqual([]);
  });
});

describe('protocol §3a: the uuid alone proves nothing', () => {
  it('a second client with the same uuid but no secret gets 4004, becomes a new visitor with a notice, and sees nothing of the first', async () => {
    const owner = clients.make(server, { connectData });
    await open(owner);
    const victimId = owner.client.clientId;
    owner.client.sendText('private: my PIN is 0000');
    await waitUntil(() => expect(owner.client.messages.getSnapshot().some((m) => m.sendState === 'sent')).toBe(true));

    const { closeCodes, WebSocket } = recordingWebSocket();
    const intruder = clients.make(server, { clientId: victimId, connectData, WebSocket });
    await intruder.client.start();
    intruder.client.connect();
    await waitUntil(() => expect(intruder.client.userId).toBeDefined());
    expect(closeCodes).toEqual([4004]);
    expect(intruder.client.clientId).not.toBe(victimId);
    expect(intruder.client.userId).toBe(intruder.client.clientId);
    expect(intruder.notices.map((n) => n.key)).toContain('identityReset');
    const history = await intruder.client.loadOlder(100);
    expect(JSON.stringify(history.list)).not.toContain('PIN');
    expect(intruder.client.messages.getSnapshot().some((m) => (m.dataContent ?? '').includes('PIN'))).toBe(false);
    expect(intruder.frames.some((f) => JSON.stringify(f.message).includes(victimId))).toBe(false);

    // the owner is untouched: it still sends and hears its answers
    const later = owner.client.sendText('still me');
    await frame(owner, (m) => m.fp === later.fp && typeof m.createTime === 'number');
    expect(owner.notices.map((n) => n.key)).not.toContain('identityReset');
  });
});
