// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeClient, withClient } from './test-utils.js';
import { useTyping } from './use-typing.js';

afterEach(cleanup);

const typingFrom = (from: string, state: 'typing' | 'paused') => ({
  message: { type: 105, from, to: 'agent:alice', fn: `${from} name`, dataContent: JSON.stringify({ state }) },
  encrypted: false,
});

describe('useTyping: who is typing in a conversation', () => {
  it('loads the typing room on mount and follows one conversation, re-rendering only for it', async () => {
    const { client } = makeClient({}, { connectData: { role: 'agent', account: 'alice' } });
    let renders = 0;
    const { result } = renderHook(
      () => {
        renders += 1;
        return useTyping('v1');
      },
      { wrapper: withClient(client) },
    );
    expect(result.current).toMatchObject({ typing: false });
    await act(() => client.typing.load());
    act(() => {
      client.emit('socket message', typingFrom('v1', 'typing'));
    });
    await waitFor(() => expect(result.current).toMatchObject({ typing: true, who: 'v1 name', from: 'v1' }));
    const before = renders;
    act(() => {
      client.emit('socket message', typingFrom('v2', 'typing'));
    });
    expect(renders).toBe(before);
    act(() => {
      client.emit('socket message', typingFrom('v1', 'paused'));
    });
    expect(result.current).toMatchObject({ typing: false });
    client.destroy();
  });
});
