// @vitest-environment happy-dom
import { memoryStorage } from '@kefu-im/sdk';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeClient, withClient } from './test-utils.js';
import { useDraft } from './use-draft.js';

afterEach(cleanup);

describe('useDraft: the composer text survives a reload', () => {
  it('is persisted by the client and read back by a new client over the same storage', () => {
    const storage = memoryStorage();
    const { client } = makeClient({}, { storage });
    const { result } = renderHook(() => useDraft('service'), { wrapper: withClient(client) });
    expect(result.current[0]).toBe('');
    act(() => result.current[1]('typed before the reload'));
    expect(result.current[0]).toBe('typed before the reload');
    client.destroy();

    const next = makeClient({}, { storage }).client;
    const reloaded = renderHook(() => useDraft('service'), { wrapper: withClient(next) });
    expect(reloaded.result.current[0]).toBe('typed before the reload');
    act(() => reloaded.result.current[1]('')); // sent: the draft is gone
    expect(next.drafts.get('service')).toBe('');
    next.destroy();
  });

  it('keeps one draft per conversation', () => {
    const { client } = makeClient();
    const wrapper = withClient(client);
    const a = renderHook(() => useDraft('service'), { wrapper });
    const b = renderHook(() => useDraft('group-1'), { wrapper });
    act(() => a.result.current[1]('to the agent'));
    expect(b.result.current[0]).toBe('');
    client.destroy();
  });
});
