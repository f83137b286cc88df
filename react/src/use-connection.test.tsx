// @vitest-environment happy-dom
import { act, cleanup, render, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connect, counter, FakeWebSocket, makeClient, withClient } from './test-utils.js';
import { useConnection } from './use-connection.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

describe('useConnection: the socket states connecting, open, closed, then automatic reconnect', () => {
  it('follows closed, connecting, open and shows the login and the user id of the welcome', async () => {
    const { client } = makeClient();
    const { result } = renderHook(() => useConnection(), { wrapper: withClient(client) });
    expect(result.current).toEqual({
      state: 'closed',
      online: true,
      attempt: 0,
      nextAttemptAt: null,
      lastCloseCode: null,
      failed: false,
      halted: false,
      haltReason: null,
      loggedIn: false,
      welcomed: false,
      reconnected: false,
      userId: undefined,
    });
    expect(result.current).toBe(client.connectionStore.getSnapshot());
    await client.start();
    act(() => client.connect());
    expect(result.current.state).toBe('connecting');
    await connect(client, 'visitor-1');
    expect(result.current).toMatchObject({ state: 'open', loggedIn: true, welcomed: true, reconnected: false, userId: 'visitor-1' });
    client.destroy();
  });

  it('shows reconnecting after a drop and a reconnected login after the next open', async () => {
    const { client } = makeClient({}, { limits: { reconnectDelay: 5 } });
    const { result } = renderHook(() => useConnection(), { wrapper: withClient(client) });
    const ws = await connect(client);
    act(() => ws.serverClose(1006));
    expect(result.current).toMatchObject({ state: 'reconnecting', loggedIn: false, welcomed: false });
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    act(() => FakeWebSocket.last?.open());
    expect(result.current).toMatchObject({ state: 'open', loggedIn: true, reconnected: true });
    client.destroy();
  });

  it('shows offline when the browser goes offline, and online again', async () => {
    const { client, network } = makeClient();
    const { result } = renderHook(() => useConnection((c) => c.online), { wrapper: withClient(client) });
    await connect(client);
    act(() => network.goOffline());
    expect(result.current).toBe(false);
    act(() => network.goOnline());
    expect(result.current).toBe(true);
    client.destroy();
  });

  it('shows a state reached before the hook mounted', async () => {
    const { client } = makeClient();
    await connect(client, 'early');
    const { result } = renderHook(() => useConnection(), { wrapper: withClient(client) });
    expect(result.current).toMatchObject({ state: 'open', loggedIn: true, userId: 'early' });
    client.destroy();
  });
});

describe('useConnection with a selector re-renders only for its slice', () => {
  it('a user-id reader does not re-render on state changes', async () => {
    const { client } = makeClient();
    const renders = counter();
    function UserId() {
      renders.hit();
      return <span data-testid="id">{useConnection((c) => c.userId) ?? '-'}</span>;
    }
    const Wrapper = withClient(client);
    const view = render(
      <Wrapper>
        <UserId />
      </Wrapper>,
    );
    await client.start();
    act(() => client.connect());
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined());
    act(() => FakeWebSocket.last?.open());
    expect(renders.count).toBe(1);
    act(() => FakeWebSocket.last?.receive(JSON.stringify({ type: 60, to: 'u9', sm: 1 })));
    expect(renders.count).toBe(2);
    expect(view.getByTestId('id').textContent).toBe('u9');
    client.destroy();
  });
});

describe('useConnection is one selector over client.connectionStore', () => {
  it('shows the next attempt time and the close code, and a slice reader renders only for its slice', async () => {
    vi.useFakeTimers();
    try {
      const { client } = makeClient({}, { limits: { reconnectDelay: 5_000 } });
      const stateRenders = counter();
      function StateOnly() {
        stateRenders.hit();
        return <span data-testid="state">{useConnection((c) => c.state)}</span>;
      }
      const Wrapper = withClient(client);
      const view = render(
        <Wrapper>
          <StateOnly />
        </Wrapper>,
      );
      const { result } = renderHook(() => useConnection(), { wrapper: withClient(client) });
      const ws = await connect(client);
      expect(view.getByTestId('state').textContent).toBe('open');
      const rendersWhenOpen = stateRenders.count;
      const before = Date.now();
      act(() => ws.serverClose(1006));
      expect(result.current).toMatchObject({ state: 'reconnecting', attempt: 1, lastCloseCode: 1006, nextAttemptAt: before + 5_000 });
      expect(stateRenders.count).toBe(rendersWhenOpen + 1);
      // the attempt starts: nextAttemptAt goes back to null, the state slice does not change
      await act(() => vi.advanceTimersByTimeAsync(5_000));
      expect(result.current.nextAttemptAt).toBeNull();
      expect(stateRenders.count).toBe(rendersWhenOpen + 1);
      client.destroy();
    } finally {
      vi.useRealTimers();
    }
  });
});
