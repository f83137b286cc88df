import { describe, expect, it, vi } from 'vitest';
import { createStore } from './store.js';

describe('createStore: shallow-merged state with subscribe/getSnapshot', () => {
  it('merges partial updates and passes state and prev to listeners', () => {
    const store = createStore({ a: 1, b: 'x' });
    const listener = vi.fn();
    store.subscribe(listener);
    const before = store.getState();
    store.setState({ a: 2 });
    expect(store.getState()).toEqual({ a: 2, b: 'x' });
    expect(listener).toHaveBeenCalledWith({ a: 2, b: 'x' }, before);
  });

  it('accepts an updater function', () => {
    const store = createStore({ n: 1 });
    store.setState((s) => ({ n: s.n + 1 }));
    expect(store.getState().n).toBe(2);
  });

  it('does nothing when no value changed (Object.is per key)', () => {
    const obj = {};
    const store = createStore({ a: 1, o: obj, nan: NaN });
    const listener = vi.fn();
    store.subscribe(listener);
    const before = store.getSnapshot();
    store.setState({ a: 1, o: obj, nan: NaN });
    store.setState({});
    store.setState(() => undefined);
    store.setState(null);
    expect(store.getSnapshot()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
  });

  it('unsubscribes', () => {
    const store = createStore({ a: 1 });
    const listener = vi.fn();
    const off = store.subscribe(listener);
    off();
    store.setState({ a: 2 });
    expect(listener).not.toHaveBeenCalled();
  });

  it('copies the initial state and keeps methods usable detached', () => {
    const initial = { a: 1 };
    const { getState, setState, getSnapshot } = createStore(initial);
    setState({ a: 5 });
    expect(initial.a).toBe(1);
    expect(getState()).toBe(getSnapshot());
  });

  it('calls every listener even when one throws, then rethrows', () => {
    const store = createStore({ a: 1 });
    const after = vi.fn();
    store.subscribe(() => {
      throw new Error('bad listener');
    });
    store.subscribe(after);
    expect(() => store.setState({ a: 2 })).toThrow('bad listener');
    expect(after).toHaveBeenCalledTimes(1);
    expect(store.getState().a).toBe(2);
  });

  it('refuses bad input with clear errors', () => {
    expect(() => createStore(null as never)).toThrow(/must be an object/);
    expect(() => createStore({}).subscribe(5 as never)).toThrow(/must be a function/);
  });
});
