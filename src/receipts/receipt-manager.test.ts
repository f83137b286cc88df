// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../messages/types.js';
import { defaultTimers } from '../timers.js';
import { RECEIPTED_MEMORY, ReceiptManager, SOCKET_REQUIRED_ERROR } from './receipt-manager.js';
import type { ReceiptManagerOptions, ReceiptSocket } from './receipt-manager.js';
import { VisibilityTracker } from './visibility.js';

const SELF = 'visitor-1';
let seq = 0;

function msg(overrides: Partial<ChatMessage> = {}): ChatMessage {
  seq += 1;
  return {
    type: 100,
    from: 'agent:anna',
    to: SELF,
    fn: 'Anna',
    tn: 'Visitor',
    fp: `fp-${seq}`,
    mchId: 'M1',
    times: 1_700_000_000_000 + seq,
    dataContent: `hello ${seq}`,
    isRead: 0,
    ...overrides,
  };
}

interface Harness {
  manager: ReceiptManager;
  sent: ChatMessage[];
  socket: ReceiptSocket & { send: ReturnType<typeof vi.fn> };
  setVisible: (v: boolean) => void;
}

function setup(extra: Partial<ReceiptManagerOptions> = {}, visible = true): Harness {
  let isVisible = visible;
  const sent: ChatMessage[] = [];
  const socket = {
    send: vi.fn((m: ChatMessage) => {
      sent.push(m);
      return true;
    }),
  };
  let id = 0;
  const manager = new ReceiptManager(socket, {
    selfId: () => SELF,
    timers: defaultTimers,
    createId: () => `receipt-${(id += 1)}`,
    isVisible: () => isVisible,
    autoReadDelay: 0,
    ...extra,
  });
  return {
    manager,
    sent,
    socket,
    setVisible: (v) => {
      isVisible = v;
      manager.setVisible(v);
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the receipt manager requires a socket when first created (Chinese error)', () => {
  it.each([undefined, null, {}])('throws the Chinese socket-required error for %j', (socket) => {
    const create = () => new ReceiptManager(socket as ReceiptSocket, { selfId: () => SELF, timers: defaultTimers });
    expect(create).toThrow(SOCKET_REQUIRED_ERROR);
    expect(create).toThrow('首次创建时必须提供 socket 实例');
  });
  it('is one instance per client: two managers keep separate state', () => {
    const a = setup();
    const b = setup();
    a.manager.handleIncoming(msg());
    expect(a.manager.getStatus().sent).toBe(1);
    expect(b.manager.getStatus().sent).toBe(0);
  });
  it('rejects bad options with a clear error', () => {
    const socket = { send: () => true };
    expect(() => new ReceiptManager(socket, { timers: defaultTimers } as unknown as ReceiptManagerOptions)).toThrow(/selfId/);
    expect(() => new ReceiptManager(socket, { selfId: () => SELF } as unknown as ReceiptManagerOptions)).toThrow(/timers/);
    expect(() => new ReceiptManager(socket, { selfId: () => SELF, timers: defaultTimers, batchSize: 0 })).toThrow(/batchSize/);
    expect(() => new ReceiptManager(socket, { selfId: () => SELF, timers: defaultTimers, autoReadDelay: -5 })).toThrow(
      /autoReadDelay/,
    );
  });
});

describe('a message arriving while visible gets a read receipt at once', () => {
  it('sends a type-104 receipt synchronously', () => {
    const h = setup();
    const m = msg();
    expect(h.manager.handleIncoming(m)).toBe('sent');
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]).toMatchObject({ type: 104, from: SELF, to: 'agent:anna', dataContent: m.fp, fp: 'receipt-1', cm: m.times });
    expect(h.manager.getStatus()).toMatchObject({ visible: true, queued: 0, sent: 1, failed: 0 });
  });
  it('acknowledges a message once, even when it arrives again (same fp)', () => {
    const h = setup();
    const m = msg();
    h.manager.handleIncoming(m);
    expect(h.manager.handleIncoming({ ...m })).toBe('ignored');
    expect(h.sent).toHaveLength(1);
  });
  it('remembers the last RECEIPTED_MEMORY acknowledged fps: those are not acknowledged again, older ones are', () => {
    const { manager, sent } = setup();
    const first = msg();
    expect(manager.handleIncoming(first)).toBe('sent');
    const rest = Array.from({ length: RECEIPTED_MEMORY }, () => msg());
    for (const m of rest) expect(manager.handleIncoming(m)).toBe('sent');
    // the 1000 latest are remembered, in any order of arrival
    for (const m of [rest[0]!, rest[RECEIPTED_MEMORY - 1]!, rest[500]!]) expect(manager.handleIncoming({ ...m })).toBe('ignored');
    // the first was forgotten when the 1001st was acknowledged
    expect(manager.handleIncoming({ ...first })).toBe('sent');
    // which made room by forgetting the oldest remembered one, rest[0]; and so on, one by one
    expect(manager.handleIncoming({ ...rest[0]! })).toBe('sent');
    expect(manager.handleIncoming({ ...rest[1]! })).toBe('sent');
    expect(manager.handleIncoming({ ...rest[3]! })).toBe('ignored');
    expect(sent).toHaveLength(RECEIPTED_MEMORY + 4);
  });
  it('ignores heartbeats, receipts, session events, suggestions, refusals, robot, group, read and own messages', () => {
    const h = setup();
    const ignored = [
      msg({ type: 1 }),
      msg({ type: 51 }),
      msg({ type: 104 }),
      msg({ type: 201 }),
      msg({ type: 300 }),
      msg({ type: 500 }),
      msg({ type: 200, robot: 1 }),
      msg({ isGroup: 1, to: 'group-1' }),
      msg({ isRead: 1 }),
      msg({ from: SELF, to: 'agent:anna' }),
    ];
    for (const m of ignored) expect(h.manager.handleIncoming(m)).toBe('ignored');
    expect(h.manager.handleIncoming(msg({ type: 200, robot: 0 }))).toBe('sent');
    expect(h.sent).toHaveLength(1);
  });
  it('never throws on garbage input', () => {
    const h = setup();
    for (const bad of [null, undefined, 1, 'x', {}]) expect(h.manager.handleIncoming(bad as unknown as ChatMessage)).toBe('ignored');
  });
});

describe('a message arriving while hidden is queued', () => {
  it('queues instead of sending', () => {
    const h = setup({}, false);
    expect(h.manager.handleIncoming(msg())).toBe('queued');
    expect(h.manager.handleIncoming(msg())).toBe('queued');
    expect(h.sent).toHaveLength(0);
    expect(h.manager.getStatus()).toMatchObject({ visible: false, queued: 2, sent: 0 });
  });
  it('queues a message once per fp', () => {
    const h = setup({}, false);
    const m = msg();
    h.manager.handleIncoming(m);
    h.manager.handleIncoming({ ...m });
    expect(h.manager.getStatus().queued).toBe(1);
  });
  it('keeps at most batchSize messages, dropping the earliest (never the one to acknowledge)', () => {
    const h = setup({ batchSize: 3 }, false);
    const messages = [msg({ times: 50 }), msg({ times: 10 }), msg({ times: 40 }), msg({ times: 30 }), msg({ times: 20 })];
    for (const m of messages) h.manager.handleIncoming(m);
    expect(h.manager.getStatus().queued).toBe(3);
    h.setVisible(true);
    expect(h.sent.map((r) => r.dataContent)).toEqual([messages[0]?.fp]);
  });
});

describe('when the page turns visible one queued message is acknowledged', () => {
  it('acknowledges the single queued message, then the queue is empty', () => {
    const h = setup({}, false);
    const m = msg();
    h.manager.handleIncoming(m);
    h.setVisible(true);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]?.dataContent).toBe(m.fp);
    expect(h.manager.getStatus().queued).toBe(0);
  });
});

describe('if several are queued, only the one with the latest time (times or createTime) is acknowledged', () => {
  it('picks the latest by times, whatever the arrival order', () => {
    const h = setup({}, false);
    const late = msg({ times: 3_000 });
    h.manager.handleIncoming(msg({ times: 1_000 }));
    h.manager.handleIncoming(late);
    h.manager.handleIncoming(msg({ times: 2_000 }));
    h.setVisible(true);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]).toMatchObject({ dataContent: late.fp, cm: 3_000 });
  });
  it('falls back to createTime and reads date strings', () => {
    const h = setup({}, false);
    const late = msg({ times: undefined, createTime: '2024-05-01 10:00:01' });
    h.manager.handleIncoming(msg({ times: undefined, createTime: '2024-05-01 10:00:00' }));
    h.manager.handleIncoming(late);
    h.manager.handleIncoming(msg({ times: undefined, createTime: '2024-04-30 23:59:59' }));
    h.setVisible(true);
    expect(h.sent.map((r) => r.dataContent)).toEqual([late.fp]);
    expect(h.sent[0]?.cm).toBe(new Date(2024, 4, 1, 10, 0, 1).getTime());
  });
});

describe('the queue is cleared after it is processed', () => {
  it('a second return to visible sends nothing more', () => {
    const h = setup({}, false);
    h.manager.handleIncoming(msg());
    h.manager.handleIncoming(msg());
    h.setVisible(true);
    h.setVisible(false);
    h.setVisible(true);
    expect(h.sent).toHaveLength(1);
    expect(h.manager.getStatus().queued).toBe(0);
  });
  it('staying visible does nothing with an empty queue', () => {
    const h = setup();
    h.setVisible(true);
    expect(h.sent).toHaveLength(0);
  });
});

describe('the queue is acknowledged autoReadDelay (default 1000 ms) after the page turns visible', () => {
  it('waits 1000 ms by default', () => {
    const h = setup({ autoReadDelay: undefined }, false);
    h.manager.handleIncoming(msg());
    h.setVisible(true);
    vi.advanceTimersByTime(999);
    expect(h.sent).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(h.sent).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
  it('cancels when the page hides again before the delay', () => {
    const h = setup({ autoReadDelay: 1_000 }, false);
    h.manager.handleIncoming(msg());
    h.setVisible(true);
    vi.advanceTimersByTime(500);
    h.setVisible(false);
    vi.advanceTimersByTime(5_000);
    expect(h.sent).toHaveLength(0);
    expect(h.manager.getStatus().queued).toBe(1);
  });
  it('a message arriving during the delay is acknowledged at once, superseding the older queue', () => {
    const h = setup({ autoReadDelay: 1_000 }, false);
    h.manager.handleIncoming(msg({ times: 1 }));
    h.setVisible(true);
    const fresh = msg({ times: 2 });
    expect(h.manager.handleIncoming(fresh)).toBe('sent');
    expect(h.sent.map((r) => r.dataContent)).toEqual([fresh.fp]);
    vi.advanceTimersByTime(5_000);
    expect(h.sent).toHaveLength(1);
    expect(h.manager.getStatus().queued).toBe(0);
  });
});

describe('a receipt whose socket send fails is skipped silently (and counted)', () => {
  it('counts send() returning false as failed, without throwing', () => {
    const h = setup();
    h.socket.send.mockReturnValueOnce(false);
    expect(h.manager.handleIncoming(msg())).toBe('failed');
    expect(h.manager.getStatus()).toMatchObject({ sent: 0, failed: 1 });
  });
  it('counts a throwing send() as failed, without throwing', () => {
    const h = setup();
    h.socket.send.mockImplementationOnce(() => {
      throw new Error('socket closed');
    });
    const m = msg();
    expect(() => h.manager.handleIncoming(m)).not.toThrow();
    expect(h.manager.getStatus().failed).toBe(1);
    expect(h.manager.handleIncoming(m)).toBe('sent');
  });
  it('a failed receipt from the queue still clears the queue', () => {
    const h = setup({}, false);
    h.manager.handleIncoming(msg());
    h.manager.handleIncoming(msg());
    h.socket.send.mockReturnValueOnce(false);
    expect(() => h.setVisible(true)).not.toThrow();
    expect(h.manager.getStatus()).toMatchObject({ queued: 0, sent: 0, failed: 1 });
  });
  it('a throwing id generator counts as a failed receipt', () => {
    const h = setup({
      createId: () => {
        throw new Error('no random');
      },
    });
    expect(h.manager.handleIncoming(msg())).toBe('failed');
    expect(h.socket.send).not.toHaveBeenCalled();
  });
});

describe('markRead (read on scroll) sends a receipt now, once per fp', () => {
  it('sends while hidden and removes the message from the queue', () => {
    const h = setup({}, false);
    const m = msg();
    h.manager.handleIncoming(m);
    expect(h.manager.markRead(m)).toBe('sent');
    expect(h.manager.getStatus().queued).toBe(0);
    expect(h.manager.markRead(m)).toBe('ignored');
    expect(h.manager.handleIncoming(m)).toBe('ignored');
    expect(h.sent).toHaveLength(1);
  });
  it('acknowledges a group message with the reader as from', () => {
    const h = setup();
    const m = msg({ isGroup: 1, to: 'group-7' });
    expect(h.manager.markRead(m)).toBe('sent');
    expect(h.sent[0]).toMatchObject({ type: 104, from: SELF, to: 'agent:anna', dataContent: m.fp });
  });
  it('ignores own, robot, fp-less and non-chat messages', () => {
    const h = setup();
    expect(h.manager.markRead(msg({ from: SELF }))).toBe('ignored');
    expect(h.manager.markRead(msg({ type: 200, robot: 1 }))).toBe('ignored');
    expect(h.manager.markRead(msg({ fp: undefined }))).toBe('ignored');
    expect(h.manager.markRead(msg({ type: 300 }))).toBe('ignored');
    expect(h.sent).toHaveLength(0);
  });
});

describe('with a visibility tracker the manager follows it and its status shows the last 10 log entries', () => {
  it('queues while the tracker says hidden and flushes when it turns visible', () => {
    const tracker = new VisibilityTracker({ document, window, timers: defaultTimers });
    tracker.start();
    const sent: ChatMessage[] = [];
    const manager = new ReceiptManager(
      { send: (m) => sent.push(m) > 0 },
      { selfId: () => SELF, timers: defaultTimers, tracker, autoReadDelay: 0, createId: () => 'r' },
    );
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(100);
    expect(manager.handleIncoming(msg())).toBe('queued');
    window.dispatchEvent(new Event('focus'));
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 12; i += 1) {
      window.dispatchEvent(new Event(i % 2 === 0 ? 'blur' : 'focus'));
      vi.advanceTimersByTime(100);
    }
    const status = manager.getStatus();
    expect(status.log).toHaveLength(10);
    expect(status.log).toEqual(tracker.getStatus().log);
    manager.destroy();
    tracker.destroy();
    expect(vi.getTimerCount()).toBe(0);
  });
  it('without a tracker the log is empty', () => {
    expect(setup().manager.getStatus().log).toEqual([]);
  });
});

describe('destroy() leaves no timer and no subscription behind', () => {
  it('cancels a pending flush and stops following the tracker', () => {
    const subscribe = vi.fn(() => unsubscribe);
    const unsubscribe = vi.fn();
    const tracker = { subscribe, getSnapshot: () => false, getStatus: () => ({ visible: false, log: [], totalChanges: 0 }) };
    const h = setup({ tracker, isVisible: undefined, autoReadDelay: 1_000 });
    h.manager.handleIncoming(msg());
    h.manager.setVisible(true);
    expect(vi.getTimerCount()).toBe(1);
    h.manager.destroy();
    expect(vi.getTimerCount()).toBe(0);
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    expect(h.manager.getStatus().queued).toBe(0);
    expect(h.manager.handleIncoming(msg())).toBe('ignored');
    expect(h.manager.markRead(msg())).toBe('ignored');
    h.manager.setVisible(true);
    vi.advanceTimersByTime(5_000);
    expect(h.sent).toHaveLength(0);
  });
});

describe('ReceiptManager is a store: subscribe/getSnapshot (no hook polls)', () => {
  it('notifies on a receipt, a queue, and a flush by its own timer; the snapshot keeps its identity otherwise', () => {
    vi.useFakeTimers();
    try {
      const sent: unknown[] = [];
      let visible = true;
      const manager = new ReceiptManager({ send: (m) => sent.push(m) > 0 }, { selfId: () => 'me', timers: defaultTimers, isVisible: () => visible, autoReadDelay: 100 });
      const listener = vi.fn();
      const off = manager.subscribe(listener);
      const first = manager.getSnapshot();
      expect(manager.getSnapshot()).toBe(first);
      manager.handleIncoming({ type: 100, fp: 'a', from: 'agent', to: 'me', dataContent: 'x', createTime: 1 });
      expect(listener).toHaveBeenCalledTimes(1);
      expect(manager.getSnapshot()).toMatchObject({ sent: 1, queued: 0 });
      visible = false;
      manager.setVisible(false);
      manager.handleIncoming({ type: 100, fp: 'b', from: 'agent', to: 'me', dataContent: 'y', createTime: 2 });
      expect(manager.getSnapshot()).toMatchObject({ visible: false, queued: 1 });
      visible = true;
      manager.setVisible(true);
      const beforeFlush = listener.mock.calls.length;
      vi.advanceTimersByTime(100);
      expect(listener.mock.calls.length).toBe(beforeFlush + 1);
      expect(manager.getSnapshot()).toMatchObject({ queued: 0, sent: 2 });
      const settled = manager.getSnapshot();
      manager.handleIncoming({ type: 100, fp: 'b', from: 'agent', to: 'me', dataContent: 'y', createTime: 2 }); // already acknowledged
      expect(manager.getSnapshot()).toBe(settled);
      off();
      manager.destroy();
      expect(manager.hasListeners()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
  it('without a subscriber, receipts build no status; getSnapshot then reads the counters, and keeps its identity until the next change', () => {
    const tracker = { subscribe: () => () => undefined, getSnapshot: () => true, getStatus: vi.fn(() => ({ visible: true, log: [], totalChanges: 0 })) };
    const manager = new ReceiptManager({ send: () => true }, { selfId: () => 'me', timers: defaultTimers, tracker });
    const first = manager.getSnapshot();
    expect(first).toMatchObject({ sent: 0 });
    for (let i = 0; i < 5; i++) manager.handleIncoming({ type: 100, fp: `m${i}`, from: 'agent', to: 'me', dataContent: 'x', createTime: i });
    expect(tracker.getStatus).toHaveBeenCalledTimes(1); // the first getSnapshot only, not once per receipt
    const after = manager.getSnapshot();
    expect(after).not.toBe(first);
    expect(after).toMatchObject({ sent: 5, queued: 0, failed: 0 });
    expect(manager.getSnapshot()).toBe(after);
    manager.handleIncoming({ type: 100, fp: 'm0', from: 'agent', to: 'me', dataContent: 'x', createTime: 0 }); // already acknowledged
    expect(manager.getSnapshot()).toBe(after);
    const listener = vi.fn();
    manager.subscribe(listener);
    manager.handleIncoming({ type: 100, fp: 'm9', from: 'agent', to: 'me', dataContent: 'x', createTime: 9 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(manager.getSnapshot()).toMatchObject({ sent: 6 });
    manager.destroy();
  });
});
