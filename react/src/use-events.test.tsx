// @vitest-environment happy-dom
import type { Notice } from '@kefu-im/sdk';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeClient, withClient } from './test-utils.js';
import { useImEvent, useNotice, useNotices } from './use-events.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const notice = (text: string, duration = 2_000): Notice => ({ key: 'sendFailed', text, level: 'error', duration });

describe('useImEvent: a typed listener, stable through re-renders', () => {
  it('calls the latest listener with the event context and subscribes once', () => {
    const { client } = makeClient();
    const calls: string[] = [];
    const { rerender, unmount } = renderHook(
      ({ tag }) => useImEvent('language', ({ language }) => calls.push(`${tag}:${language}`)),
      { wrapper: withClient(client), initialProps: { tag: 'first' } },
    );
    rerender({ tag: 'second' });
    expect(client.listenerCount('language')).toBe(1);
    act(() => void client.emit('language', { language: 'en' }));
    expect(calls).toEqual(['second:en']);
    unmount();
    expect(client.listenerCount('language')).toBe(0);
    client.destroy();
  });
});

describe('useNotices: every toast the client asks for', () => {
  it('calls the listener with the translated notice', () => {
    const { client } = makeClient();
    const seen: Notice[] = [];
    renderHook(() => useNotices((n) => seen.push(n)), { wrapper: withClient(client) });
    act(() => expect(() => client.sendText(' ')).toThrow());
    expect(seen).toEqual([expect.objectContaining({ key: 'blankMessage', text: client.t('blankMessage'), level: 'warning', duration: 2_000 })]);
    client.destroy();
  });
});

describe('useNotice: a toast is shown and hidden after its duration', () => {
  it('shows the latest notice for its duration; a newer one replaces it and restarts the time', () => {
    vi.useFakeTimers();
    const { client } = makeClient();
    const { result } = renderHook(() => useNotice(), { wrapper: withClient(client) });
    expect(result.current.notice).toBeNull();
    act(() => void client.emit('notice', notice('one')));
    expect(result.current.notice?.text).toBe('one');
    act(() => vi.advanceTimersByTime(1_500));
    act(() => void client.emit('notice', notice('two')));
    act(() => vi.advanceTimersByTime(1_999));
    expect(result.current.notice?.text).toBe('two');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.notice).toBeNull();
    client.destroy();
  });

  it('dismiss hides it at once', () => {
    const { client } = makeClient();
    const { result } = renderHook(() => useNotice(), { wrapper: withClient(client) });
    act(() => void client.emit('notice', notice('x')));
    act(() => result.current.dismiss());
    expect(result.current.notice).toBeNull();
    client.destroy();
  });
});
