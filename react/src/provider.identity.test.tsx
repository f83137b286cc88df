// @vitest-environment happy-dom
/**
 * `<ImProvider>` follows `client.identify()` and `client.reset()` (protocol §3b) without
 * remounting the app: the client and its stores stay the same objects, cleared and refilled in
 * place, and every hook shows the member, then the fresh anonymous visitor.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, makeClient, serverSends, withClient } from './test-utils.js';
import { useClientState } from './use-client-state.js';
import { useConnection } from './use-connection.js';
import { useDraft } from './use-draft.js';
import { useMessages } from './use-messages.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

/** RSA under a loaded machine: wait longer than the default second. */
const WAIT = { timeout: 5_000, interval: 10 };
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4iLCJleHAiOjQxMDI0NDQ4MDB9.c2ln';

function Chat({ mounted }: { mounted: () => void }) {
  useEffect(mounted, [mounted]);
  const { userId, verified } = useConnection();
  const uuid = useClientState((s) => s.uuid);
  const { messages } = useMessages();
  const [draft] = useDraft('service');
  return <p data-testid="chat">{`${userId ?? '-'}|${verified === true}|${uuid}|${messages.length}|${draft}`}</p>;
}

describe('the provider follows identify and reset without remounting', () => {
  it('shows the member after identify and a fresh anonymous visitor after reset, mounted once', async () => {
    const { client } = makeClient();
    const mounted = vi.fn();
    render(<Chat mounted={mounted} />, { wrapper: withClient(client) });
    const anonymous = client.clientId;
    await client.start();
    act(() => client.connect());
    await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(1), WAIT);
    const ws1 = FakeWebSocket.last as FakeWebSocket;
    act(() => {
      ws1.open();
      ws1.receive(JSON.stringify({ type: 60, to: anonymous, sm: 1_700_000_000_000 }));
    });
    serverSends(ws1, { type: 100, from: 'agent-1', to: anonymous, fp: 'f1', dataContent: 'hello', sm: 1_700_000_000_000 });
    act(() => client.drafts.set('service', 'typing…'));
    expect(screen.getByTestId('chat').textContent).toBe(`${anonymous}|false|${anonymous}|1|typing…`);

    let identified!: Promise<void>;
    act(() => void (identified = client.identify(TOKEN)));
    await vi.waitFor(() => expect(FakeWebSocket.instances.length).toBe(2), WAIT);
    const ws2 = FakeWebSocket.last as FakeWebSocket;
    act(() => {
      ws2.open();
      ws2.receive(JSON.stringify({ type: 60, to: 'm-member', sm: 1_700_000_000_000, dataContent: JSON.stringify({ verified: true }) }));
    });
    await act(() => identified);
    await vi.waitFor(() => expect(screen.getByTestId('chat').textContent).toBe('m-member|true|m-member|0|typing…'), WAIT);

    await act(() => client.reset());
    const fresh = client.clientId;
    expect(fresh).not.toBe('m-member');
    expect(screen.getByTestId('chat').textContent).toBe(`-|false|${fresh}|0|`);
    expect(mounted).toHaveBeenCalledTimes(1);
    client.destroy();
  });
});
