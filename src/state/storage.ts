/**
 * Storage resolution: an injected storage, else `localStorage` when it is usable, else memory.
 * `localStorage` is reached lazily and inside try/catch (Safari private mode throws on write,
 * sandboxed frames throw on access, SSR has none); never at import time.
 * @module
 */
import type { StorageLike } from '../options.js';

/** A {@link StorageLike} kept in memory (lost on reload): the fallback, and handy in tests. */
export function memoryStorage(): StorageLike {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(String(key)) ?? null,
    setItem: (key, value) => {
      items.set(String(key), String(value));
    },
    removeItem: (key) => {
      items.delete(String(key));
    },
  };
}

/** Whether a value has the three storage methods. */
function isStorageLike(v: unknown): v is StorageLike {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<Record<keyof StorageLike, unknown>>;
  return typeof s.getItem === 'function' && typeof s.setItem === 'function' && typeof s.removeItem === 'function';
}

/** Probe key written and removed to check that the storage accepts writes. */
const PROBE_KEY = '__kefu-im:probe__';

/**
 * `globalThis.localStorage` when it exists and accepts a write, else `undefined`.
 * @internal
 */
export function usableLocalStorage(): StorageLike | undefined {
  try {
    const ls: unknown = (globalThis as { localStorage?: unknown }).localStorage;
    if (!isStorageLike(ls)) return undefined;
    ls.setItem(PROBE_KEY, '1');
    ls.removeItem(PROBE_KEY);
    return ls;
  } catch {
    return undefined;
  }
}

/**
 * The storage the client uses: `injected` when given, else `globalThis.localStorage` when usable,
 * else a fresh {@link memoryStorage}.
 * @throws TypeError when `injected` is given but lacks getItem, setItem or removeItem
 */
export function resolveStorage(injected?: StorageLike | null): StorageLike {
  if (injected !== undefined && injected !== null) {
    if (!isStorageLike(injected)) throw new TypeError('resolveStorage: the storage must have getItem, setItem and removeItem');
    return injected;
  }
  return usableLocalStorage() ?? memoryStorage();
}

/**
 * Wraps a storage so that reads and writes never throw (quota exceeded, storage disabled at run
 * time): a failed read gives `null`, a failed write is dropped and reported to `onError`.
 */
export function safeStorage(storage: StorageLike, onError?: (error: unknown) => void): StorageLike {
  const guard = <R>(fn: () => R, fallback: R): R => {
    try {
      return fn();
    } catch (error) {
      onError?.(error);
      return fallback;
    }
  };
  return {
    getItem: (key) => guard(() => storage.getItem(key), null),
    setItem: (key, value) => guard(() => storage.setItem(key, value), undefined),
    removeItem: (key) => guard(() => storage.removeItem(key), undefined),
  };
}
