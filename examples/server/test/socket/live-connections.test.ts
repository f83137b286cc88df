/**
 * The registry of admitted connections alone: the idle sweep and the drain, with fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_CLOSE, SERVICE_RESTART_CLOSE } from '../../src/socket/close-codes.js';
import { DRAIN_GRACE_MS, LiveConnections, type LiveConnection } from '../../src/socket/live-connections.js';

afterEach(() => {
  vi.useRealTimers();
});

class FakeConnection implements LiveConnection {
  readonly closes: number[] = [];
  terminated = false;
  constructor(
    public lastFrame: number,
    private readonly onGone: (c: FakeConnection) => void = () => undefined,
    private readonly closesAtOnce = true,
  ) {}
  close(code: number): void {
    this.closes.push(code);
    if (this.closesAtOnce) this.onGone(this);
  }
  terminate(): void {
    this.terminated = true;
    this.onGone(this);
  }
}

describe('live connections: idle sweep', () => {
  it('closes with 4002 every connection with no frame within the idle time', () => {
    const live = new LiveConnections<FakeConnection>();
    const old = new FakeConnection(50_000);
    const fresh = new FakeConnection(95_000);
    live.add(old);
    live.add(fresh);
    live.closeIdle(100_000, 90_000);
    expect(old.closes).toEqual([]);
    live.closeIdle(100_000, 10_000);
    expect(old.closes).toEqual([IDLE_CLOSE]);
    expect(fresh.closes).toEqual([]);
  });

  it('sweeps every min(30 s, idle time) until disposed', () => {
    vi.useFakeTimers();
    const live = new LiveConnections<FakeConnection>();
    const idle = new FakeConnection(0);
    live.add(idle);
    let now = 0;
    const stop = live.sweepIdle(5_000, () => now);
    now = 6_000;
    vi.advanceTimersByTime(5_000);
    expect(idle.closes).toEqual([IDLE_CLOSE]);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(idle.closes).toEqual([IDLE_CLOSE]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('live connections: drain', () => {
  it('closes every connection with 1012 and resolves once they are gone', async () => {
    const live = new LiveConnections<FakeConnection>();
    const gone = (c: FakeConnection): void => live.delete(c);
    const a = new FakeConnection(0, gone);
    const b = new FakeConnection(0, gone);
    live.add(a);
    live.add(b);
    await live.drain();
    expect([a.closes, b.closes]).toEqual([[SERVICE_RESTART_CLOSE], [SERVICE_RESTART_CLOSE]]);
    expect(live.size).toBe(0);
    expect(a.terminated).toBe(false);
  });

  it(`drops a connection whose close does not complete within ${DRAIN_GRACE_MS} ms`, async () => {
    vi.useFakeTimers();
    const live = new LiveConnections<FakeConnection>();
    const stuck = new FakeConnection(0, (c) => live.delete(c), false);
    live.add(stuck);
    const drained = live.drain();
    await vi.advanceTimersByTimeAsync(DRAIN_GRACE_MS - 20);
    expect(stuck.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    await drained;
    expect(stuck.terminated).toBe(true);
    expect(live.size).toBe(0);
  });

  it('waits for the work a closed connection had queued (it may still use the store, which closes next), at most a grace', async () => {
    vi.useFakeTimers();
    const live = new LiveConnections<FakeConnection & { idle(): Promise<void> }>();
    let finish: () => void = () => undefined;
    const queued = new Promise<void>((resolve) => (finish = resolve));
    const busy = Object.assign(new FakeConnection(0, (c) => live.delete(c as never)), { idle: () => queued });
    live.add(busy);
    let drained = false;
    const drain = live.drain().then(() => (drained = true));
    await vi.advanceTimersByTimeAsync(DRAIN_GRACE_MS / 2);
    expect(live.size).toBe(0); // the socket is gone...
    expect(drained).toBe(false); // ...but its queued work has not run yet
    finish();
    await vi.advanceTimersByTimeAsync(0);
    await drain;
    expect(drained).toBe(true);

    // work that never settles is waited for one grace, not forever
    const hung = Object.assign(new FakeConnection(0, (c) => live.delete(c as never)), { idle: () => new Promise<void>(() => undefined) });
    live.add(hung);
    let hungDrained = false;
    const second = live.drain().then(() => (hungDrained = true));
    await vi.advanceTimersByTimeAsync(DRAIN_GRACE_MS - 20);
    expect(hungDrained).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    await second;
    expect(hungDrained).toBe(true);
  });
});
