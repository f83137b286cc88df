/**
 * Objects a component creates and must dispose of on unmount, in a way that survives React
 * StrictMode's mount, unmount, mount sequence without creating or disposing twice.
 * @module
 * @internal
 */
import { useEffect, useReducer, useRef } from 'react';

interface Holder<T> {
  value: T;
  key: unknown;
  /** True between an effect cleanup and the deferred dispose. */
  releasing: boolean;
  disposed: boolean;
}

/**
 * Returns `create()`'s value, created lazily on the first render (no effect is needed to read it,
 * so it is there during server rendering too) and again when `key` changes. On unmount the value
 * is disposed on the next microtask unless the component mounted again meanwhile (StrictMode's
 * simulated unmount): one value, one dispose.
 * @param create - makes the value; must not start anything (effects do that)
 * @param dispose - releases the value
 * @param key - a new key creates a new value (the old one is disposed)
 * @internal
 */
export function useOwned<T>(create: () => T, dispose: (value: T) => void, key: unknown): T {
  const ref = useRef<Holder<T> | null>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  let holder = ref.current;
  if (!holder || holder.disposed || !Object.is(holder.key, key)) {
    holder = { value: create(), key, releasing: false, disposed: false };
    ref.current = holder;
  }
  const current = holder;
  useEffect(() => {
    if (current.disposed) {
      // Disposed while hidden (e.g. a suspended <Activity>): render again to create a new one.
      rerender();
      return undefined;
    }
    current.releasing = false;
    return () => {
      current.releasing = true;
      queueMicrotask(() => {
        if (!current.releasing || current.disposed) return;
        current.disposed = true;
        dispose(current.value);
      });
    };
    // `dispose` is read when the cleanup runs; only the holder decides the lifetime.
  }, [current]);
  return current.value;
}
