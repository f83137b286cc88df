/**
 * The durable outbox and the restored service state against the real reference server (issue 10):
 * texts composed while the server is down survive the tab and reach the server exactly once, in
 * composition order, from the next page of the same visitor; a reload during an agent chat shows
 * the agent again. IndexedDB is fake-indexeddb (the default storage path of the SDK in this file).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { indexedDbOutboxStorage } from '../../src/outbox/storage.js';
import { outboxScope } from '../../src/outbox/durable.js';
import { removeDir, startServer, tempDir } from '../../examples/server/test/helpers/start.js';
import { connectedAgent, connectedVisitor, DEMO, DEMO_VISITOR, download, endpointsFrom, frame, isEvent, open, pngBytes, portOf, restartableServers, waitUntil } from './harness.js';

const servers = restartableServers();
const { clients } = servers;

const visitorData = { ...DEMO_VISITOR, language: 'en' };

describe('texts typed while the server is down, tab closed, visitor back later: each stored once, in order', () => {
  it('restores them from IndexedDB as pending and the server stores every one exactly once in composition order', async () => {
    let server = await servers.start();
    const port = portOf(server);
    const endpoints = endpointsFrom(server);
    await server.close(); // the server is down before the visitor's page loads

    const state = memoryStorage(); // the page's localStorage (the client id lives there)
    const first = clients.make(endpoints, { storage: state, connectData: visitorData });
    const start = await first.client.start();
    expect(start.session).toBeNull(); // no key exchange: the server is down
    first.client.connect();
    const texts = ['first while down', 'second while down', 'third while down', 'fourth while down'];
    const fps = texts.map((t) => first.client.sendText(t).fp!);
    expect(first.client.messages.getSnapshot().map((m) => m.sendState)).toEqual(['pending', 'pending', 'pending', 'pending']);
    const scope = outboxScope(first.client.clientId, first.client.getConnectData());
    await waitUntil(async () => expect((await indexedDbOutboxStorage().load(scope)).map((r) => r.fp).sort()).toEqual([...fps].sort()));
    first.client.destroy(); // the tab is closed

    server = await servers.start({ port });
    const again = clients.make(endpoints, { storage: state, connectData: visitorData });
    expect(again.client.clientId).toBe(first.client.clientId);
    const backAt = Date.now();
    await open(again);
    await waitUntil(() => expect(fps.map((fp) => again.client.messages.get(fp)?.sendState)).toEqual(['sent', 'sent', 'sent', 'sent']));
    const recovery = Date.now() - backAt;

    const stored = (await server.store.chat.conversation(again.client.clientId, DEMO.mchId, DEMO.platformId, { size: 100 })).filter((m) => m.type === 100);
    expect(stored.map((m) => m.dataContent)).toEqual(texts);
    expect(stored.map((m) => m.fp)).toEqual(fps);
    const shown = again.client.messages.getSnapshot().filter((m) => m.type === 100);
    expect(shown.map((m) => m.dataContent)).toEqual(texts);
    await waitUntil(async () => expect(await indexedDbOutboxStorage().load(scope)).toEqual([]));
    expect(again.notices).toEqual([]);
    console.info(`outbox: ${texts.length} texts restored and stored once each, ${recovery} ms after the new page connected`);
  });
});

describe('a reload during an agent chat restores the agent', () => {
  it('the new page of the same visitor has status agent with the agent name, without a new session', async () => {
    const server = await startServer();
    servers.running.push(server);
    const endpoints = endpointsFrom(server);
    const state = memoryStorage();
    const visitor = await connectedVisitor(clients, endpoints, { storage: state });
    const agent = await connectedAgent(clients, endpoints);
    const id = visitor.client.clientId;
    visitor.client.transferToHuman();
    await frame(agent, (m) => m.type === 310 && (m.dataContent ?? '').includes(id));
    agent.client.send({ type: 311, dataContent: JSON.stringify({ clientId: id }) });
    await frame(visitor, isEvent('agent-joined'));
    const { sessionId } = visitor.client.session.getState();
    expect(visitor.client.session.getState()).toMatchObject({ status: 'agent', agent: { name: 'Alice' } });
    visitor.client.destroy(); // reload

    const reloaded = await connectedVisitor(clients, endpoints, { storage: state });
    expect(reloaded.client.clientId).toBe(id);
    await waitUntil(() => expect(reloaded.client.session.getState()).toMatchObject({ status: 'agent', sessionId, agent: { id: 'agent:alice', name: 'Alice' } }));
    expect(reloaded.client.messages.getSnapshot().filter((m) => m.type === 300)).toEqual([]);
    expect(reloaded.frames.some((f) => isEvent('created')(f.message))).toBe(false);
  });
});

describe('a file picked while the server is down is kept as a Blob and its upload restarts after the reload', () => {
  it('under the cap: uploaded and sent once by the next page; over the cap: failed too-large-to-keep', async () => {
    let server = await servers.start({ dataDir: tempDir() });
    const port = portOf(server);
    const dir = server.dataDir;
    const endpoints = endpointsFrom(server);
    await server.close();

    const state = memoryStorage();
    const bytes = pngBytes([0, 128, 255], 8);
    const first = clients.make(endpoints, { storage: state, connectData: visitorData, outboxFileCap: bytes.length + 10 });
    first.client.connect();
    const kept = first.client.sendFile(new File([bytes], 'kept.png', { type: 'image/png' }), 'image');
    const big = first.client.sendFile(new File([new Uint8Array(64)], 'big.txt', { type: 'text/plain' }), 'file');
    expect(first.client.messages.get(kept.fp!)?.sendState).toBe('pending');
    const scope = outboxScope(first.client.clientId, first.client.getConnectData());
    await waitUntil(async () => {
      const records = await indexedDbOutboxStorage().load(scope);
      expect(records.find((r) => r.fp === kept.fp)?.file?.blob?.size).toBe(bytes.length);
      expect(records.find((r) => r.fp === big.fp)?.file).toMatchObject({ name: 'big.txt', size: 64 });
      expect(records.find((r) => r.fp === big.fp)?.file?.blob).toBeUndefined();
    });
    first.client.destroy();

    server = await servers.start({ dataDir: dir, port });
    const again = clients.make(endpoints, { storage: state, connectData: visitorData });
    await open(again);
    await waitUntil(() => expect(again.client.messages.get(kept.fp!)?.sendState).toBe('sent'));
    expect(again.client.messages.get(big.fp!)).toMatchObject({ sendState: 'failed', failReason: 'too-large-to-keep' });
    again.client.retry(big.fp!); // nothing to send: the bytes were not kept
    expect(again.client.messages.get(big.fp!)).toMatchObject({ sendState: 'failed', failReason: 'too-large-to-keep' });
    const stored = (await server.store.chat.conversation(again.client.clientId, DEMO.mchId, DEMO.platformId, { size: 100 })).filter((m) => m.type === 101);
    expect(stored.map((m) => m.fp)).toEqual([kept.fp]);
    await again.client.fetchMissed();
    expect((await server.store.chat.conversation(again.client.clientId, DEMO.mchId, DEMO.platformId, { size: 100 })).some((m) => m.fp === big.fp)).toBe(false);
    const served = await download(new URL(stored[0]!.dataContent, server.url).toString());
    expect([...served.bytes]).toEqual([...bytes]);
    await waitUntil(async () => expect(await indexedDbOutboxStorage().load(scope)).toEqual([]));
    expect(again.client.t('fileTooLargeToKeep')).toContain('刷新'); // a clear reason, in the interface language
    removeDir(dir);
  });
});
