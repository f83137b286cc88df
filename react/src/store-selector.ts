/**
 * `useStoreSelector`: `useSyncExternalStore` over any SDK store, with a memoised selection so a
 * component re-renders only when its slice changes.
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';

/**
 * Anything with `subscribe` and `getSnapshot`: the SDK's `Store`, `MessageList`, `I18n`,
 * `ServerClock`, `VisibilityTracker`, `Uploader`. The methods are called on the object, so unbound
 * methods work. `getSnapshot` must return the same value until something changed.
 */
export interface ExternalStore<T> {
  /** Registers a change listener; returns its remover. */
  subscribe(listener: () => void): () => void;
  /** The current state; the same value until a change. */
  getSnapshot(): T;
}

/**
 * The default selector of the hooks: the whole snapshot. Typed so that a hook's selection type
 * defaults to its snapshot type.
 * @internal
 */
export function identity<T, S = T>(value: T): S {
  return value as unknown as S;
}

/** Compares two selections; `true` keeps the previous one and skips the re-render. */
export type EqualityFn<S> = (a: S, b: S) => boolean;

/**
 * Shallow equality: `Object.is` on the values, or on the own keys and values of two plain objects
 * (or the items of two arrays). Use it with a selector that returns a new object or array:
 * `useSession((s) => ({ status: s.status, position: s.position }), shallowEqual)`.
 * @param a - the previous selection
 * @param b - the next selection
 */
export function shallowEqual<S>(a: S, b: S): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every(
    (k) => Object.prototype.hasOwnProperty.call(b, k) && Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/**
 * Subscribes to a store and returns `selector(snapshot)`. The component re-renders only when the
 * selection changes: by `Object.is`, or by `isEqual` when given (e.g. {@link shallowEqual}). The
 * selector runs again only when the snapshot changed (or the selector itself changed). On the
 * server the store's current snapshot is used.
 *
 * ```tsx
 * const status = useStoreSelector(client.session, (s) => s.status);
 * ```
 * @param store - the store to read
 * @param selector - picks the slice the component needs (keep it pure)
 * @param isEqual - optional equality of two selections
 * @returns the selected slice
 */
export function useStoreSelector<T, S>(store: ExternalStore<T>, selector: (state: T) => S, isEqual?: EqualityFn<S>): S {
  if (!store || typeof store.subscribe !== 'function' || typeof store.getSnapshot !== 'function') {
    throw new TypeError('useStoreSelector: the store must have subscribe() and getSnapshot()');
  }
  // The last selection React committed: a new selector may keep it when isEqual says so.
  const committed = useRef<{ value: S } | null>(null);
  const subscribe = useCallback((onChange: () => void) => store.subscribe(() => onChange()), [store]);
  const getSelection = useMemo(() => {
    let memo: { snapshot: T; selection: S } | null = null;
    return (): S => {
      const snapshot = store.getSnapshot();
      if (memo && Object.is(memo.snapshot, snapshot)) return memo.selection;
      const next = selector(snapshot);
      const prev = memo ? { value: memo.selection } : committed.current;
      const selection = prev !== null && isEqual !== undefined && isEqual(prev.value, next) ? prev.value : next;
      memo = { snapshot, selection };
      return selection;
    };
  }, [store, selector, isEqual]);
  const value = useSyncExternalStore(subscribe, getSelection, getSelection);
  useEffect(() => {
    committed.current = { value };
  }, [value]);
  return value;
}
