import { EventEmitter } from 'eventemitter3';
import { describe, expect, it, vi } from 'vitest';
import type { ImClientEvents } from './events.js';
import { routeInbound, type InboundContext } from './inbound.js';
import { MessageList } from './messages/message-list.js';
import type { ChatMessage } from './messages/types.js';
import { Outbox } from './outbox/outbox.js';
import type { ReceiptManager } from './receipts/receipt-manager.js';
import { createStore } from './state/store.js';
import type { SessionState } from './session.js';

function context(): { ctx: InboundContext; events: EventEmitter<ImClientEvents>; handleIncoming: ReturnType<typeof vi.fn> } {
  const events = new EventEmitter<ImClientEvents>();
  const handleIncoming = vi.fn(() => 'queued');
  const ctx: InboundContext = {
    messages: new MessageList(),
    outbox: new Outbox(),
    session: createStore({} as SessionState),
    receipts: { handleIncoming } as unknown as ReceiptManager,
    selfId: () => 'u1',
    events,
    notify: vi.fn(),
    markFailed: vi.fn(),
    reportError: vi.fn(),
  };
  return { ctx, events, handleIncoming };
}

const text = (fp: string, createTime: number, dataContent = `text ${fp}`): ChatMessage => ({ type: 100, fp, from: 'agent:a', to: 'u1', createTime, dataContent });

describe('an incoming chat message is stored once per fp, in order, and told as a `message` event', () => {
  it('the event carries the stored message, once per message, in arrival order; the same fp again updates the list only', () => {
    const { ctx, events } = context();
    const seen: ChatMessage[] = [];
    events.on('message', ({ message }) => seen.push(message));
    routeInbound(text('b', 2), ctx);
    routeInbound(text('a', 1), ctx);
    routeInbound(text('b', 2, 'edited'), ctx); // the same fp again: merged, not a second row, not a second event
    expect(ctx.messages.getSnapshot().map((m) => m.fp)).toEqual(['a', 'b']);
    expect(seen.map((m) => m.fp)).toEqual(['b', 'a']);
    expect(ctx.messages.get('b')?.dataContent).toBe('edited');
  });

  it("one's own text is told once, when the server confirms it, however often its echo comes back", () => {
    const { ctx, events } = context();
    const told: { fp?: string; sendState?: string; caughtUp: boolean }[] = [];
    events.on('message', ({ message, caughtUp }) => told.push({ fp: message.fp, sendState: message.sendState, caughtUp }));
    const mine: ChatMessage = { type: 100, fp: 'mine', from: 'u1', to: 'robot', dataContent: 'hi' };
    ctx.messages.upsert({ ...mine, sendState: 'pending' });
    ctx.outbox.add({ ...mine, fp: 'mine' });
    routeInbound({ ...mine, createTime: 5 }, ctx); // the acknowledgement
    routeInbound({ ...mine, createTime: 5 }, ctx); // a resend's acknowledgement
    routeInbound({ ...mine, createTime: 5 }, ctx, true); // the catch-up
    expect(told).toEqual([{ fp: 'mine', sendState: 'sent', caughtUp: false }]);
  });

  it("one's own pending text found first by the catch-up is told then (caught up), and not again by its acknowledgement", () => {
    const { ctx, events } = context();
    const told: { fp?: string; caughtUp: boolean }[] = [];
    events.on('message', ({ message, caughtUp }) => told.push({ fp: message.fp, caughtUp }));
    const mine: ChatMessage = { type: 100, fp: 'mine', from: 'u1', to: 'robot', dataContent: 'hi' };
    ctx.messages.upsert({ ...mine, sendState: 'pending' });
    ctx.outbox.add({ ...mine, fp: 'mine' });
    routeInbound({ ...mine, createTime: 5 }, ctx, true);
    routeInbound({ ...mine, createTime: 5 }, ctx);
    expect(told).toEqual([{ fp: 'mine', caughtUp: true }]);
    expect(ctx.messages.get('mine')?.sendState).toBe('sent');
  });

  it('a message of the catch-up is told with caughtUp: true; one held already is not told again', () => {
    const { ctx, events } = context();
    const told: { fp?: string; caughtUp: boolean }[] = [];
    events.on('message', ({ message, caughtUp }) => told.push({ fp: message.fp, caughtUp }));
    routeInbound(text('live', 1), ctx);
    routeInbound(text('live', 1), ctx, true);
    routeInbound(text('missed', 2), ctx, true);
    expect(told).toEqual([
      { fp: 'live', caughtUp: false },
      { fp: 'missed', caughtUp: true },
    ]);
  });

  it('without a listener the message is stored all the same, and a later listener hears the next one', () => {
    const { ctx, events, handleIncoming } = context();
    routeInbound(text('a', 1), ctx);
    expect(ctx.messages.size).toBe(1);
    expect(handleIncoming).toHaveBeenCalledTimes(1);
    const listener = vi.fn();
    events.on('message', listener);
    routeInbound(text('b', 2), ctx);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith({ message: ctx.messages.get('b'), caughtUp: false });
  });

  it("the user's own echo from another device is stored but not given to the receipt manager", () => {
    const { ctx, handleIncoming } = context();
    routeInbound({ ...text('mine', 1), from: 'u1', to: 'agent:a' }, ctx);
    expect(ctx.messages.has('mine')).toBe(true);
    expect(handleIncoming).not.toHaveBeenCalled();
  });
});
