// @vitest-environment happy-dom
import type { ChatMessage, Notice } from '@kefu-im/sdk';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connect, FakeWebSocket, makeClient, serverSends, withClient } from './test-utils.js';
import { useSend, useSendState } from './use-send.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

function useSendAndState(fp: string) {
  return { actions: useSend(), status: useSendState(fp) };
}

const sentFrames = (ws: FakeWebSocket) => ws.sentJson() as ChatMessage[];

describe('useSend: per-message state pending, sent, failed, and retry', () => {
  it('a text is pending at once and sent when the server acknowledges it', async () => {
    const { client } = makeClient();
    const ws = await connect(client);
    const { result: send } = renderHook(() => useSend(), { wrapper: withClient(client) });
    let fp = '';
    act(() => {
      fp = send.current.sendText('hello')?.fp ?? '';
    });
    const { result } = renderHook(() => useSendState(fp), { wrapper: withClient(client) });
    expect(result.current).toEqual({ state: 'pending', reason: undefined });
    const frame = sentFrames(ws).find((m) => m.fp === fp);
    expect(frame).toMatchObject({ type: 100, dataContent: 'hello' });
    serverSends(ws, { ...(frame as ChatMessage), createTime: 1_700_000_000_500 });
    expect(result.current).toEqual({ state: 'sent', reason: undefined });
    client.destroy();
  });

  it('a refused message is failed with the reason, and retry sends it again with the same fp', async () => {
    const { client } = makeClient();
    const ws = await connect(client);
    let fp = '';
    const { result, rerender } = renderHook(({ id }) => useSendAndState(id), { wrapper: withClient(client), initialProps: { id: '' } });
    act(() => {
      fp = result.current.actions.sendText('too fast')?.fp ?? '';
    });
    rerender({ id: fp });
    serverSends(ws, { type: 500, dataContent: JSON.stringify({ reason: 'too-frequent', fp }) });
    expect(result.current.status).toEqual({ state: 'failed', reason: 'too-frequent' });
    act(() => void result.current.actions.retry(fp));
    expect(result.current.status).toEqual({ state: 'pending', reason: undefined });
    expect(sentFrames(ws).filter((m) => m.fp === fp)).toHaveLength(2);
    client.destroy();
  });

  it('a message sent while reconnecting is pending, and failed with reason network when the connection fails', async () => {
    const { client } = makeClient({}, { reconnectPolicy: ({ attempt }) => (attempt > 1 ? null : 5) });
    const ws = await connect(client);
    act(() => ws.serverClose(1006));
    const { result, rerender } = renderHook(({ id }) => useSendAndState(id), { wrapper: withClient(client), initialProps: { id: '' } });
    let fp = '';
    act(() => {
      fp = result.current.actions.sendText('while away')?.fp ?? '';
    });
    rerender({ id: fp });
    expect(result.current.status.state).toBe('pending');
    await vi.waitFor(() => expect(FakeWebSocket.instances).toHaveLength(2));
    act(() => FakeWebSocket.last?.fail());
    expect(client.connectionState).toBe('failed');
    expect(result.current.status).toEqual({ state: 'failed', reason: 'network' });
    client.destroy();
  });

  it('sends an uploaded file as an image message', async () => {
    const { client } = makeClient();
    const ws = await connect(client);
    const { result } = renderHook(() => useSend(), { wrapper: withClient(client) });
    act(() => void result.current.sendFile({ url: 'http://im.test/f/a.png', name: 'a.png', size: 3, mime: 'image/png' }, 'image'));
    expect(sentFrames(ws).at(-1)).toMatchObject({ type: 101, dataContent: 'http://im.test/f/a.png' });
    client.destroy();
  });
});

describe('useSend: a blank message cannot be sent', () => {
  it('returns undefined, adds nothing, and the client shows the blankMessage notice', () => {
    const { client } = makeClient();
    const notices: Notice[] = [];
    client.on('notice', (n) => notices.push(n));
    const { result } = renderHook(() => useSend(), { wrapper: withClient(client) });
    expect(result.current.sendText('   ')).toBeUndefined();
    expect(client.messages.size).toBe(0);
    expect(notices.map((n) => n.key)).toEqual(['blankMessage']);
    client.destroy();
  });

  it('retry of an unknown fp returns undefined; input of the wrong type still throws', () => {
    const { client } = makeClient();
    const { result } = renderHook(() => useSend(), { wrapper: withClient(client) });
    expect(result.current.retry('nope')).toBeUndefined();
    expect(() => result.current.send({ dataContent: 42 as unknown as string })).toThrow(TypeError);
    client.destroy();
  });

  it('returns the same functions on every render', () => {
    const { client } = makeClient();
    const { result, rerender } = renderHook(() => useSend(), { wrapper: withClient(client) });
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
    client.destroy();
  });
});
