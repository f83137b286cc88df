// @vitest-environment happy-dom
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, FakeWebSocket, makeClient, serverSends, withClient } from './test-utils.js';
import { useAvailability } from './use-availability.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

describe('useAvailability: the availability store, loaded on first use', () => {
  it('answers the initial snapshot until loaded, then follows type 320 and the queue estimate', async () => {
    const { client } = makeClient();
    const { result } = renderHook(() => useAvailability(), { wrapper: withClient(client) });
    expect(result.current).toMatchObject({ known: false, open: true, unavailable: null });
    const ws = await connect(client, 'visitor-1');
    await client.availability();
    serverSends(ws, { type: 320, from: 'system', to: 'visitor-1', dataContent: JSON.stringify({ open: false, agentsAvailable: false, nextOpenAt: 42 }) });
    await waitFor(() => expect(result.current).toMatchObject({ known: true, open: false, agentsAvailable: false, nextOpenAt: 42 }));
    serverSends(ws, { type: 300, from: 'system', to: 'visitor-1', dataContent: JSON.stringify({ event: 'unavailable', reason: 'closed', open: false, agentsAvailable: false, nextOpenAt: 42 }) });
    await waitFor(() => expect(result.current.unavailable).toEqual({ reason: 'closed', nextOpenAt: 42 }));
    // a type 320 is not a chat row
    expect(client.messages.getSnapshot().some((m) => m.type === 320)).toBe(false);
    client.destroy();
  });

  it('with a selector re-renders only for its slice', async () => {
    const { client } = makeClient();
    let renders = 0;
    const { result } = renderHook(
      () => {
        renders += 1;
        return useAvailability((a) => a.queue?.etaMs ?? null);
      },
      { wrapper: withClient(client) },
    );
    const ws = await connect(client, 'visitor-2');
    await client.availability();
    const before = renders;
    serverSends(ws, { type: 320, from: 'system', to: 'visitor-2', dataContent: JSON.stringify({ open: true, agentsAvailable: true, nextOpenAt: 1 }) });
    expect(result.current).toBeNull();
    serverSends(ws, { type: 300, from: 'system', to: 'visitor-2', dataContent: JSON.stringify({ event: 'queued', position: 3, busy: false, etaMs: 240_000 }) });
    await waitFor(() => expect(result.current).toBe(240_000));
    expect(renders - before).toBeLessThanOrEqual(3);
    client.destroy();
  });
});
