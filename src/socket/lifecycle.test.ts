import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultTimers } from '../timers.js';
import { openConnection, settle, setup, socketAt } from './connection.fixture.js';
import { documentVisible, PageLifecycle } from './lifecycle.js';
import { FakeWebSocket } from './test-utils.js';

/** A document whose visibility the test flips, firing `visibilitychange` like a browser. */
class FakeDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
  hide(): void {
    this.visibilityState = 'hidden';
    this.dispatchEvent(new Event('visibilitychange'));
  }
  show(): void {
    this.visibilityState = 'visible';
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

/** A `pageshow`/`pagehide` event with `persisted`. */
function pageTransition(type: 'pageshow' | 'pagehide', persisted: boolean): Event {
  return Object.assign(new Event(type), { persisted });
}

function withLifecycle(ctx: ReturnType<typeof setup>, livenessTimeout = 5_000) {
  const doc = new FakeDocument();
  const lifecycle = new PageLifecycle({
    window: ctx.network,
    document: doc,
    timers: defaultTimers,
    connection: ctx.conn,
    heartbeatInterval: 20_000,
    livenessTimeout,
  });
  return { ...ctx, doc, lifecycle };
}

/** A connection whose first socket failed: waiting 5 s for the next attempt. */
async function waiting() {
  const ctx = withLifecycle(setup());
  ctx.conn.connect();
  await settle();
  socketAt(0).fail();
  expect(ctx.conn.state).toBe('reconnecting');
  expect(ctx.conn.store.getSnapshot().nextAttemptAt).toBe(Date.now() + 5_000);
  return ctx;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});
afterEach(() => vi.useRealTimers());

describe('an immediate attempt, with a fresh backoff, when the user is back', () => {
  const triggers: [string, (ctx: Awaited<ReturnType<typeof waiting>>) => void][] = [
    ['visibilitychange to visible', ({ doc }) => {
      doc.hide();
      doc.show();
    }],
    ['window focus', ({ network }) => network.dispatchEvent(new Event('focus'))],
    ['pageshow', ({ network }) => network.dispatchEvent(pageTransition('pageshow', false))],
    ['Page Lifecycle resume', ({ doc }) => {
      doc.dispatchEvent(new Event('freeze'));
      doc.dispatchEvent(new Event('resume'));
    }],
    ['online', ({ network }) => {
      network.goOffline();
      network.goOnline();
    }],
    ['reconnect()', ({ conn }) => conn.reconnect()],
  ];

  it.each(triggers)('%s', async (_name, trigger) => {
    const ctx = await waiting();
    trigger(ctx);
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2); // at once, not after 5 s
    expect(ctx.conn.attempts).toBe(0);
    socketAt(1).fail();
    expect(ctx.conn.attempts).toBe(1); // the backoff starts over
    socketAt(1).fail();
    expect(FakeWebSocket.instances).toHaveLength(2);
    ctx.lifecycle.destroy();
  });

  it('does nothing while open, closed by the user, or in flight', async () => {
    const ctx = withLifecycle(setup());
    ctx.network.dispatchEvent(new Event('focus'));
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0); // closed: the user never connected
    ctx.conn.connect();
    ctx.network.dispatchEvent(new Event('focus')); // in flight
    await settle();
    socketAt(0).open();
    ctx.network.dispatchEvent(new Event('focus'));
    ctx.doc.hide();
    ctx.doc.show();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
    ctx.lifecycle.destroy();
  });

  it('leaves failed (shown after the first phase) and recovers', async () => {
    const ctx = withLifecycle(setup({ reconnectPolicy: () => 5_000, failAfterAttempts: 2 }));
    ctx.conn.connect();
    await settle();
    socketAt(0).fail();
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(1).fail();
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(2).fail();
    expect(ctx.conn.store.getSnapshot()).toMatchObject({ state: 'failed', failed: true, attempt: 3 });
    ctx.network.dispatchEvent(new Event('focus'));
    await settle();
    socketAt(3).open();
    expect(ctx.conn.store.getSnapshot()).toMatchObject({ state: 'open', failed: false, attempt: 0 });
    ctx.lifecycle.destroy();
  });
});

describe('liveness: back after longer than a heartbeat interval, the socket must answer', () => {
  it('a half-dead socket (no answer within the liveness timeout) is replaced at once', async () => {
    const ctx = withLifecycle(setup());
    const { conn, doc } = ctx;
    conn.connect();
    await settle();
    const socket = socketAt(0);
    socket.open();
    doc.hide();
    // The heartbeat interval keeps running while hidden; the socket is silently dead.
    await vi.advanceTimersByTimeAsync(60_000);
    const sentBefore = socket.sent.length;
    doc.show();
    expect(socket.sent).toHaveLength(sentBefore + 1); // a heartbeat at once
    await vi.advanceTimersByTimeAsync(4_999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.closedByClient).not.toBeNull();
    expect(ctx.closes.at(-1)).toEqual({ code: 1006, reason: 'liveness timeout' });
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2); // reconnecting at once, not after 5 s
    expect(conn.state).toBe('reconnecting');
    socketAt(1).open();
    expect(ctx.opens).toEqual([false, true]);
    ctx.lifecycle.destroy();
  });

  it('a socket that answers stays; a short absence sends no probe', async () => {
    const { conn, doc, lifecycle } = withLifecycle(setup());
    conn.connect();
    await settle();
    const socket = socketAt(0);
    socket.open();
    doc.hide();
    await vi.advanceTimersByTimeAsync(10_000);
    doc.show();
    expect(socket.sent).toHaveLength(0); // away 10 s < 20 s: no probe
    doc.hide();
    await vi.advanceTimersByTimeAsync(30_000);
    const before = socket.sent.length;
    doc.show();
    expect(socket.sent).toHaveLength(before + 1);
    socket.receive('{"type":51,"sm":1}');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(conn.state).toBe('open');
    expect(FakeWebSocket.instances).toHaveLength(1);
    lifecycle.destroy();
  });

  it('a page resumed after a long freeze probes too', async () => {
    const { conn, doc, lifecycle } = withLifecycle(setup());
    conn.connect();
    await settle();
    const socket = socketAt(0);
    socket.open();
    doc.dispatchEvent(new Event('freeze'));
    await vi.advanceTimersByTimeAsync(25_000);
    const before = socket.sent.length;
    doc.dispatchEvent(new Event('resume'));
    expect(socket.sent).toHaveLength(before + 1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(socket.closedByClient).not.toBeNull();
    lifecycle.destroy();
  });
});

describe('the back/forward cache', () => {
  it('pagehide persisted closes cleanly without reconnecting; pageshow persisted reconnects', async () => {
    const ctx = await openConnection();
    const { conn, network, lifecycle } = withLifecycle(ctx);
    network.dispatchEvent(pageTransition('pagehide', true));
    expect(ctx.socket.closedByClient).toEqual({ code: 1000, reason: 'page hidden' });
    expect(conn.state).toBe('reconnecting');
    expect(vi.getTimerCount()).toBe(0);
    network.dispatchEvent(new Event('focus'));
    network.goOffline();
    network.goOnline();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    network.dispatchEvent(pageTransition('pageshow', true));
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
    socketAt(1).open();
    expect(ctx.opens).toEqual([false, true]); // a reconnect: the client fetches what was missed
    lifecycle.destroy();
  });

  it('pagehide without persisted (an unload) changes nothing', async () => {
    const ctx = await openConnection();
    const { conn, network, lifecycle } = withLifecycle(ctx);
    network.dispatchEvent(pageTransition('pagehide', false));
    expect(conn.state).toBe('open');
    expect(ctx.socket.closedByClient).toBeNull();
    lifecycle.destroy();
  });
});

describe('destroy leaves nothing behind', () => {
  it('removes every lifecycle listener and every connection timer', async () => {
    const ctx = withLifecycle(setup());
    expect(ctx.lifecycle.size).toBe(6);
    ctx.conn.connect();
    await settle();
    socketAt(0).open();
    ctx.doc.hide();
    await vi.advanceTimersByTimeAsync(30_000);
    ctx.doc.show(); // a liveness check is running
    expect(vi.getTimerCount()).toBe(2); // heartbeat + liveness
    ctx.lifecycle.destroy();
    ctx.conn.destroy();
    expect(ctx.lifecycle.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    ctx.doc.hide();
    ctx.doc.show();
    ctx.network.dispatchEvent(pageTransition('pageshow', true));
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('documentVisible reads visibilityState, then hidden, and is true without a document', () => {
    expect(documentVisible(null)).toBe(true);
    expect(documentVisible({ visibilityState: 'hidden', addEventListener() {}, removeEventListener() {} })).toBe(false);
    expect(documentVisible({ hidden: true, addEventListener() {}, removeEventListener() {} })).toBe(false);
  });
});
