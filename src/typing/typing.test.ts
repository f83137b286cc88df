/**
 * Typing signals (type 105, protocol §5a), with fake timers: the sender's throttle, idle and
 * pauses; the receiver's indicator and its expiry; disposal.
 */
import { EventEmitter } from 'eventemitter3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImClientEvents } from '../events.js';
import { MessageType, type ChatMessage, type StoredMessage } from '../messages/types.js';
import type { SendInput } from '../outbox/sender.js';
import { createStore } from '../state/store.js';
import { defaultTimers } from '../timers.js';
import { PREVIEW_MAX_CHARS, TYPING_EXPIRY_MS } from './room.js';
import { TYPING_IDLE_MS, TYPING_MIN_GAP_MS } from './sender.js';
import type { TypingClient } from './types.js';
import { createTyping, type Typing } from './typing.js';

class FakeClient extends EventEmitter<ImClientEvents> {
  readonly sent: SendInput[] = [];
  userId: string | undefined = 'v1';
  connectData: Record<string, unknown> = {};
  readonly state = createStore({ merchantInfo: null as Record<string, unknown> | null });
  send(input: SendInput): StoredMessage {
    this.sent.push(input);
    return { type: input.type ?? 100, dataContent: input.dataContent, fp: 'x', sendState: 'sent' };
  }
  getConnectData(): Readonly<Record<string, unknown>> {
    return this.connectData;
  }
  /** The typing frames sent, parsed. */
  frames(): { state: string; preview?: string }[] {
    return this.sent.filter((m) => m.type === MessageType.Typing).map((m) => JSON.parse(m.dataContent) as { state: string; preview?: string });
  }
}

let client: FakeClient;
let typing: Typing;

async function loaded(): Promise<void> {
  await typing.load();
}

function hear(message: ChatMessage): void {
  client.emit('socket message', { message, encrypted: false });
}

const fromAgent = (state: 'typing' | 'paused', extra: Partial<ChatMessage> = {}): ChatMessage => ({
  type: MessageType.Typing,
  from: 'agent:alice',
  to: 'v1',
  fn: 'Alice',
  dataContent: JSON.stringify({ state }),
  ...extra,
});

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  client = new FakeClient();
  typing = createTyping(client as unknown as TypingClient, defaultTimers);
});
afterEach(() => {
  typing.destroy();
  vi.useRealTimers();
});

describe('sender: typing at most once per 2 s while input continues', () => {
  it('30 s of continuous typing (a key every 100 ms) sends at most 16 typing frames, then paused after 5 s idle', async () => {
    await loaded();
    for (let t = 0; t < 30_000; t += 100) {
      typing.input('x'.repeat(t / 100 + 1));
      await vi.advanceTimersByTimeAsync(100);
    }
    const typingFrames = client.frames().filter((f) => f.state === 'typing');
    expect(typingFrames.length).toBeGreaterThanOrEqual(15);
    expect(typingFrames.length).toBeLessThanOrEqual(16);
    expect(client.frames().some((f) => f.state === 'paused')).toBe(false);
    await vi.advanceTimersByTimeAsync(TYPING_IDLE_MS);
    expect(client.frames().at(-1)).toEqual({ state: 'paused' });
    expect(client.frames().filter((f) => f.state === 'paused')).toHaveLength(1);
  });

  it('the first keystroke loads the room and sends typing at once', async () => {
    typing.input('h');
    await loaded();
    expect(client.frames()).toEqual([{ state: 'typing' }]);
    expect(client.sent[0]).toMatchObject({ type: 105 });
  });

  it('no frame is ever closer than 1.2 s to the previous one (the server drops those within 1 s)', async () => {
    await loaded();
    const at: number[] = [];
    client.send = (input) => {
      at.push(Date.now());
      return FakeClient.prototype.send.call(client, input);
    };
    for (let i = 0; i < 40; i += 1) {
      typing.input(i % 3 === 0 ? '' : 'abc');
      if (i % 4 === 0) typing.blur();
      await vi.advanceTimersByTimeAsync(170);
    }
    await vi.advanceTimersByTimeAsync(10_000);
    expect(at.length).toBeGreaterThan(3);
    for (let i = 1; i < at.length; i += 1) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(TYPING_MIN_GAP_MS);
  });
});

describe('sender: paused on blur, on send and after 5 s without input', () => {
  it('blur says paused (after the 1 s gap when typing was just said); blur without typing says nothing', async () => {
    typing.blur();
    await loaded();
    typing.blur();
    expect(client.frames()).toEqual([]);
    typing.input('hi');
    await vi.advanceTimersByTimeAsync(TYPING_MIN_GAP_MS);
    typing.blur();
    expect(client.frames()).toEqual([{ state: 'typing' }, { state: 'paused' }]);
  });

  it('sending a message says paused (once: a later send says nothing more)', async () => {
    await loaded();
    typing.input('hello');
    await vi.advanceTimersByTimeAsync(TYPING_MIN_GAP_MS);
    client.emit('send state', { fp: 'g', state: 'sent', message: { type: MessageType.Text, dataContent: 'hello', fp: 'g', sendState: 'sent' } });
    expect(client.frames()).toEqual([{ state: 'typing' }]);
    client.emit('send state', { fp: 'g', state: 'pending', message: { type: MessageType.Text, dataContent: 'hello', fp: 'g', sendState: 'pending' } });
    expect(client.frames()).toEqual([{ state: 'typing' }, { state: 'paused' }]);
    client.emit('send state', { fp: 'h', state: 'pending', message: { type: MessageType.EndConversation, dataContent: '{}', fp: 'h', sendState: 'pending' } });
    await vi.advanceTimersByTimeAsync(TYPING_IDLE_MS * 2);
    expect(client.frames()).toHaveLength(2);
  });

  it('5 s without input says paused once; an emptied composer says paused', async () => {
    await loaded();
    typing.input('a');
    await vi.advanceTimersByTimeAsync(TYPING_IDLE_MS - 1);
    expect(client.frames()).toEqual([{ state: 'typing' }]);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.frames()).toEqual([{ state: 'typing' }, { state: 'paused' }]);
    await vi.advanceTimersByTimeAsync(2_000);
    typing.input('b');
    await vi.advanceTimersByTimeAsync(TYPING_MIN_GAP_MS);
    typing.input('');
    await vi.advanceTimersByTimeAsync(0);
    expect(client.frames().map((f) => f.state)).toEqual(['typing', 'paused', 'typing', 'paused']);
  });
});

describe('sneak peek: the draft goes out only when the merchant has it on, at most 200 characters', () => {
  it('off (no merchant info, or sneakPeek false): no text is sent', async () => {
    await loaded();
    typing.input('secret');
    client.state.setState({ merchantInfo: { sneakPeek: false } });
    await vi.advanceTimersByTimeAsync(2_000);
    typing.input('secret 2');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(client.sent.every((m) => !m.dataContent.includes('secret'))).toBe(true);
  });

  it('on: the latest draft goes with each typing frame, cut to 200 characters; an agent never sends one', async () => {
    client.state.setState({ merchantInfo: { sneakPeek: true } });
    await loaded();
    typing.input('he');
    typing.input('hello');
    await vi.advanceTimersByTimeAsync(2_000);
    typing.input('é'.repeat(500));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(client.frames().map((f) => f.preview)).toEqual(['he', 'hello', 'é'.repeat(PREVIEW_MAX_CHARS)]);
    typing.destroy();
    client = new FakeClient();
    client.connectData = { role: 'agent' };
    client.state.setState({ merchantInfo: { sneakPeek: true } });
    typing = createTyping(client as unknown as TypingClient, defaultTimers);
    await loaded();
    typing.input('agent draft', 'v1');
    await vi.advanceTimersByTimeAsync(0);
    expect(client.frames()).toEqual([{ state: 'typing' }]);
    expect(client.sent[0]).toMatchObject({ to: 'v1' });
  });
});

describe('receiver: an indicator per conversation, expired 6 s after the last typing', () => {
  it('typing shows who and since when; repeated typing keeps since; it expires 6 s after the last one', async () => {
    await loaded();
    hear(fromAgent('typing'));
    expect(typing.store.getState().conversations['v1']).toEqual({ typing: true, from: 'agent:alice', who: 'Alice', since: 1_000_000 });
    await vi.advanceTimersByTimeAsync(4_000);
    hear(fromAgent('typing'));
    await vi.advanceTimersByTimeAsync(TYPING_EXPIRY_MS - 1);
    expect(typing.store.getState().conversations['v1']).toMatchObject({ typing: true, since: 1_000_000 });
    await vi.advanceTimersByTimeAsync(1);
    expect(typing.store.getState().conversations).toEqual({});
  });

  it('paused, or a message from the typing party, clears it at once; events say so', async () => {
    await loaded();
    const events: unknown[] = [];
    client.on('typing', (e) => events.push(e));
    hear(fromAgent('typing'));
    hear(fromAgent('paused'));
    expect(typing.store.getState().conversations).toEqual({});
    hear(fromAgent('typing'));
    hear({ type: MessageType.Text, from: 'agent:alice', to: 'v1', dataContent: 'hi', fp: 'm1' });
    expect(typing.store.getState().conversations).toEqual({});
    expect(events).toHaveLength(4);
    expect(events[3]).toEqual({ conversationId: 'v1', indicator: null });
  });

  it('an agent keys indicators by visitor and sees the preview; a visitor never keeps one', async () => {
    client.connectData = { role: 'agent' };
    client.userId = 'agent:alice';
    await loaded();
    hear({ type: 105, from: 'v1', to: 'agent:alice', fn: 'Visitor', dataContent: '{"state":"typing","preview":"draft"}' });
    hear({ type: 105, from: 'v2', to: 'agent:alice', fn: 'V2', dataContent: '{"state":"typing"}' });
    expect(typing.store.getState().conversations).toEqual({
      v1: { typing: true, from: 'v1', who: 'Visitor', since: 1_000_000, preview: 'draft' },
      v2: { typing: true, from: 'v2', who: 'V2', since: 1_000_000 },
    });
    typing.destroy();
    client = new FakeClient();
    typing = createTyping(client as unknown as TypingClient, defaultTimers);
    await loaded();
    hear(fromAgent('typing', { dataContent: '{"state":"typing","preview":"x"}' }));
    expect(typing.store.getState().conversations['v1']?.preview).toBeUndefined();
  });

  it('a malformed frame is ignored; the socket closing clears every indicator and pending frame', async () => {
    await loaded();
    hear(fromAgent('typing', { dataContent: 'nope' }));
    expect(typing.store.getState().conversations).toEqual({});
    hear(fromAgent('typing'));
    typing.input('a');
    typing.input('ab');
    await vi.advanceTimersByTimeAsync(500);
    client.emit('state', { newState: 'reconnecting', oldState: 'open' });
    expect(typing.store.getState().conversations).toEqual({});
    await vi.advanceTimersByTimeAsync(20_000);
    expect(client.frames()).toEqual([{ state: 'typing' }]);
  });
});

describe('disposal', () => {
  it('destroy leaves no timer and no listener behind, and a room loading after destroy never starts', async () => {
    await loaded();
    typing.input('a');
    hear(fromAgent('typing'));
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    typing.destroy();
    expect(vi.getTimerCount()).toBe(0);
    expect(client.listenerCount('socket message') + client.listenerCount('send state') + client.listenerCount('state')).toBe(0);
    const late = createTyping(client as unknown as TypingClient, defaultTimers);
    late.destroy();
    late.input('x');
    await late.load();
    expect(client.listenerCount('socket message')).toBe(0);
  });
});
