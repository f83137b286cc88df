// @vitest-environment happy-dom
import { createStore } from '@kefu-im/sdk';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { shallowEqual, useStoreSelector, type ExternalStore } from './store-selector.js';
import { counter } from './test-utils.js';

afterEach(cleanup);

interface AB {
  a: number;
  b: number;
  list: number[];
}

describe('selectors: a component re-renders only when its slice changes', () => {
  it('re-renders for a change of the selected key and not for another key', () => {
    const store = createStore<AB>({ a: 1, b: 1, list: [] });
    const renders = counter();
    function A() {
      renders.hit();
      return <span data-testid="a">{useStoreSelector(store, (s) => s.a)}</span>;
    }
    const view = render(<A />);
    expect(renders.count).toBe(1);
    act(() => store.setState({ b: 2 }));
    act(() => store.setState({ b: 3 }));
    expect(renders.count).toBe(1);
    act(() => store.setState({ a: 5 }));
    expect(renders.count).toBe(2);
    expect(view.getByTestId('a').textContent).toBe('5');
  });

  it('keeps an equal object selection with shallowEqual (no re-render), and takes a changed one', () => {
    const store = createStore<AB>({ a: 1, b: 1, list: [] });
    const renders = counter();
    let seen: { a: number } | undefined;
    function A() {
      renders.hit();
      seen = useStoreSelector(store, (s) => ({ a: s.a }), shallowEqual);
      return null;
    }
    render(<A />);
    const first = seen;
    act(() => store.setState({ b: 9 }));
    expect(renders.count).toBe(1);
    expect(seen).toBe(first);
    act(() => store.setState({ a: 2 }));
    expect(renders.count).toBe(2);
    expect(seen).toEqual({ a: 2 });
  });

  it('re-renders every time for a new object without an equality function', () => {
    const store = createStore<AB>({ a: 1, b: 1, list: [] });
    const renders = counter();
    function A() {
      renders.hit();
      useStoreSelector(store, (s) => ({ a: s.a }));
      return null;
    }
    render(<A />);
    act(() => store.setState({ b: 9 }));
    expect(renders.count).toBe(2);
  });

  it('runs the selector again only when the snapshot changed', () => {
    const store = createStore<AB>({ a: 1, b: 1, list: [] });
    let calls = 0;
    const select = (s: AB) => {
      calls += 1;
      return s.a;
    };
    function A({ label }: { label: string }) {
      useStoreSelector(store, select);
      return <span>{label}</span>;
    }
    const view = render(<A label="x" />);
    const afterMount = calls;
    view.rerender(<A label="y" />);
    expect(calls).toBe(afterMount);
    act(() => store.setState({ b: 2 }));
    expect(calls).toBe(afterMount + 1);
  });

  it('works with unbound subscribe/getSnapshot methods and unsubscribes on unmount', () => {
    class Counter implements ExternalStore<number> {
      private value = 0;
      readonly listeners = new Set<() => void>();
      subscribe(listener: () => void): () => void {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      }
      getSnapshot(): number {
        return this.value;
      }
      bump(): void {
        this.value += 1;
        for (const l of this.listeners) l();
      }
    }
    const store = new Counter();
    function A() {
      return <span data-testid="n">{useStoreSelector(store, (n) => n * 10)}</span>;
    }
    const view = render(<A />);
    act(() => store.bump());
    expect(view.getByTestId('n').textContent).toBe('10');
    view.unmount();
    expect(store.listeners.size).toBe(0);
  });

  it('throws a clear error for something that is not a store', () => {
    function A() {
      useStoreSelector({} as ExternalStore<number>, (n) => n);
      return null;
    }
    expect(() => render(<A />)).toThrow(/subscribe\(\) and getSnapshot\(\)/);
  });
});

describe('shallowEqual', () => {
  it('compares primitives with Object.is', () => {
    expect(shallowEqual(NaN, NaN)).toBe(true);
    expect(shallowEqual(1, 2)).toBe(false);
    expect(shallowEqual<unknown>(null, {})).toBe(false);
  });

  it('compares the own keys and values of objects, one level deep', () => {
    const inner = { x: 1 };
    expect(shallowEqual({ a: 1, inner }, { a: 1, inner })).toBe(true);
    expect(shallowEqual({ a: 1, inner }, { a: 1, inner: { x: 1 } })).toBe(false);
    expect(shallowEqual<Record<string, number>>({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(shallowEqual<Record<string, unknown>>({ a: undefined }, { b: undefined })).toBe(false);
  });

  it('compares the items of arrays, and never an array with an object', () => {
    expect(shallowEqual([1, 2], [1, 2])).toBe(true);
    expect(shallowEqual([1, 2], [2, 1])).toBe(false);
    expect(shallowEqual<unknown>([1], { 0: 1 })).toBe(false);
  });
});
