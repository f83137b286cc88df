// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../messages/types.js';
import { defaultTimers } from '../timers.js';
import { ReceiptManager } from './receipt-manager.js';
import { VisibilityTracker } from './visibility.js';

const SELF = 'visitor-1';
let seq = 0;

function msg(overrides: Partial<ChatMessage> = {}): ChatMessage {
  seq += 1;
  return { type: 100, from: 'agent:anna', to: SELF, fp: `q-${seq}`, times: 1_700_000_000_000 + seq, dataContent: `hello ${seq}`, ...overrides };
}

function hiddenManager(batchSize: number): { manager: ReceiptManager; sent: ChatMessage[] } {
  const sent: ChatMessage[] = [];
  const manager = new ReceiptManager({ send: (m) => sent.push(m) > 0 }, { selfId: () => SELF, timers: defaultTimers, isVisible: () => false, batchSize, autoReadDelay: 0 });
  return { manager, sent };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the hidden-time queue keeps the latest batchSize messages by time', () => {
  it('of equal times, the earliest queued leaves first', () => {
    const { manager } = hiddenManager(2);
    const [a, b, c] = [msg({ times: 10 }), msg({ times: 10 }), msg({ times: 10 })] as [ChatMessage, ChatMessage, ChatMessage];
    for (const m of [a, b, c]) manager.handleIncoming(m);
    expect(manager.getStatus().queued).toBe(2);
    // `a` left the queue: reading it (on scroll) sends its receipt and leaves the queue as it is.
    expect(manager.markRead(a)).toBe('sent');
    expect(manager.getStatus().queued).toBe(2);
    expect(manager.markRead(b)).toBe('sent');
    expect(manager.getStatus().queued).toBe(1);
  });

  it('of the latest time, the later-queued is acknowledged, whatever the arrival order', () => {
    const { manager, sent } = hiddenManager(3);
    const [a, b, c, d, e] = [msg({ times: 20 }), msg({ times: 10 }), msg({ times: 20 }), msg({ times: 15 }), msg({ times: 5 })];
    for (const m of [a, b, c, d, e] as ChatMessage[]) manager.handleIncoming(m);
    expect(manager.getStatus().queued).toBe(3); // b and e left: the two earliest
    expect(manager.markRead(b as ChatMessage)).toBe('sent');
    expect(manager.getStatus().queued).toBe(3);
    manager.setVisible(true);
    expect(sent.map((r) => r.dataContent)).toEqual([b?.fp, c?.fp]);
  });

  it('a message older than everything queued leaves at once; a time given as a date string counts', () => {
    const { manager, sent } = hiddenManager(2);
    const late = msg({ times: undefined, createTime: '2024-05-01 10:00:02' });
    manager.handleIncoming(msg({ times: undefined, createTime: '2024-05-01 10:00:01' }));
    manager.handleIncoming(late);
    const old = msg({ times: undefined, createTime: '2024-05-01 09:00:00' });
    manager.handleIncoming(old);
    expect(manager.markRead(old)).toBe('sent'); // it was not queued: the queue keeps its two
    expect(manager.getStatus().queued).toBe(2);
    manager.setVisible(true); // the flush acknowledges the latest queued one
    expect(sent.map((r) => r.dataContent)).toEqual([old.fp, late.fp]);
  });
});

describe('ReceiptManager as a store while hidden: a message that changes nothing shown notifies nobody', () => {
  it('once the queue is full, further messages keep the snapshot and do not notify', () => {
    const { manager } = hiddenManager(3);
    const listener = vi.fn();
    manager.subscribe(listener);
    for (let i = 0; i < 3; i += 1) manager.handleIncoming(msg());
    expect(listener).toHaveBeenCalledTimes(3);
    const full = manager.getSnapshot();
    expect(full).toMatchObject({ queued: 3, visible: false });
    for (let i = 0; i < 50; i += 1) expect(manager.handleIncoming(msg())).toBe('queued');
    expect(listener).toHaveBeenCalledTimes(3);
    expect(manager.getSnapshot()).toBe(full);
  });
});

describe("the snapshot shows the tracker's log after every change the tracker tells of", () => {
  it('a visibility change shows in the snapshot and its log', () => {
    const tracker = new VisibilityTracker({ document, window, timers: defaultTimers, debounceDelay: 10 });
    tracker.start();
    const manager = new ReceiptManager({ send: () => true }, { selfId: () => SELF, timers: defaultTimers, tracker, autoReadDelay: 1_000 });
    const listener = vi.fn();
    manager.subscribe(listener);
    const before = manager.getSnapshot();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(10);
    const hidden = manager.getSnapshot();
    expect(hidden).not.toBe(before);
    expect(hidden.log.at(-1)).toMatchObject({ newState: 'hidden', source: 'blur' });
    const calls = listener.mock.calls.length;
    manager.handleIncoming(msg()); // queued: 1
    manager.handleIncoming(msg()); // queued: 2
    expect(listener).toHaveBeenCalledTimes(calls + 2);
    window.dispatchEvent(new Event('focus'));
    vi.advanceTimersByTime(10);
    const shown = manager.getSnapshot();
    expect(shown).toMatchObject({ visible: true, queued: 2 });
    expect(shown.log).toEqual(tracker.getStatus().log);
    manager.destroy();
    tracker.destroy();
  });

  it('the log shows in the snapshot even when the visibility comes from isVisible and does not change', () => {
    const tracker = new VisibilityTracker({ document, window, timers: defaultTimers, debounceDelay: 10 });
    tracker.start();
    const manager = new ReceiptManager({ send: () => true }, { selfId: () => SELF, timers: defaultTimers, tracker, isVisible: () => true });
    const listener = vi.fn();
    manager.subscribe(listener);
    const before = manager.getSnapshot();
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(10);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(manager.getSnapshot()).not.toBe(before);
    expect(manager.getSnapshot()).toMatchObject({ visible: true, log: tracker.getStatus().log });
    manager.destroy();
    tracker.destroy();
  });
});

describe('an agent with several conversations: the latest of each sender is acknowledged', () => {
  it('sends one receipt per visitor for a hidden-time queue, the latest of each', () => {
    const { manager, sent } = hiddenManager(10);
    const [a1, b1, a2, b2, b3] = [msg({ from: 'v-a' }), msg({ from: 'v-b' }), msg({ from: 'v-a' }), msg({ from: 'v-b' }), msg({ from: 'v-b' })] as ChatMessage[];
    for (const m of [a1, b1, a2, b2, b3] as ChatMessage[]) manager.handleIncoming(m);
    manager.setVisible(true);
    expect(sent.map((r) => [r.to, r.dataContent])).toEqual([
      ['v-a', a2?.fp],
      ['v-b', b3?.fp],
    ]);
    expect(manager.getStatus()).toMatchObject({ queued: 0, sent: 2 });
  });
});
