import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReconnectContext } from '../options.js';
import { DefaultReconnectPolicy, toDelayFn } from './reconnect-policy.js';
import { settle, setup, socketAt } from './connection.fixture.js';
import { FakeWebSocket } from './test-utils.js';

const ctx = (attempt: number, visible = true): ReconnectContext => ({ attempt, elapsedMs: 0, reason: 'close', visible, online: true });

describe('DefaultReconnectPolicy: the spec first phase, then full jitter that never ends', () => {
  it('waits 5 s for attempts 1 to 10 (spec §9)', () => {
    const policy = new DefaultReconnectPolicy({ random: () => 0.99 });
    for (let attempt = 1; attempt <= 10; attempt++) expect(policy.nextRetryDelayInMs(ctx(attempt))).toBe(5_000);
  });

  it('then jitters between 500 ms and the cap: 10 s visible, 60 s hidden, growing to the cap', () => {
    const top = new DefaultReconnectPolicy({ random: () => 0.999999 });
    const bottom = new DefaultReconnectPolicy({ random: () => 0 });
    expect(top.nextRetryDelayInMs(ctx(11))).toBe(10_000);
    expect(top.nextRetryDelayInMs(ctx(11, false))).toBe(10_000); // 5 s x 2
    expect(top.nextRetryDelayInMs(ctx(12, false))).toBe(20_000);
    expect(top.nextRetryDelayInMs(ctx(13, false))).toBe(40_000);
    expect(top.nextRetryDelayInMs(ctx(14, false))).toBe(60_000);
    expect(top.nextRetryDelayInMs(ctx(1_000, false))).toBe(60_000);
    expect(top.nextRetryDelayInMs(ctx(1_000))).toBe(10_000);
    expect(bottom.nextRetryDelayInMs(ctx(11))).toBe(500);
    const half = new DefaultReconnectPolicy({ random: () => 0.5 });
    expect(half.nextRetryDelayInMs(ctx(20))).toBe(5_250);
  });

  it('never returns null, whatever the attempt', () => {
    const policy = new DefaultReconnectPolicy();
    for (const attempt of [11, 100, 10_000, 1e9]) {
      const delay = policy.nextRetryDelayInMs(ctx(attempt, attempt % 2 === 0));
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(60_000);
    }
  });

  it('takes short phases for tests and refuses bad settings', () => {
    const policy = new DefaultReconnectPolicy({ firstPhaseDelay: 50, visibleCap: 200, hiddenCap: 200, minDelay: 0, random: () => 0.999999 });
    expect(policy.nextRetryDelayInMs(ctx(10))).toBe(50);
    expect(policy.nextRetryDelayInMs(ctx(11))).toBe(100);
    expect(policy.nextRetryDelayInMs(ctx(12))).toBe(200);
    expect(() => new DefaultReconnectPolicy({ visibleCap: -1 })).toThrow(RangeError);
    expect(() => new DefaultReconnectPolicy({ firstPhaseDelay: Number.NaN })).toThrow(RangeError);
  });

  it('toDelayFn accepts both forms and refuses anything else', () => {
    expect(toDelayFn(() => 7)(ctx(1))).toBe(7);
    expect(toDelayFn({ nextRetryDelayInMs: () => 8 })(ctx(1))).toBe(8);
    expect(() => toDelayFn({} as never)).toThrow(TypeError);
  });
});

describe('Connection with the default policy: failed is shown after 10 attempts, attempts never stop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.reset();
  });
  afterEach(() => vi.useRealTimers());

  it('200 attempts over simulated hours: still scheduling, failed observable, then recovers', async () => {
    let visible = false;
    const seen: ReconnectContext[] = [];
    const policy = new DefaultReconnectPolicy({ random: () => 0.999999 });
    const { conn, states } = setup({
      reconnectPolicy: (c) => {
        seen.push(c);
        return policy.nextRetryDelayInMs(c);
      },
      failAfterAttempts: 10,
      isVisible: () => visible,
    });
    conn.connect();
    await settle();
    socketAt(0).fail();
    for (let i = 1; i <= 200; i++) {
      const next = conn.store.getSnapshot().nextAttemptAt;
      expect(next).not.toBeNull();
      await vi.advanceTimersByTimeAsync(next! - Date.now());
      expect(FakeWebSocket.instances).toHaveLength(i + 1);
      expect(conn.state).toBe(i <= 10 ? 'reconnecting' : 'failed');
      socketAt(i).fail();
    }
    expect(conn.state).toBe('failed');
    expect(conn.halted).toBe(false);
    expect(conn.store.getSnapshot()).toMatchObject({ failed: true, attempt: 201, halted: false, lastCloseCode: 1006 });
    expect(seen.slice(0, 10).every((c) => c.attempt <= 10)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ attempt: 201, visible: false, online: true, closeCode: 1006 });
    expect(seen.at(-1)!.elapsedMs).toBeGreaterThan(3 * 3_600_000); // hours of simulated outage
    expect(states.filter((s) => s === 'failed')).toHaveLength(1); // no flicker back to reconnecting
    // The hidden cap: no slow-phase delay above 60 s.
    visible = true;
    const delays = seen.slice(10).map((c) => policy.nextRetryDelayInMs(c));
    expect(Math.max(...delays)).toBeLessThanOrEqual(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    socketAt(201).open();
    expect(conn.state).toBe('open');
    expect(conn.store.getSnapshot()).toMatchObject({ state: 'open', failed: false, attempt: 0, nextAttemptAt: null, loggedIn: true, reconnected: false });
  });

  it('a policy returning null halts (failed, no timer) until wake/online/connect; a terminal close code is not woken', async () => {
    const { conn, network } = setup({ reconnectPolicy: () => null, isTerminalClose: (code) => code === 4003 });
    conn.connect();
    await settle();
    socketAt(0).serverClose(1006);
    expect(conn.state).toBe('failed');
    expect(conn.halted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    conn.wake();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
    socketAt(1).serverClose(4003, 'banned');
    expect(conn.store.getSnapshot()).toMatchObject({ state: 'failed', halted: true, lastCloseCode: 4003 });
    conn.wake();
    network.goOffline();
    network.goOnline();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
    conn.reconnect();
    expect(conn.state).toBe('connecting');
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(3);
  });
});

describe('a terminal close code', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.reset();
  });
  afterEach(() => vi.useRealTimers());

  it('is still shown to the policy (which may report it), but never reconnects whatever it answers', async () => {
    const seen: ReconnectContext[] = [];
    const { conn } = setup({ reconnectPolicy: (c) => (seen.push(c), 100), isTerminalClose: (code) => code === 4003 });
    conn.connect();
    await settle();
    socketAt(0).open();
    socketAt(0).serverClose(4003, 'banned');
    expect(seen.map((c) => [c.closeCode, c.reason])).toEqual([[4003, 'banned']]);
    expect(conn.store.getSnapshot()).toMatchObject({ state: 'failed', halted: true, nextAttemptAt: null });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});
