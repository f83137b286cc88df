// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { connect, FakeWebSocket, makeClient, serverSends, withClient } from './test-utils.js';
import { useUnread } from './use-unread.js';

/** A document whose visibility the test sets. */
class FakeDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
  set(state: 'visible' | 'hidden'): void {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

// The socket stack and the tab coordination load on first use: load them once before the tests,
// so that a busy machine's first transform does not outlast the helpers' waits.
beforeAll(async () => {
  await Promise.all([import('../../src/socket/stack.js'), import('../../src/tabs/coordination.js'), import('../../src/unread/unread-counter.js')]);
});
beforeEach(() => FakeWebSocket.reset());
afterEach(() => cleanup());

const incoming = (fp: string, createTime: number, from = 'agent') => ({ type: 100, fp, from, to: 'u1', dataContent: fp, createTime });

describe('useUnread: counts what arrived while hidden, through the real receipt rules', () => {
  it('rises while hidden, per conversation and in total, and clears once visible for autoReadDelay', async () => {
    const doc = new FakeDocument();
    const { client } = makeClient({}, { document: doc, receipts: { autoReadDelay: 30, debounceDelay: 0 } });
    const ws = await connect(client);
    const total = renderHook(() => useUnread(), { wrapper: withClient(client) });
    const ofAgent = renderHook(() => useUnread('agent'), { wrapper: withClient(client) });
    await vi.waitFor(() => expect(client.messages.listenerCount).toBe(1), { timeout: 15_000 }); // the counting code has loaded
    act(() => doc.set('hidden'));
    await vi.waitFor(() => expect(client.visibility.getSnapshot()).toBe(false));
    serverSends(ws, incoming('a', 1));
    serverSends(ws, { ...incoming('b', 2, 'robot'), type: 200, robot: 1 });
    await vi.waitFor(() => expect(total.result.current).toBe(2));
    expect(ofAgent.result.current).toBe(1);
    expect(client.receipts.getSnapshot()).toMatchObject({ queued: 1, sent: 0 }); // the robot's answer needs no receipt
    act(() => doc.set('visible'));
    await vi.waitFor(() => expect(total.result.current).toBe(0));
    expect(ofAgent.result.current).toBe(0);
    expect(client.receipts.getSnapshot()).toMatchObject({ queued: 0, sent: 1 });
    client.destroy();
  });

  it('is 0 for what arrives while visible', async () => {
    const doc = new FakeDocument();
    const { client } = makeClient({}, { document: doc, receipts: { autoReadDelay: 0, debounceDelay: 0 } });
    const ws = await connect(client);
    const { result } = renderHook(() => useUnread(), { wrapper: withClient(client) });
    await vi.waitFor(() => expect(client.messages.listenerCount).toBe(1), { timeout: 15_000 });
    serverSends(ws, incoming('a', 1));
    await vi.waitFor(() => expect(client.receipts.getSnapshot().sent).toBe(1));
    expect(result.current).toBe(0);
    client.destroy();
  });
});
