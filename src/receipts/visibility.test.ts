// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { defaultTimers } from '../timers.js';
import type { ListenerTarget } from '../timers.js';
import { VisibilityTracker } from './visibility.js';
import type { VisibilityChange, VisibilityTrackerOptions } from './visibility.js';

/** Counts the listeners registered on a target that are not yet removed. */
function trackListeners(target: ListenerTarget): { live: () => string[] } {
  const live = new Map<string, number>();
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  const key = (type: string, options: unknown): string =>
    `${type}:${typeof options === 'object' && options !== null && (options as { capture?: boolean }).capture ? 'c' : ''}`;
  vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
    live.set(key(type, options), (live.get(key(type, options)) ?? 0) + 1);
    add(type, listener, options);
  });
  vi.spyOn(target, 'removeEventListener').mockImplementation((type, listener, options) => {
    const k = key(type, options);
    const n = (live.get(k) ?? 0) - 1;
    if (n <= 0) live.delete(k);
    else live.set(k, n);
    remove(type, listener, options);
  });
  return { live: () => [...live.keys()] };
}

let docState: 'visible' | 'hidden' = 'visible';
function setDocumentState(state: 'visible' | 'hidden', fire = true): void {
  docState = state;
  if (fire) document.dispatchEvent(new Event('visibilitychange'));
}

function makeTracker(extra: Partial<VisibilityTrackerOptions> = {}): VisibilityTracker {
  return new VisibilityTracker({ document, window, timers: defaultTimers, ...extra });
}

beforeEach(() => {
  vi.useFakeTimers();
  docState = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => docState });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => docState === 'hidden' });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('visibility changes through the visibilitychange event', () => {
  it('follows document.visibilityState after the debounce', () => {
    const t = makeTracker();
    t.start();
    setDocumentState('hidden');
    vi.advanceTimersByTime(100);
    expect(t.getSnapshot()).toBe(false);
    setDocumentState('visible');
    vi.advanceTimersByTime(100);
    expect(t.getSnapshot()).toBe(true);
    expect(t.getStatus().log.map((e) => e.source)).toEqual(['visibilitychange', 'visibilitychange']);
    t.destroy();
  });
});

describe('window focus marks visible and blur marks hidden', () => {
  it('blur hides, focus shows', () => {
    const t = makeTracker();
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(100);
    expect(t.getSnapshot()).toBe(false);
    window.dispatchEvent(new Event('focus'));
    vi.advanceTimersByTime(100);
    expect(t.getSnapshot()).toBe(true);
    const log = t.getStatus().log;
    expect(log.map((e) => [e.oldState, e.newState, e.source])).toEqual([
      ['visible', 'hidden', 'blur'],
      ['hidden', 'visible', 'focus'],
    ]);
    t.destroy();
  });
});

describe('user activity (mousedown, mousemove, keypress, scroll, touchstart) marks visible', () => {
  it.each(['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart'])('%s marks a blurred page visible', (type) => {
    const t = makeTracker();
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(100);
    expect(t.getSnapshot()).toBe(false);
    document.dispatchEvent(new Event(type));
    vi.advanceTimersByTime(100);
    expect(t.getSnapshot()).toBe(true);
    expect(t.getStatus().log.at(-1)?.source).toBe('activity');
    t.destroy();
  });
  it('activity events are listened to as passive listeners', () => {
    const spy = vi.spyOn(document, 'addEventListener');
    const t = makeTracker();
    t.start();
    for (const type of ['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart']) {
      const call = spy.mock.calls.find((c) => c[0] === type);
      expect(call?.[2]).toMatchObject({ passive: true });
    }
    t.destroy();
  });
  it('activity while already visible schedules nothing', () => {
    const t = makeTracker();
    t.start();
    const before = vi.getTimerCount();
    document.dispatchEvent(new Event('mousemove'));
    expect(vi.getTimerCount()).toBe(before);
    t.destroy();
  });
});

describe('visibility events are debounced (debounceDelay 100 ms)', () => {
  it('applies a change only 100 ms after the last event', () => {
    const t = makeTracker();
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(99);
    expect(t.getSnapshot()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(t.getSnapshot()).toBe(false);
    t.destroy();
  });
  it('a burst of events within the delay yields one change, the last event winning', () => {
    const t = makeTracker();
    const seen: VisibilityChange[] = [];
    t.subscribe((c) => seen.push(c));
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(50);
    window.dispatchEvent(new Event('focus'));
    vi.advanceTimersByTime(50);
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(99);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([{ visible: false, previous: true, source: 'blur' }]);
    t.destroy();
  });
  it('a hide undone within the delay changes nothing', () => {
    const t = makeTracker();
    t.start();
    window.dispatchEvent(new Event('blur'));
    document.dispatchEvent(new Event('mousedown'));
    vi.advanceTimersByTime(500);
    expect(t.getStatus().totalChanges).toBe(0);
    t.destroy();
  });
  it('honours a custom debounceDelay', () => {
    const t = makeTracker({ debounceDelay: 300 });
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(299);
    expect(t.getSnapshot()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(t.getSnapshot()).toBe(false);
    t.destroy();
  });
});

describe('a periodic check (every 5 s) compares with the real document state', () => {
  it('corrects a missed visibilitychange at the next 5 s check', () => {
    const t = makeTracker();
    t.start();
    setDocumentState('hidden', false);
    vi.advanceTimersByTime(4_999);
    expect(t.getSnapshot()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(t.getSnapshot()).toBe(false);
    expect(t.getStatus().log.at(-1)).toMatchObject({ oldState: 'visible', newState: 'hidden', source: 'validation' });
    setDocumentState('visible', false);
    vi.advanceTimersByTime(5_000);
    expect(t.getSnapshot()).toBe(true);
    t.destroy();
  });
  it('does not undo a window blur while the document is visible', () => {
    const t = makeTracker();
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(20_000);
    expect(t.getSnapshot()).toBe(false);
    t.destroy();
  });
  it('honours a custom stateValidationInterval', () => {
    const t = makeTracker({ stateValidationInterval: 1_000 });
    t.start();
    setDocumentState('hidden', false);
    vi.advanceTimersByTime(1_000);
    expect(t.getSnapshot()).toBe(false);
    t.destroy();
  });
});

describe('the visibility log is cut to the last 50 entries once it passes 100', () => {
  function flip(t: VisibilityTracker, times: number): void {
    for (let i = 0; i < times; i += 1) {
      window.dispatchEvent(new Event(t.getSnapshot() ? 'blur' : 'focus'));
      vi.advanceTimersByTime(100);
    }
  }
  it('keeps 100 entries, cuts to the last 50 when the 101st arrives, and counts every change', () => {
    let clock = 0;
    vi.spyOn(defaultTimers, 'now').mockImplementation(() => (clock += 1));
    const t = makeTracker();
    t.start();
    flip(t, 100);
    expect(t.getLog()).toHaveLength(100);
    flip(t, 1);
    const log = t.getLog();
    expect(log).toHaveLength(50);
    expect(log.map((e) => e.timestamp)).toEqual(Array.from({ length: 50 }, (_, i) => 52 + i));
    expect(t.getStatus().totalChanges).toBe(101);
    t.destroy();
  });
  it('grows again to 100 after the cut, and is cut again past 100', () => {
    const t = makeTracker();
    t.start();
    flip(t, 101);
    flip(t, 50);
    expect(t.getLog()).toHaveLength(100);
    flip(t, 1);
    expect(t.getLog()).toHaveLength(50);
    expect(t.getStatus().totalChanges).toBe(152);
    t.destroy();
  });
});

describe('status shows the last 10 log entries', () => {
  it('returns the 10 most recent entries, oldest first, and the current state', () => {
    const t = makeTracker();
    t.start();
    for (let i = 0; i < 15; i += 1) {
      window.dispatchEvent(new Event(i % 2 === 0 ? 'blur' : 'focus'));
      vi.advanceTimersByTime(100);
    }
    const status = t.getStatus();
    expect(status.visible).toBe(false);
    expect(status.totalChanges).toBe(15);
    expect(status.log).toHaveLength(10);
    expect(status.log.at(-1)).toMatchObject({ oldState: 'visible', newState: 'hidden', source: 'blur' });
    expect(status.log[0]).toMatchObject({ oldState: 'hidden', newState: 'visible', source: 'focus' });
  });
  it('returns copies that do not change the log', () => {
    const t = makeTracker();
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(100);
    const first = t.getStatus().log[0];
    if (first) first.newState = 'visible';
    expect(t.getStatus().log[0]?.newState).toBe('hidden');
    t.destroy();
  });
});

describe('subscribe and getSnapshot (for useSyncExternalStore)', () => {
  it('notifies with { visible, previous, source } and stops after unsubscribe', () => {
    const t = makeTracker();
    const listener = vi.fn();
    const off = t.subscribe(listener);
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(100);
    expect(listener).toHaveBeenCalledWith({ visible: false, previous: true, source: 'blur' });
    off();
    window.dispatchEvent(new Event('focus'));
    vi.advanceTimersByTime(100);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(t.getSnapshot()).toBe(true);
    t.destroy();
  });
  it('a throwing subscriber does not stop the others and is reported', () => {
    const onListenerError = vi.fn();
    const t = makeTracker({ onListenerError });
    const good = vi.fn();
    t.subscribe(() => {
      throw new Error('boom');
    });
    t.subscribe(good);
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(100);
    expect(good).toHaveBeenCalledTimes(1);
    expect(onListenerError).toHaveBeenCalledWith(expect.objectContaining({ message: 'boom' }));
    t.destroy();
  });
  it('reads the document at construction and applies a change before start() with source init', () => {
    setDocumentState('hidden', false);
    const t = makeTracker();
    expect(t.getSnapshot()).toBe(false);
    setDocumentState('visible', false);
    t.start();
    expect(t.getSnapshot()).toBe(true);
    expect(t.getStatus().log[0]).toMatchObject({ oldState: 'hidden', newState: 'visible', source: 'init' });
    t.destroy();
  });
});

describe('without a document (Node, SSR) the page is always visible', () => {
  it('is visible, registers nothing and ignores window blur', () => {
    const target = trackListeners(window);
    const t = new VisibilityTracker({ document: null, window, timers: defaultTimers });
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(10_000);
    expect(t.getSnapshot()).toBe(true);
    expect(target.live()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    t.destroy();
  });
});

describe('stop() and destroy() remove every listener and timer', () => {
  it('leaves no timer and no listener, even with a debounced change pending', () => {
    const onDoc = trackListeners(document);
    const onWin = trackListeners(window);
    const t = makeTracker();
    t.start();
    expect(onDoc.live().length).toBeGreaterThan(0);
    expect(onWin.live()).toEqual(['focus:', 'blur:']);
    window.dispatchEvent(new Event('blur'));
    expect(vi.getTimerCount()).toBe(2); // the 5 s check and the pending debounce
    t.destroy();
    expect(vi.getTimerCount()).toBe(0);
    expect(onDoc.live()).toEqual([]);
    expect(onWin.live()).toEqual([]);
  });
  it('events after destroy change nothing and notify nobody', () => {
    const t = makeTracker();
    const listener = vi.fn();
    t.subscribe(listener);
    t.start();
    t.destroy();
    window.dispatchEvent(new Event('blur'));
    setDocumentState('hidden');
    vi.advanceTimersByTime(10_000);
    expect(t.getSnapshot()).toBe(true);
    expect(listener).not.toHaveBeenCalled();
    expect(() => t.start()).toThrow(/after destroy/);
  });
  it('stop() can be followed by start()', () => {
    const t = makeTracker();
    t.start();
    t.stop();
    expect(vi.getTimerCount()).toBe(0);
    t.start();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(100);
    expect(t.getSnapshot()).toBe(false);
    t.destroy();
  });
});

describe('bad options get a clear error', () => {
  it.each([
    [{ debounceDelay: -1 }, /debounceDelay must be a non-negative/],
    [{ debounceDelay: Number.NaN }, /debounceDelay/],
    [{ stateValidationInterval: 0 }, /stateValidationInterval must be a positive/],
  ])('rejects %j', (extra, message) => {
    expect(() => makeTracker(extra)).toThrow(message);
  });
  it('requires timers', () => {
    expect(() => new VisibilityTracker({ document } as unknown as VisibilityTrackerOptions)).toThrow(/timers/);
  });
});

describe("the browser's own Document and Window fit the options (checked by tsc)", () => {
  it('Document and Window are accepted', () => {
    expectTypeOf<{ document: Document; window: Window }>().toExtend<Pick<VisibilityTrackerOptions, 'document' | 'window'>>();
  });
});
