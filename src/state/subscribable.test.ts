import { describe, expect, it, vi } from 'vitest';
import { Listeners, Subscribable } from './subscribable.js';

/** A store that starts work with its first listener and stops it with its last (TanStack's pattern). */
class Ticker extends Subscribable<(n: number) => void> {
  running = false;
  starts = 0;
  fire(n: number): void {
    this.notify(n);
  }
  protected override onSubscribe(): void {
    if (this.listenerCount === 1) {
      this.running = true;
      this.starts++;
    }
  }
  protected override onUnsubscribe(): void {
    if (!this.hasListeners()) this.running = false;
  }
}

describe('Subscribable', () => {
  it('starts work with the first listener and stops it with the last', () => {
    const t = new Ticker();
    expect(t.running).toBe(false);
    const a = t.subscribe(() => undefined);
    const b = t.subscribe(() => undefined);
    expect(t.running).toBe(true);
    expect(t.starts).toBe(1);
    a();
    expect(t.running).toBe(true);
    b();
    expect(t.running).toBe(false);
    t.subscribe(() => undefined);
    expect(t.starts).toBe(2);
  });

  it('subscribe is bound, a listener added twice is held once, and a remover works once', () => {
    const t = new Ticker();
    const { subscribe } = t;
    const heard: number[] = [];
    const listener = (n: number): void => void heard.push(n);
    const off1 = subscribe(listener);
    const off2 = subscribe(listener);
    expect(t.listenerCount).toBe(1);
    t.fire(1);
    expect(heard).toEqual([1]);
    off1();
    off1();
    off2();
    expect(t.hasListeners()).toBe(false);
    t.fire(2);
    expect(heard).toEqual([1]);
  });

  it('without a reporter, every listener runs and the first error is rethrown', () => {
    const t = new Ticker();
    const good = vi.fn();
    t.subscribe(() => {
      throw new Error('first');
    });
    t.subscribe(() => {
      throw new Error('second');
    });
    t.subscribe(good);
    expect(() => t.fire(1)).toThrow('first');
    expect(good).toHaveBeenCalledWith(1);
  });

  it('with a reporter, every error is reported and nothing is thrown', () => {
    const errors: unknown[] = [];
    const l = new Listeners<() => void>({ onListenerError: (e) => errors.push(e) });
    const good = vi.fn();
    l.subscribe(() => {
      throw new Error('x');
    });
    l.subscribe(good);
    expect(() => l.notify()).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(good).toHaveBeenCalledOnce();
  });

  it('a listener may unsubscribe another during a notification; the round still reaches it', () => {
    const l = new Listeners();
    const calls: string[] = [];
    let offB: () => void = () => undefined;
    l.subscribe(() => {
      calls.push('a');
      offB();
    });
    offB = l.subscribe(() => calls.push('b'));
    l.notify();
    l.notify();
    expect(calls).toEqual(['a', 'b', 'a']);
  });

  it('Listeners runs onFirst/onLast hooks, and clear() runs onLast once', () => {
    const onFirst = vi.fn();
    const onLast = vi.fn();
    const l = new Listeners({ onFirst, onLast });
    l.subscribe(() => undefined);
    l.subscribe(() => undefined);
    expect(onFirst).toHaveBeenCalledOnce();
    l.clear();
    l.clear();
    expect(onLast).toHaveBeenCalledOnce();
  });

  it('refuses a non-function listener', () => {
    expect(() => new Listeners().subscribe(5 as never)).toThrow(/must be a function/);
  });
});
