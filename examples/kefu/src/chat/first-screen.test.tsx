// @vitest-environment happy-dom
import { ImClient, memoryStorage, type MessagePage, type PublicConfig, type StoredMessage } from '@kefu-im/sdk';
import { ImProvider } from '@kefu-im/react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_KEY, firstScreenOf, primeFirstScreen, primedFirstScreen, readFirstScreen, type FirstScreenStorage } from '../runtime/first-screen.js';
import type { ConversationInfo } from './conversation.js';
import { FirstScreenKeeper, KEEP_DELAY, useFirstScreenRows } from './first-screen.js';

const config: PublicConfig = { baseUrl: 'http://im.test', socketUrl: 'ws://im.test/ws', socketKey: 'pk,secret', aesSwitch: false };
const info: ConversationInfo = { kind: 'service', mchId: 'M1', platformId: 'P1', kefuId: '', groupId: null, title: '', notice: '', query: { param: null, params: null, isApp: false, json: null, cpay: null } };
const PAGE = '/kefu/abc';

function text(i: number): StoredMessage {
  return { fp: `fp-${i}`, type: 100, from: 'someone', to: 'agent', dataContent: `text ${i}`, createTime: 1_000 + i } as StoredMessage;
}

function memory(): FirstScreenStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

/** A client that never reaches a server (its calls hang). */
function offlineClient(): ImClient {
  return new ImClient({ ...config, fetch: () => new Promise<Response>(() => undefined), storage: memoryStorage(), window: null, document: null });
}

const clients: ImClient[] = [];
afterEach(() => {
  cleanup();
  for (const c of clients.splice(0)) c.destroy();
  vi.useRealTimers();
});

/** A keeper of the first screen mounted over an offline client and a storage in memory. */
function renderKeeper() {
  const client = offlineClient();
  clients.push(client);
  const storage = memory();
  render(
    <ImProvider client={client} autoStart={false} autoConnect={false}>
      <FirstScreenKeeper info={info} config={config} page={PAGE} storage={storage} />
    </ImProvider>,
  );
  return { client, storage };
}

describe('issue 24: the keeper writes the newest messages for the next visit', () => {
  it('writes them a moment after the list changes, under the visitor’s id and the page', () => {
    vi.useFakeTimers();
    const { client, storage } = renderKeeper();
    act(() => client.messages.upsertMany([text(1), text(2)]));
    expect(storage.map.size).toBe(0);
    act(() => void vi.advanceTimersByTime(KEEP_DELAY));
    expect(readFirstScreen(storage, client.clientId, PAGE)?.messages.map((m) => m.fp)).toEqual(['fp-1', 'fp-2']);
  });

  it('writes when the page is left', () => {
    const { client, storage } = renderKeeper();
    act(() => client.messages.upsertMany([text(3)]));
    window.dispatchEvent(new Event('pagehide'));
    expect(readFirstScreen(storage, client.clientId, PAGE)?.messages.map((m) => m.fp)).toEqual(['fp-3']);
  });

  it('forgets them when the visitor’s identity changes (client.reset(), identify())', () => {
    const { client, storage } = renderKeeper();
    act(() => client.messages.upsertMany([text(4)]));
    window.dispatchEvent(new Event('pagehide'));
    expect(storage.map.has(FIRST_SCREEN_KEY)).toBe(true);
    primeFirstScreen(client, firstScreenOf(client.clientId, PAGE, config, info, [text(4)])!);
    act(() => void client.emit('identity', { change: 'reset', clientId: 'someone-new' }));
    expect(storage.map.has(FIRST_SCREEN_KEY)).toBe(false);
    expect(primedFirstScreen(client)).toBeNull();
  });
});

describe('issue 24: the stored rows show until the first history page replaces them', () => {
  function Rows({ client, loadOlder }: { client: ImClient; loadOlder: () => Promise<MessagePage | null> }): React.ReactElement {
    const rows = useFirstScreenRows(client, loadOlder);
    return <p data-testid="rows">{rows === null ? 'none' : rows.map((m) => m.fp).join(',')}</p>;
  }

  it('shows them at once, asks for the first page once the client connects, then shows none', async () => {
    const client = offlineClient();
    clients.push(client);
    primeFirstScreen(client, firstScreenOf(client.clientId, PAGE, config, info, [text(1), text(2)])!);
    let answer: (page: MessagePage | null) => void = () => undefined;
    const loadOlder = vi.fn(() => new Promise<MessagePage | null>((resolve) => (answer = resolve)));
    const view = render(
      <ImProvider client={client} autoStart={false} autoConnect={false}>
        <Rows client={client} loadOlder={loadOlder} />
      </ImProvider>,
    );
    expect(view.getByTestId('rows').textContent).toBe('fp-1,fp-2');
    // not before the client connects (the call would speak for nobody yet)
    await act(() => Promise.resolve());
    expect(loadOlder).not.toHaveBeenCalled();
    await act(async () => {
      client.connect();
      await vi.waitFor(() => expect(loadOlder).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    });
    expect(view.getByTestId('rows').textContent).toBe('fp-1,fp-2');
    await act(async () => answer({ list: [], hasMore: true } as unknown as MessagePage));
    expect(view.getByTestId('rows').textContent).toBe('none');
    // a remount does not show them again
    expect(primedFirstScreen(client)).toBeNull();
  });

  it('shows nothing for a client without a stored first screen', () => {
    const client = offlineClient();
    clients.push(client);
    const loadOlder = vi.fn(() => Promise.resolve(null));
    const view = render(
      <ImProvider client={client} autoStart={false} autoConnect={false}>
        <Rows client={client} loadOlder={loadOlder} />
      </ImProvider>,
    );
    expect(view.getByTestId('rows').textContent).toBe('none');
    expect(loadOlder).not.toHaveBeenCalled();
  });
});
