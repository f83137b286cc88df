import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../state/storage.js';
import { AgentDesk } from './agent-desk.js';
import { FakeDeskClient, snapshotFrame } from './test-utils.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('AgentDesk composes the queue, conversations and login managers', () => {
  it('forwards the public calls to its managers', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client, { storage: memoryStorage() });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }], [{ clientId: 'v2' }]));
    expect(desk.queue.getState().queue.map((q) => q.clientId)).toEqual(['v2']);
    expect(desk.session('v1')).toMatchObject({ sessionId: 's1' });
    expect(desk.conversations.store.getState().list.map((c) => c.sessionId)).toEqual(['s1']);
    await vi.waitFor(() => expect(desk.conversation('v1').getState().loaded).toBe(true));
    desk.accept('v2');
    desk.end('v1');
    expect(client.sent.map((s) => s.type)).toEqual([311, 302]);
    desk.destroy();
  });

  it('destroy() leaves no timer and no listener behind, even during a logout’s wait', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client, { storage: memoryStorage() });
    expect(client.listenerTotal()).toBeGreaterThan(0);
    const logout = desk.logout(); // waits (a timer) for the server to close the socket
    expect(vi.getTimerCount()).toBe(1);
    desk.destroy();
    expect(vi.getTimerCount()).toBe(0);
    expect(client.listenerTotal()).toBe(0);
    expect(desk.liveDisposers).toBe(0);
    await logout;
  });

  it('a destroyed desk ignores frames', () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    desk.destroy();
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    expect(desk.queue.getState().received).toBe(false);
    expect(desk.conversations.store.getState().list).toEqual([]);
  });
});
