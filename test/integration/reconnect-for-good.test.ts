/**
 * Reconnect for good (issue 10), SDK against the real reference server: the server stays away
 * longer than the spec's first phase of reconnects; the client shows `failed` but keeps trying, comes
 * back by itself when the server does, and a text typed during the outage is delivered exactly once.
 * A short policy (10 × 50 ms, then jitter capped at 200 ms) keeps the test quick.
 */
import { describe, expect, it } from 'vitest';
import { DefaultReconnectPolicy, type ConnectionSnapshot } from '../../src/index.js';
import { DEMO, DEMO_VISITOR, endpointsFrom, open, portOf, restartableServers, waitUntil } from './harness.js';

const servers = restartableServers();
const { clients } = servers;

describe('an outage longer than the first phase of reconnects', () => {
  it('shows failed, keeps trying, reconnects by itself and delivers the text typed meanwhile once', async () => {
    let server = await servers.start();
    const port = portOf(server);
    const endpoints = endpointsFrom(server);
    const visitor = clients.make(endpoints, {
      limits: { reconnectDelay: 50, maxReconnectAttempts: 10 },
      reconnectPolicy: new DefaultReconnectPolicy({ firstPhaseDelay: 50, firstPhaseAttempts: 10, visibleCap: 200, hiddenCap: 200, minDelay: 20 }),
      connectData: { ...DEMO_VISITOR, language: 'en' },
    });
    await open(visitor);
    const v = visitor.client;
    const snapshots: ConnectionSnapshot[] = [];
    v.connectionStore.subscribe((s) => snapshots.push(s));
    const before = v.sendText('before the outage');
    await waitUntil(() => expect(v.messages.get(before.fp!)?.sendState).toBe('sent'));

    // ---- the server goes away for longer than 10 × 50 ms
    await server.close();
    await waitUntil(() => expect(v.connectionState).toBe('reconnecting'));
    const typed = v.sendText('typed during the outage');
    await waitUntil(() => expect(v.connectionStore.getSnapshot()).toMatchObject({ state: 'failed', failed: true, halted: false }), 5_000);
    // failed is not final: the slow phase keeps scheduling attempts
    await waitUntil(() => expect(v.connectionStore.getSnapshot().attempt).toBeGreaterThanOrEqual(14), 5_000);
    expect(v.connectionStore.getSnapshot().nextAttemptAt).not.toBeNull();
    expect(v.messages.get(typed.fp!)?.sendState).toBe('pending');
    expect(visitor.notices).toEqual([]);

    // ---- the server is back on the same port and data: no user action
    server = await servers.start({ port });
    const backAt = Date.now();
    await waitUntil(() => expect(v.connectionState).toBe('open'), 5_000);
    const recoveryMs = Date.now() - backAt;
    console.info(`[reconnect-for-good] recovered ${recoveryMs} ms after the server was back (slow-phase cap 200 ms)`);
    expect(recoveryMs).toBeLessThan(2_000);
    await waitUntil(() => expect(v.messages.get(typed.fp!)?.sendState).toBe('sent'));
    expect(visitor.logins).toEqual([{ reconnected: false }, { reconnected: true }]);
    expect(v.connectionStore.getSnapshot()).toMatchObject({ state: 'open', failed: false, attempt: 0, nextAttemptAt: null, loggedIn: true });
    expect(snapshots.some((s) => s.state === 'failed')).toBe(true);

    // ---- exactly once: one stored record per fp, shown once, in order
    const stored = await server.store.chat.conversation(v.clientId, DEMO.mchId, DEMO.platformId, { size: 100 });
    expect(stored.filter((r) => r.fp === typed.fp).map((r) => r.dataContent)).toEqual(['typed during the outage']);
    expect(stored.filter((r) => r.fp === before.fp)).toHaveLength(1);
    const shown = v.messages.getSnapshot().filter((m) => m.type === 100 && m.from === v.userId);
    expect(shown.map((m) => [m.dataContent, m.sendState])).toEqual([
      ['before the outage', 'sent'],
      ['typed during the outage', 'sent'],
    ]);
    expect(visitor.errors.filter((e) => e.source !== 'connect')).toEqual([]);
  });
});
