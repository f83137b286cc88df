// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeClient, withClient } from './test-utils.js';
import { useServerClock } from './use-clock.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useServerClock: types 51 and 60 reset the clock from sm; it ticks each second', () => {
  it('shows the reset time, then advances one tick per 1 000 ms', () => {
    vi.useFakeTimers();
    const { client } = makeClient();
    const { result } = renderHook(() => useServerClock(), { wrapper: withClient(client) });
    const sm = 1_800_000_000_000;
    act(() => client.clock.reset(sm));
    expect(result.current).toBe(sm);
    act(() => vi.advanceTimersByTime(999));
    expect(result.current).toBe(sm);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(sm + 1_000);
    act(() => vi.advanceTimersByTime(2_000));
    expect(result.current).toBe(sm + 3_000);
    client.destroy();
  });

  it('stops re-rendering after unmount (the listener is removed)', () => {
    vi.useFakeTimers();
    const { client } = makeClient();
    let renders = 0;
    const { unmount } = renderHook(
      () => {
        renders += 1;
        return useServerClock();
      },
      { wrapper: withClient(client) },
    );
    act(() => client.clock.reset(5_000));
    const before = renders;
    unmount();
    act(() => vi.advanceTimersByTime(3_000));
    expect(renders).toBe(before);
    client.destroy();
  });
});
