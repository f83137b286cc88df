import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageList } from '../messages/message-list.js';
import type { ChatMessage } from '../messages/types.js';
import { RECEIPTABLE_TYPES } from '../receipts/receipt.js';
import { Listeners } from '../state/subscribable.js';
import { defaultTimers } from '../timers.js';
import { UnreadCounter } from './unread-counter.js';
import { UnreadStore, type UnreadSnapshot } from './unread-store.js';

const VISITOR = 'visitor-1';
const AGENT = 'agent:anna';
const DELAY = 1_000;
let seq = 0;

function msg(overrides: Partial<ChatMessage> = {}): ChatMessage {
  seq += 1;
  return { type: 100, from: AGENT, to: VISITOR, fp: `fp-${seq}`, createTime: 1_700_000_000_000 + seq, dataContent: `hello ${seq}`, isRead: 0, ...overrides };
}

/** A page whose visibility the test sets. */
function page(initial = true) {
  let visible = initial;
  const listeners = new Listeners<(ctx: { visible: boolean }) => void>();
  return {
    subscribe: listeners.subscribe,
    getSnapshot: () => visible,
    set(next: boolean) {
      visible = next;
      listeners.notify({ visible: next });
    },
  };
}

function depsOf(selfId = VISITOR, visible = true) {
  const messages = new MessageList();
  const visibility = page(visible);
  return { messages, visibility, autoReadDelay: DELAY, types: RECEIPTABLE_TYPES, selfId: () => selfId, timers: defaultTimers };
}

function setup(selfId = VISITOR, visible = true) {
  const deps = depsOf(selfId, visible);
  const { messages, visibility } = deps;
  const changes: UnreadSnapshot[] = [];
  const counter = new UnreadCounter(deps, () => changes.push(counter.getSnapshot()));
  return { messages, visibility, counter, changes, deps };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('unread: counts go up on incoming while hidden', () => {
  it('counts each message from the other side that arrives while the page is hidden', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    messages.upsert(msg());
    messages.upsert(msg({ type: 101, dataContent: '/a.png' }));
    expect(counter.getSnapshot()).toEqual({ total: 2, byConversation: { [AGENT]: 2 } });
  });

  it('never counts what arrives while the page is visible (the receipt is sent at once)', () => {
    const { messages, counter, changes } = setup();
    messages.upsert(msg());
    expect(counter.getSnapshot().total).toBe(0);
    expect(changes).toEqual([]);
  });

  it('counts robot answers for the visitor', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    messages.upsert(msg({ type: 200, from: 'robot', robot: 1 }));
    expect(counter.getSnapshot()).toEqual({ total: 1, byConversation: { robot: 1 } });
  });

  it('never counts own messages, session events, suggestions, or messages without fp', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    messages.upsert(msg({ from: VISITOR, to: AGENT }));
    messages.upsert(msg({ type: 300, from: 'system', dataContent: '{"event":"queued"}' }));
    messages.upsert(msg({ type: 201, from: 'robot', dataContent: '[]' }));
    messages.upsert({ ...msg(), fp: undefined });
    expect(counter.getSnapshot().total).toBe(0);
  });

  it('what the list held before the page was hidden is read', () => {
    const { messages, visibility, counter } = setup();
    messages.upsert(msg());
    visibility.set(false);
    messages.upsert(msg());
    expect(counter.getSnapshot().total).toBe(1);
  });
});

describe('unread: counts go down when read', () => {
  it('clears once the page has been visible for autoReadDelay (when the receipt manager acknowledges the queue)', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    messages.upsert(msg());
    messages.upsert(msg());
    visibility.set(true);
    vi.advanceTimersByTime(DELAY - 1);
    expect(counter.getSnapshot().total).toBe(2);
    vi.advanceTimersByTime(1);
    expect(counter.getSnapshot().total).toBe(0);
  });

  it('a page hidden again before autoReadDelay keeps the count, and adds to it', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    messages.upsert(msg());
    visibility.set(true);
    vi.advanceTimersByTime(DELAY / 2);
    visibility.set(false);
    vi.advanceTimersByTime(DELAY * 5);
    messages.upsert(msg());
    expect(counter.getSnapshot().total).toBe(2);
  });

  it('a message that arrives while visible reads everything at once (the latest of all is acknowledged)', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    messages.upsert(msg());
    visibility.set(true);
    messages.upsert(msg());
    expect(counter.getSnapshot().total).toBe(0);
  });

  it('a message marked read (isRead 1: read on scroll, or a receipt heard from another tab) clears it and every earlier one', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    const first = msg();
    const second = msg();
    const third = msg();
    messages.upsertMany([first, second, third]);
    expect(counter.getSnapshot().total).toBe(3);
    messages.patch(second.fp as string, { isRead: 1 });
    expect(counter.getSnapshot().total).toBe(1);
    messages.patch(third.fp as string, { isRead: 1 });
    expect(counter.getSnapshot().total).toBe(0);
  });

  it('a group message counts until the user is in its read list', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    const m = msg({ from: 'member-2', to: 'G1', isGroup: 1 });
    messages.upsert(m);
    expect(counter.getSnapshot().byConversation).toEqual({ G1: 1 });
    messages.patch(m.fp as string, { imGroupMsgReadList: [{ clientId: VISITOR }] });
    expect(counter.getSnapshot().total).toBe(0);
  });
});

describe('unread: an agent has one conversation per visitor', () => {
  it('keys the counts by the visitor, and skips robot-phase rows that were not addressed to the agent', () => {
    const { messages, visibility, counter } = setup(AGENT);
    visibility.set(false);
    messages.upsertMany([
      msg({ from: 'v1', to: AGENT }),
      msg({ from: 'v1', to: AGENT }),
      msg({ from: 'v2', to: AGENT }),
      msg({ from: 'robot', to: 'v1', robot: 1, type: 200 }),
      msg({ from: 'v2', to: 'robot' }),
      msg({ from: AGENT, to: 'v2' }),
    ]);
    expect(counter.getSnapshot()).toEqual({ total: 3, byConversation: { v1: 2, v2: 1 } });
  });

  it('counts a caught-up page of history that arrives while hidden, unread messages only', () => {
    const { messages, visibility, counter } = setup(AGENT);
    visibility.set(false);
    messages.upsertMany([msg({ from: 'v1', to: AGENT, isRead: 1 }), msg({ from: 'v1', to: AGENT }), msg({ from: 'v1', to: '' })]);
    expect(counter.getSnapshot().byConversation).toEqual({ v1: 2 });
  });
});

describe('unread: the snapshot', () => {
  it('keeps its identity until a count changes, and tells once per change', () => {
    const { messages, visibility, counter, changes } = setup();
    visibility.set(false);
    const m = msg();
    messages.upsert(m);
    const held = counter.getSnapshot();
    messages.upsert({ ...m, dataContent: 'edited' });
    expect(counter.getSnapshot()).toBe(held);
    expect(changes).toHaveLength(1);
  });

  it('starts hidden when the page is hidden at construction', () => {
    const { messages, counter } = setup(VISITOR, false);
    messages.upsert(msg());
    expect(counter.getSnapshot().total).toBe(1);
  });

  it('leaves no timer and no subscription after destroy', () => {
    const { messages, visibility, counter } = setup();
    visibility.set(false);
    messages.upsert(msg());
    visibility.set(true);
    counter.destroy();
    expect(vi.getTimerCount()).toBe(0);
    expect(messages.listenerCount).toBe(0);
  });
});

describe('client.unread (the store): loads the counter with its first subscriber', () => {
  it('is empty until then, then follows the counter', async () => {
    const deps = depsOf();
    const store = new UnreadStore(deps);
    expect(store.getSnapshot()).toEqual({ total: 0, byConversation: {} });
    expect(deps.messages.listenerCount).toBe(0);
    const told = vi.fn();
    store.subscribe(told);
    await vi.waitFor(() => expect(deps.messages.listenerCount).toBe(1));
    deps.visibility.set(false);
    deps.messages.upsert(msg());
    expect(store.count()).toBe(1);
    expect(store.count(AGENT)).toBe(1);
    expect(store.count('someone-else')).toBe(0);
    expect(told).toHaveBeenCalled();
    store.destroy();
    expect(deps.messages.listenerCount).toBe(0);
  });
});
