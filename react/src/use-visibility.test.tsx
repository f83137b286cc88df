// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connect, counter, FakeWebSocket, makeClient, serverSends, withClient } from './test-utils.js';
import { useReceiptStatus, useVisibility } from './use-visibility.js';

/** A document whose visibility the test sets. */
class FakeDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
  set(state: 'visible' | 'hidden'): void {
    this.visibilityState = state;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

beforeEach(() => FakeWebSocket.reset());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function setup(autoReadDelay = 0) {
  const doc = new FakeDocument();
  const ctx = makeClient({}, { document: doc, receipts: { autoReadDelay, debounceDelay: 0 } });
  return { ...ctx, doc };
}

const incoming = (fp: string, createTime: number) => ({ type: 100, fp, from: 'agent', to: 'u1', dataContent: fp, createTime });

describe('useVisibility: visible or hidden, debounced, from the client’s tracker', () => {
  it('follows visibilitychange', async () => {
    const { client, doc } = setup();
    await client.start();
    const { result } = renderHook(() => useVisibility(), { wrapper: withClient(client) });
    expect(result.current).toBe(true);
    act(() => doc.set('hidden'));
    await vi.waitFor(() => expect(result.current).toBe(false));
    act(() => doc.set('visible'));
    await vi.waitFor(() => expect(result.current).toBe(true));
    client.destroy();
  });
});

describe('useReceiptStatus: a message arriving while hidden is queued; on return to visible the latest is acknowledged', () => {
  it('shows queued while hidden, then one receipt sent, and the visibility log', async () => {
    const { client, doc } = setup();
    const ws = await connect(client);
    const { result } = renderHook(() => useReceiptStatus(), { wrapper: withClient(client) });
    expect(result.current).toMatchObject({ visible: true, queued: 0, sent: 0 });
    act(() => doc.set('hidden'));
    await vi.waitFor(() => expect(result.current.visible).toBe(false));
    serverSends(ws, incoming('a', 1));
    serverSends(ws, incoming('b', 2));
    await vi.waitFor(() => expect(result.current.queued).toBe(2));
    act(() => doc.set('visible'));
    await vi.waitFor(() => expect(result.current).toMatchObject({ visible: true, queued: 0, sent: 1 }));
    expect(result.current.log.map((e) => e.newState)).toEqual(['hidden', 'visible']);
    client.destroy();
  });

  it('counts a receipt sent at once while visible', async () => {
    const { client } = setup();
    const ws = await connect(client);
    const { result } = renderHook(() => useReceiptStatus(), { wrapper: withClient(client) });
    serverSends(ws, incoming('c', 3));
    await vi.waitFor(() => expect(result.current.sent).toBe(1));
    client.destroy();
  });

  it('picks up a flush made later by the manager’s own timer, without polling', async () => {
    const { client, doc } = setup(30);
    const ws = await connect(client);
    vi.useFakeTimers();
    const renders = counter();
    const { result, unmount } = renderHook(
      () => {
        renders.hit();
        return useReceiptStatus();
      },
      { wrapper: withClient(client) },
    );
    act(() => doc.set('hidden'));
    await act(() => vi.advanceTimersByTimeAsync(1));
    serverSends(ws, incoming('d', 4));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toMatchObject({ visible: false, queued: 1, sent: 0 });
    act(() => doc.set('visible'));
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current).toMatchObject({ visible: true, queued: 1, sent: 0 });
    await act(() => vi.advanceTimersByTimeAsync(40));
    expect(result.current).toMatchObject({ queued: 0, sent: 1 });
    // No interval of the hook's own: a quiet minute renders nothing and leaves only the tracker's check.
    const quiet = renders.count;
    const timers = vi.getTimerCount();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(renders.count).toBe(quiet);
    expect(vi.getTimerCount()).toBe(timers);
    unmount();
    expect(vi.getTimerCount()).toBe(timers); // the hook held no timer
    client.destroy();
  });

  it('keeps the same object while nothing changed', async () => {
    const { client } = setup();
    await client.start();
    vi.useFakeTimers();
    const { result, rerender } = renderHook(() => useReceiptStatus(), { wrapper: withClient(client) });
    const first = result.current;
    await act(() => vi.advanceTimersByTimeAsync(30));
    rerender();
    expect(result.current).toBe(first);
    client.destroy();
  });
});
