import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerClock } from './clock.js';
import { defaultTimers } from './timers.js';

const LOCAL = Date.UTC(2024, 0, 1, 12, 0, 0);
const SERVER = LOCAL + 90_000; // the server is 90 s ahead

function makeClock(onError?: (error: unknown) => void) {
  return new ServerClock({ timers: defaultTimers, tick: 1_000, onError });
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(LOCAL);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('"getServerTime: data is server time in ms; client adds round-trip duration" (protocol: half the round trip)', () => {
  it('sync(serverTime, roundTrip) sets now to serverTime + roundTrip / 2', () => {
    const clock = makeClock();
    clock.sync(SERVER, 300);
    expect(clock.now()).toBe(SERVER + 150);
    expect(clock.getSnapshot()).toBe(SERVER + 150);
    expect(clock.offset).toBe(90_150);
    expect(clock.synced).toBe(true);
    clock.destroy();
  });

  it('a negative round trip counts as 0', () => {
    const clock = makeClock();
    clock.sync(SERVER, -50);
    expect(clock.now()).toBe(SERVER);
    clock.destroy();
  });

  it('before any sync, now() is the local time and the offset is 0', () => {
    const clock = makeClock();
    expect(clock.now()).toBe(LOCAL);
    expect(clock.offset).toBe(0);
    vi.advanceTimersByTime(2_500);
    expect(clock.now()).toBe(LOCAL + 2_500);
    clock.destroy();
  });
});

describe('"then ticks a local clock each second" (tick 1000 ms)', () => {
  it('advances in whole ticks', () => {
    const clock = makeClock();
    clock.sync(SERVER, 0);
    vi.advanceTimersByTime(999);
    expect(clock.now()).toBe(SERVER);
    vi.advanceTimersByTime(1);
    expect(clock.now()).toBe(SERVER + 1_000);
    vi.advanceTimersByTime(2_500);
    expect(clock.now()).toBe(SERVER + 3_000);
    clock.destroy();
  });

  it('the snapshot changes once per tick and subscribers hear every tick', () => {
    const clock = makeClock();
    const heard: number[] = [];
    const unsubscribe = clock.subscribe((now) => heard.push(now));
    clock.sync(SERVER, 0);
    const first = clock.getSnapshot();
    vi.advanceTimersByTime(500);
    expect(clock.getSnapshot()).toBe(first);
    vi.advanceTimersByTime(2_500);
    expect(heard).toEqual([SERVER, SERVER + 1_000, SERVER + 2_000, SERVER + 3_000]);
    unsubscribe();
    vi.advanceTimersByTime(1_000);
    expect(heard).toHaveLength(4);
    expect(clock.getSnapshot()).toBe(SERVER + 4_000);
    clock.destroy();
  });

  it('does not fall behind when the interval is throttled (ticks counted from local time)', () => {
    const clock = makeClock();
    clock.sync(SERVER, 0);
    clock.stop();
    vi.advanceTimersByTime(60_000);
    expect(clock.now()).toBe(SERVER + 60_000);
    clock.destroy();
  });

  it('stop() stops the notifications and start() resumes them', () => {
    const clock = makeClock();
    const heard: number[] = [];
    clock.subscribe((now) => heard.push(now));
    clock.sync(SERVER, 0);
    clock.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3_000);
    expect(heard).toEqual([SERVER]);
    clock.start();
    clock.start();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(heard).toEqual([SERVER, SERVER + 4_000]);
    clock.destroy();
  });

  it('a throwing subscriber goes to onError and the others still hear the tick', () => {
    const errors: unknown[] = [];
    const clock = makeClock((e) => errors.push(e));
    const heard: number[] = [];
    clock.subscribe(() => {
      throw new Error('render bug');
    });
    clock.subscribe((now) => heard.push(now));
    clock.sync(SERVER, 0);
    vi.advanceTimersByTime(1_000);
    expect(heard).toEqual([SERVER, SERVER + 1_000]);
    expect(errors).toHaveLength(2);
    clock.destroy();
  });
});

describe('"Types 51 and 60 update the server clock from sm"', () => {
  it('reset(sm) sets the time and realigns the ticks', () => {
    const clock = makeClock();
    clock.sync(SERVER, 0);
    vi.advanceTimersByTime(5_700);
    expect(clock.now()).toBe(SERVER + 5_000);
    clock.reset(SERVER + 9_000);
    expect(clock.now()).toBe(SERVER + 9_000);
    expect(clock.getSnapshot()).toBe(SERVER + 9_000);
    vi.advanceTimersByTime(999);
    expect(clock.now()).toBe(SERVER + 9_000);
    vi.advanceTimersByTime(1);
    expect(clock.now()).toBe(SERVER + 10_000);
    expect(clock.getSnapshot()).toBe(SERVER + 10_000);
    clock.destroy();
  });

  it('reset() starts the clock when it was never synced', () => {
    const clock = makeClock();
    clock.reset(SERVER);
    expect(clock.offset).toBe(90_000);
    vi.advanceTimersByTime(1_000);
    expect(clock.getSnapshot()).toBe(SERVER + 1_000);
    clock.destroy();
  });
});

describe('"Bad input always gets a clear error"', () => {
  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], ['123']])('reset(%j) throws a RangeError and keeps the time', (sm) => {
    const clock = makeClock();
    clock.sync(SERVER, 0);
    expect(() => clock.reset(sm as number)).toThrow(RangeError);
    expect(clock.now()).toBe(SERVER);
    clock.destroy();
  });

  it('sync() checks both values', () => {
    const clock = makeClock();
    expect(() => clock.sync(SERVER, Number.NaN)).toThrow(/roundTripMs must be a finite number/);
    expect(() => clock.sync(undefined as unknown as number, 0)).toThrow(/serverTime must be a finite number/);
    expect(clock.synced).toBe(false);
  });

  it.each([[0], [-1], [Number.NaN]])('tick %j is refused', (tick) => {
    expect(() => new ServerClock({ timers: defaultTimers, tick })).toThrow(RangeError);
  });
});

describe('destroy() leaves no timer behind', () => {
  it('clears the interval and ignores later syncs', () => {
    const clock = makeClock();
    const heard: number[] = [];
    clock.subscribe((now) => heard.push(now));
    clock.sync(SERVER, 0);
    expect(vi.getTimerCount()).toBe(1);
    clock.destroy();
    expect(vi.getTimerCount()).toBe(0);
    clock.reset(SERVER + 5_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(heard).toEqual([SERVER]);
  });
});

describe('the tick runs only while someone listens (Subscribable hooks)', () => {
  it('no interval without a subscriber; the first subscriber starts it, the last one stops it; now() stays right', () => {
    const clock = makeClock();
    clock.sync(SERVER, 0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3_000);
    expect(clock.now()).toBe(SERVER + 3_000);
    expect(clock.getSnapshot()).toBe(SERVER + 3_000);
    const heard: number[] = [];
    const off1 = clock.subscribe((now) => heard.push(now));
    const off2 = clock.subscribe(() => undefined);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(heard).toEqual([SERVER + 4_000]);
    off1();
    expect(vi.getTimerCount()).toBe(1);
    off2();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(clock.getSnapshot()).toBe(SERVER + 14_000);
    clock.destroy();
  });
});
