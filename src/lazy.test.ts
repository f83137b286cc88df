import { describe, expect, it, vi } from 'vitest';
import { lazy } from './lazy.js';

/** A load whose calls the test settles one by one. */
function scriptedLoad<T>() {
  const pending: { resolve: (value: T) => void; reject: (error: unknown) => void }[] = [];
  const load = vi.fn(
    () =>
      new Promise<T>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  return { load, pending };
}

describe('a lazy loader loads once and keeps a success', () => {
  it('does not load before the first call', () => {
    const { load } = scriptedLoad<string>();
    lazy(load);
    expect(load).not.toHaveBeenCalled();
  });

  it('concurrent calls share one load', async () => {
    const { load, pending } = scriptedLoad<string>();
    const get = lazy(load);
    const first = get();
    const second = get();
    expect(load).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    pending[0]!.resolve('module');
    expect(await Promise.all([first, second])).toEqual(['module', 'module']);
  });

  it('a success is cached: later calls do not load again', async () => {
    const { load, pending } = scriptedLoad<{ id: number }>();
    const get = lazy(load);
    const loading = get();
    pending[0]!.resolve({ id: 1 });
    const value = await loading;
    expect(await get()).toBe(value);
    expect(await get()).toBe(value);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('a failed load is forgotten: the next call loads again', () => {
  it('first call fails, second succeeds', async () => {
    const { load, pending } = scriptedLoad<string>();
    const get = lazy(load);
    const failed = get();
    pending[0]!.reject(new Error('chunk lost'));
    await expect(failed).rejects.toThrow('chunk lost');
    const retried = get();
    expect(load).toHaveBeenCalledTimes(2);
    pending[1]!.resolve('module');
    expect(await retried).toBe('module');
    expect(await get()).toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('the calls made while the failing load was in flight all get its rejection', async () => {
    const { load, pending } = scriptedLoad<string>();
    const get = lazy(load);
    const calls = [get(), get()];
    pending[0]!.reject(new Error('chunk lost'));
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tells onError of each failed load, and of nothing else', async () => {
    const { load, pending } = scriptedLoad<string>();
    const onError = vi.fn();
    const get = lazy(load, onError);
    const lost = new Error('chunk lost');
    const first = get();
    pending[0]!.reject(lost);
    await expect(first).rejects.toBe(lost);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(lost);
    const second = get();
    pending[1]!.resolve('module');
    await expect(second).resolves.toBe('module');
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
