/**
 * A tiny external store in the spirit of zustand's `vanilla.ts`: shallow-merged state,
 * subscribe/getSnapshot for React's `useSyncExternalStore`, no React import.
 * @module
 */
import { Listeners } from './subscribable.js';

/** A listener of {@link Store}: gets the new and the previous state. */
export type StoreListener<T> = (state: T, prev: T) => void;

/** The new values of some keys, or a function of the current state that returns them. */
export type StateUpdate<T> = Partial<T> | ((state: T) => Partial<T> | null | undefined) | null | undefined;

/** A store of one state object. */
export interface Store<T extends object> {
  /** The current state. Its identity changes only when a value changed. */
  getState(): T;
  /**
   * Shallow-merges new values into the state. When every given value is `Object.is`-equal to the
   * current one, nothing happens: the state keeps its identity and no listener runs.
   */
  setState(update: StateUpdate<T>): void;
  /** Calls `listener(state, prev)` after every change; returns the unsubscribe function. */
  subscribe(listener: StoreListener<T>): () => void;
  /** Same as {@link Store.getState}; named for `useSyncExternalStore(store.subscribe, store.getSnapshot)`. */
  getSnapshot(): T;
}

/**
 * Creates a {@link Store}. Methods are bound: `const { getState, subscribe } = store` works, and
 * `subscribe`/`getSnapshot` can be passed to `useSyncExternalStore` as they are.
 * @param initial - the initial state (copied)
 * @throws TypeError when `initial` is not an object
 */
export function createStore<T extends object>(initial: T): Store<T> {
  if (typeof initial !== 'object' || initial === null) throw new TypeError('createStore: the initial state must be an object');
  let state: T = { ...initial };
  const listeners = new Listeners<StoreListener<T>>();
  const getState = (): T => state;
  const setState = (update: StateUpdate<T>): void => {
    const partial = typeof update === 'function' ? update(state) : update;
    if (typeof partial !== 'object' || partial === null) return;
    const keys = Object.keys(partial) as (keyof T)[];
    if (keys.every((k) => Object.is(partial[k], state[k]))) return;
    const prev = state;
    state = { ...state, ...partial };
    listeners.notify(state, prev);
  };
  return { getState, setState, subscribe: listeners.subscribe, getSnapshot: getState };
}
