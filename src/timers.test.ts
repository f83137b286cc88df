import { describe, expect, it, vi } from 'vitest';
import { defaultTimers, flushableDefer } from './timers.js';

describe('flushableDefer: a zero-delay call that can be made at once', () => {
  it('makes the call after a zero-delay timer, once', async () => {
    vi.useFakeTimers();
    try {
      const { defer } = flushableDefer(defaultTimers);
      const fn = vi.fn();
      defer(fn);
      expect(fn).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(0);
      expect(fn).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('flush() makes a waiting call now and clears its timer; with none waiting it does nothing', async () => {
    vi.useFakeTimers();
    try {
      const { defer, flush } = flushableDefer(defaultTimers);
      const fn = vi.fn();
      flush();
      defer(fn);
      flush();
      expect(fn).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0);
      flush();
      await vi.advanceTimersByTimeAsync(10);
      expect(fn).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a second call deferred while one waits makes the first at once: none is lost', () => {
    vi.useFakeTimers();
    try {
      const { defer } = flushableDefer(defaultTimers);
      const order: string[] = [];
      defer(() => order.push('first'));
      defer(() => order.push('second'));
      expect(order).toEqual(['first']);
      vi.advanceTimersByTime(0);
      expect(order).toEqual(['first', 'second']);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
