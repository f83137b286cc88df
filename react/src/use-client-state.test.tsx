// @vitest-environment happy-dom
import { act, cleanup, render, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shallowEqual } from './store-selector.js';
import { connect, counter, FakeWebSocket, makeClient, serverSends, withClient } from './test-utils.js';
import { useClientState, useMerchantInfo, useSession } from './use-client-state.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

const sessionEvent = (content: Record<string, unknown>) => ({ type: 300, dataContent: JSON.stringify(content) });

describe('useSession: a session is created, the user waits for an agent, the conversation ends, a rating prompt appears', () => {
  it('follows created, queued (position, busy), agent joined, ended and the rating invite', async () => {
    const { client } = makeClient();
    const ws = await connect(client);
    const { result } = renderHook(() => useSession(), { wrapper: withClient(client) });
    expect(result.current.status).toBe('robot');
    serverSends(ws, sessionEvent({ event: 'created', sessionId: 's1' }));
    serverSends(ws, { type: 201, dataContent: JSON.stringify([{ id: 1, question: 'How long?' }]) });
    expect(result.current).toMatchObject({ sessionId: 's1', suggestions: [{ id: 1, question: 'How long?' }] });
    serverSends(ws, sessionEvent({ event: 'queued', position: 2, busy: true }));
    expect(result.current).toMatchObject({ status: 'queued', position: 2, busy: true });
    serverSends(ws, sessionEvent({ event: 'agent-joined', agent: { id: 'a1', name: 'Alice' } }));
    expect(result.current).toMatchObject({ status: 'agent', agent: { id: 'a1', name: 'Alice' }, position: null });
    serverSends(ws, sessionEvent({ event: 'ended' }));
    serverSends(ws, sessionEvent({ event: 'rate-invite' }));
    expect(result.current).toMatchObject({ status: 'ended', rateInvited: true });
    client.destroy();
  });

  it('a status reader does not re-render when only the queue position changes', async () => {
    const { client } = makeClient();
    const ws = await connect(client);
    const renders = counter();
    function Status() {
      renders.hit();
      return <span data-testid="s">{useSession((s) => s.status)}</span>;
    }
    const Wrapper = withClient(client);
    const view = render(
      <Wrapper>
        <Status />
      </Wrapper>,
    );
    serverSends(ws, sessionEvent({ event: 'queued', position: 3 }));
    expect(renders.count).toBe(2);
    serverSends(ws, sessionEvent({ event: 'queued', position: 2 }));
    serverSends(ws, sessionEvent({ event: 'queued', position: 1 }));
    expect(renders.count).toBe(2);
    expect(view.getByTestId('s').textContent).toBe('queued');
    client.destroy();
  });

  it('an object slice with shallowEqual re-renders only when a picked value changes', async () => {
    const { client } = makeClient();
    const ws = await connect(client);
    const renders = counter();
    const { result } = renderHook(
      () => {
        renders.hit();
        return useSession((s) => ({ status: s.status, busy: s.busy }), shallowEqual);
      },
      { wrapper: withClient(client) },
    );
    serverSends(ws, sessionEvent({ event: 'queued', position: 3, busy: true }));
    const count = renders.count;
    serverSends(ws, sessionEvent({ event: 'queued', position: 2, busy: true }));
    expect(renders.count).toBe(count);
    expect(result.current).toEqual({ status: 'queued', busy: true });
    client.destroy();
  });
});

describe('useClientState and useMerchantInfo: the persisted global client state', () => {
  it('shows the merchant info once set and re-renders a leave-message reader only for its flag', () => {
    const { client } = makeClient();
    const merchant = renderHook(() => useMerchantInfo(), { wrapper: withClient(client) });
    expect(merchant.result.current).toBeNull();
    const renders = counter();
    const flag = renderHook(
      () => {
        renders.hit();
        return useClientState((s) => s.leaveMessage);
      },
      { wrapper: withClient(client) },
    );
    act(() => client.state.setMerchantInfo({ mchId: 7, name: 'Shop', kefuAvatar2: 'http://im.test/a.png' }));
    expect(merchant.result.current).toMatchObject({ name: 'Shop', kefuAvatar2: 'http://im.test/a.png' });
    expect(renders.count).toBe(1);
    act(() => client.state.setLeaveMessage(true));
    expect(flag.result.current).toBe(true);
    expect(renders.count).toBe(2);
    client.destroy();
  });

  it('returns the whole state without a selector', () => {
    const { client } = makeClient();
    const { result } = renderHook(() => useClientState(), { wrapper: withClient(client) });
    expect(result.current).toBe(client.state.getState());
    client.destroy();
  });
});
