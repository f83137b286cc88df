// @vitest-environment happy-dom
import type { ImClient } from '@kefu-im/sdk';
import { act, cleanup, render, renderHook } from '@testing-library/react';
import { Activity, StrictMode, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useImClient } from './context.js';
import { ImProvider } from './provider.js';
import { clientOptions, FakeWebSocket, makeClient } from './test-utils.js';
import { useConnection } from './use-connection.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

/** Renders a probe that records the client it sees. */
function Probe({ seen }: { seen: ImClient[] }) {
  const client = useImClient();
  if (!seen.includes(client)) seen.push(client);
  return <span data-testid="state">{useConnection((c) => c.state)}</span>;
}

const flushMicrotasks = () => act(async () => undefined);

describe('<ImProvider>: no second connection under React StrictMode double effects', () => {
  it('creates one client from options, starts it once and opens one socket', async () => {
    const { options, server } = clientOptions();
    const seen: ImClient[] = [];
    const view = render(
      <StrictMode>
        <ImProvider options={options}>
          <Probe seen={seen} />
        </ImProvider>
      </StrictMode>,
    );
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    await flushMicrotasks();
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(server.calls.filter((c) => c.path.endsWith('/getServerTime'))).toHaveLength(1);
    expect(seen).toHaveLength(1);
    act(() => FakeWebSocket.last?.open());
    expect(view.getByTestId('state').textContent).toBe('open');
  });

  it('keeps the same client when re-rendered with a new options object', async () => {
    const { options } = clientOptions();
    const seen: ImClient[] = [];
    const view = render(
      <ImProvider options={options} autoConnect={false} autoStart={false}>
        <Probe seen={seen} />
      </ImProvider>,
    );
    view.rerender(
      <ImProvider options={{ ...options }} autoConnect={false} autoStart={false}>
        <Probe seen={seen} />
      </ImProvider>,
    );
    expect(seen).toHaveLength(1);
  });
});

describe('<ImProvider>: cleans up on unmount', () => {
  it('destroys the client it created: the socket is closed and no reconnect follows', async () => {
    const { options } = clientOptions();
    const seen: ImClient[] = [];
    const view = render(
      <StrictMode>
        <ImProvider options={options}>
          <Probe seen={seen} />
        </ImProvider>
      </StrictMode>,
    );
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined());
    const ws = FakeWebSocket.last as FakeWebSocket;
    act(() => ws.open());
    view.unmount();
    await flushMicrotasks();
    expect(ws.closedByClient).not.toBeNull();
    const client = seen[0] as ImClient;
    expect(client.connectionState).toBe('closed');
    client.connect();
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('never disconnects or destroys a client it was given', async () => {
    const { client } = makeClient();
    const view = render(
      <ImProvider client={client}>
        <Probe seen={[]} />
      </ImProvider>,
    );
    await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined());
    act(() => FakeWebSocket.last?.open());
    view.unmount();
    await flushMicrotasks();
    expect(client.connectionState).toBe('open');
    expect(FakeWebSocket.last?.closedByClient).toBeNull();
    client.destroy();
  });
});

describe('<ImProvider>: hidden by <Activity>', () => {
  it('destroys the client while hidden and provides a fresh, connected one when shown again', async () => {
    const { options } = clientOptions();
    const seen: ImClient[] = [];
    const tree = (mode: 'visible' | 'hidden') => (
      <Activity mode={mode}>
        <ImProvider options={options}>
          <Probe seen={seen} />
        </ImProvider>
      </Activity>
    );
    const view = render(tree('visible'));
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    view.rerender(tree('hidden'));
    await flushMicrotasks();
    expect(FakeWebSocket.instances[0]?.closedByClient).not.toBeNull();
    view.rerender(tree('visible'));
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
  });
});

describe('<ImProvider>: autoStart and autoConnect', () => {
  it('does nothing on mount with both off', async () => {
    const { client, server } = makeClient();
    render(
      <ImProvider client={client} autoStart={false} autoConnect={false}>
        <Probe seen={[]} />
      </ImProvider>,
    );
    await flushMicrotasks();
    expect(server.calls).toHaveLength(0);
    expect(FakeWebSocket.instances).toHaveLength(0);
    client.destroy();
  });

  it('runs the start-up only with autoStart and autoConnect off', async () => {
    const { client, server } = makeClient();
    render(
      <ImProvider client={client} autoConnect={false}>
        <Probe seen={[]} />
      </ImProvider>,
    );
    await vi.waitFor(() => expect(client.ready).toBe(true));
    expect(server.calls.map((c) => c.path)).toContain('/im/api/permit/getAesKey');
    expect(FakeWebSocket.instances).toHaveLength(0);
    client.destroy();
  });

  it('uses a new client when the client prop changes', () => {
    const first = makeClient().client;
    const second = makeClient().client;
    let current = first;
    const wrapper = ({ children }: { children?: ReactNode }) => (
      <ImProvider client={current} autoStart={false} autoConnect={false}>
        {children}
      </ImProvider>
    );
    const { result, rerender } = renderHook(() => useImClient(), { wrapper });
    expect(result.current).toBe(first);
    current = second;
    rerender();
    expect(result.current).toBe(second);
    first.destroy();
    second.destroy();
  });
});

describe('bad input gets a clear error', () => {
  it('useImClient outside a provider', () => {
    expect(() => renderHook(() => useImClient())).toThrow(/no <ImProvider> above this component/);
  });

  it('a provider with neither client nor options', () => {
    const props = {} as { options: never };
    expect(() => render(<ImProvider {...props} />)).toThrow(/either a `client` or the `options`/);
  });

  it('a provider with options the client rejects', () => {
    const options = { baseUrl: 'http://x' } as unknown as Parameters<typeof ImProvider>[0]['options'] & object;
    expect(() => render(<ImProvider options={options} />)).toThrow(/baseUrl, socketUrl and socketKey/);
  });
});
