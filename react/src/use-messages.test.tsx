// @vitest-environment happy-dom
import type { ChatMessage, StoredMessage } from '@kefu-im/sdk';
import { act, cleanup, render, renderHook } from '@testing-library/react';
import { memo } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../test/helpers/fake-permit.js';
import { counter, FakeWebSocket, makeClient, withClient } from './test-utils.js';
import { useMessage, useMessages } from './use-messages.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

const HISTORY: ChatMessage[] = [1, 2, 3, 4, 5].map((n) => ({
  type: 100,
  fp: `h${n}`,
  from: 'agent',
  to: 'u1',
  dataContent: `message ${n}`,
  createTime: 1_700_000_000_000 + n * 1000,
}));

/** findMsgForCus over HISTORY: the `size` newest messages older than `before`. */
function historyRoute(gate?: Promise<void>) {
  return async (call: RecordedCall) => {
    await gate;
    const q = call.payload as { before?: number; size: number };
    const older = HISTORY.filter((m) => q.before === undefined || (m.createTime as number) < q.before);
    const list = older.slice(-q.size);
    return { code: 0, message: 'ok', data: { list, hasMore: older.length > list.length } };
  };
}

const fps = (list: readonly StoredMessage[]) => list.map((m) => m.fp);

describe('useMessages: history paging, older pages prepended', () => {
  it('loads the newest page first, then older pages at the top, until hasMore is false', async () => {
    const { client } = makeClient({ routes: { '/im/api/permit/findMsgForCus': historyRoute() } });
    await client.start();
    const { result } = renderHook(() => useMessages(), { wrapper: withClient(client) });
    expect(result.current).toMatchObject({ messages: [], hasMore: true, loading: false, error: null });

    await act(() => result.current.loadOlder(2));
    expect(fps(result.current.messages)).toEqual(['h4', 'h5']);
    expect(result.current.hasMore).toBe(true);

    await act(() => result.current.loadOlder(2));
    expect(fps(result.current.messages)).toEqual(['h2', 'h3', 'h4', 'h5']);

    const page = await act(() => result.current.loadOlder(2));
    expect(page?.list).toHaveLength(1);
    expect(fps(result.current.messages)).toEqual(['h1', 'h2', 'h3', 'h4', 'h5']);
    expect(result.current.hasMore).toBe(false);
    client.destroy();
  });

  it('shows loading while a page loads, and calls made meanwhile share the one request', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { client, server } = makeClient({ routes: { '/im/api/permit/findMsgForCus': historyRoute(gate) } });
    await client.start();
    const { result } = renderHook(() => useMessages(), { wrapper: withClient(client) });
    let first: Promise<unknown> = Promise.resolve();
    let second: Promise<unknown> = Promise.resolve();
    act(() => {
      first = result.current.loadOlder(2);
      second = result.current.loadOlder(2);
    });
    expect(result.current.loading).toBe(true);
    expect(second).toBe(first);
    release();
    await act(() => first);
    expect(result.current.loading).toBe(false);
    expect(server.calls.filter((c) => c.path.endsWith('/findMsgForCus'))).toHaveLength(1);
    client.destroy();
  });

  it('keeps a failed page as `error` (resolving null, never rejecting) and clears it on the next load', async () => {
    let fail = true;
    const ok = historyRoute();
    const { client } = makeClient({
      routes: { '/im/api/permit/findMsgForCus': (call) => (fail ? { code: 500, message: 'boom', data: null } : ok(call)) },
    });
    await client.start();
    const { result } = renderHook(() => useMessages(), { wrapper: withClient(client) });
    const page = await act(() => result.current.loadOlder());
    expect(page).toBeNull();
    expect(result.current.error?.message).toMatch(/boom/);
    expect(result.current.loading).toBe(false);
    fail = false;
    await act(() => result.current.loadOlder());
    expect(result.current.error).toBeNull();
    expect(result.current.messages).toHaveLength(5);
    client.destroy();
  });

  it('shares the paging state between components', async () => {
    const { client } = makeClient({ routes: { '/im/api/permit/findMsgForCus': historyRoute() } });
    await client.start();
    const wrapper = withClient(client);
    const a = renderHook(() => useMessages(), { wrapper });
    const b = renderHook(() => useMessages((list) => list.length), { wrapper });
    await act(() => a.result.current.loadOlder(10));
    expect(b.result.current).toMatchObject({ messages: 5, hasMore: false });
    client.destroy();
  });
});

describe('useMessages with a selector re-renders only when the slice changes', () => {
  it('a counter of unread messages ignores changes that keep the count', async () => {
    const { client } = makeClient();
    const renders = counter();
    function Unread() {
      renders.hit();
      return <span data-testid="n">{useMessages((list) => list.filter((m) => m.isRead !== 1).length).messages}</span>;
    }
    const Wrapper = withClient(client);
    const view = render(
      <Wrapper>
        <Unread />
      </Wrapper>,
    );
    act(() => void client.messages.upsertMany([{ type: 100, fp: 'a', isRead: 0, createTime: 1 }, { type: 100, fp: 'b', isRead: 0, createTime: 2 }]));
    expect(view.getByTestId('n').textContent).toBe('2');
    const before = renders.count;
    act(() => void client.messages.patch('a', { dataContent: 'edited' }));
    expect(renders.count).toBe(before);
    act(() => void client.messages.patch('a', { isRead: 1 }));
    expect(view.getByTestId('n').textContent).toBe('1');
    client.destroy();
  });
});

describe('useMessage(fp): re-renders only when that message changes', () => {
  it('a row ignores other messages and follows its own', () => {
    const { client } = makeClient();
    act(() => void client.messages.upsertMany([{ type: 100, fp: 'a', dataContent: 'A', createTime: 1 }, { type: 100, fp: 'b', dataContent: 'B', createTime: 2 }]));
    const renders = counter();
    const Row = memo(function Row({ fp }: { fp: string }) {
      renders.hit();
      return <span data-testid={fp}>{useMessage(fp)?.dataContent ?? '(none)'}</span>;
    });
    const Wrapper = withClient(client);
    const view = render(
      <Wrapper>
        <Row fp="a" />
      </Wrapper>,
    );
    expect(renders.count).toBe(1);
    act(() => void client.messages.patch('b', { dataContent: 'B2' }));
    act(() => void client.messages.upsert({ type: 100, fp: 'c', createTime: 3 }));
    expect(renders.count).toBe(1);
    act(() => void client.messages.patch('a', { dataContent: 'A2' }));
    expect(renders.count).toBe(2);
    expect(view.getByTestId('a').textContent).toBe('A2');
    act(() => void client.messages.remove('a'));
    expect(view.getByTestId('a').textContent).toBe('(none)');
    client.destroy();
  });

  it('is undefined for an unknown fp until the message arrives', () => {
    const { client } = makeClient();
    const { result } = renderHook(() => useMessage('later'), { wrapper: withClient(client) });
    expect(result.current).toBeUndefined();
    act(() => void client.messages.upsert({ type: 100, fp: 'later', createTime: 5 }));
    expect(result.current?.fp).toBe('later');
    client.destroy();
  });
});
