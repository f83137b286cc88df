import { EventEmitter } from 'eventemitter3';
import { describe, expect, it, vi } from 'vitest';
import type { ImClientEvents } from '../events.js';
import { MessageType, type ChatMessage } from '../messages/types.js';
import { createSessionStore } from '../session.js';
import { reduceSessionEvent } from '../session-events.js';
import { createAvailabilityStore, parseAvailability, type AvailabilityHost } from './availability.js';
import { createStore } from '../state/store.js';
import { INITIAL_AVAILABILITY } from './types.js';

const parts = { createStore, signalType: MessageType.Availability, path: '/api/permit/getAvailability', initial: INITIAL_AVAILABILITY };

/** A stand-in client: real events and session store, an HTTP `get` answering `answer`. */
function host(answer: unknown = { code: 0, data: { open: true, agentsAvailable: true, nextOpenAt: 5 } }) {
  const events = new EventEmitter<ImClientEvents>();
  const session = createSessionStore();
  const get = vi.fn(async (..._args: unknown[]): Promise<unknown> => answer);
  const http = { get: <T>(...args: unknown[]): Promise<T> => get(...args) as Promise<T> };
  const client: AvailabilityHost = Object.assign(events, { session, http, getConnectData: () => ({ mchId: 'M1' }) });
  const signal = (content: object): void => {
    events.emit('socket message', { message: { type: MessageType.Availability, dataContent: JSON.stringify(content) }, encrypted: false });
  };
  const sessionEvent = (content: Record<string, unknown> & { event: string }): void => {
    session.setState(reduceSessionEvent(session.getState(), content));
    const message: ChatMessage = { type: MessageType.SessionEvent, dataContent: JSON.stringify(content) };
    events.emit('session', { ...content, message });
  };
  return { client, events, session, get, signal, sessionEvent };
}

describe('type 320 and getAvailability fill the store', () => {
  it('starts from getAvailability (with the connect data\'s mchId), then follows type 320', async () => {
    const h = host();
    const store = createAvailabilityStore(h.client, parts);
    expect(store.getSnapshot()).toEqual(INITIAL_AVAILABILITY);
    await vi.waitFor(() => expect(store.getSnapshot()).toMatchObject({ known: true, open: true, agentsAvailable: true, nextOpenAt: 5 }));
    expect(h.get).toHaveBeenCalledWith('/api/permit/getAvailability', { query: { mchId: 'M1' }, accept: 'any' });
    const seen: unknown[] = [];
    h.events.on('availability', ({ snapshot }) => seen.push(snapshot.open));
    h.signal({ open: false, agentsAvailable: true, nextOpenAt: 99 });
    expect(store.getSnapshot()).toMatchObject({ open: false, nextOpenAt: 99 });
    expect(seen).toEqual([false]);
    store.destroy();
  });

  it('a type 320 that came first wins over a slower HTTP answer; malformed signals change nothing', async () => {
    let release: (v: unknown) => void = () => undefined;
    const h = host();
    h.get.mockImplementationOnce(() => new Promise((r) => (release = r)));
    const store = createAvailabilityStore(h.client, parts);
    h.signal({ open: false, agentsAvailable: false, nextOpenAt: 7 });
    release({ code: 0, data: { open: true, agentsAvailable: true, nextOpenAt: 1 } });
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getSnapshot()).toMatchObject({ open: false, nextOpenAt: 7 });
    h.events.emit('socket message', { message: { type: MessageType.Availability, dataContent: 'not json' }, encrypted: false });
    h.signal({ open: 'yes' });
    expect(store.getSnapshot()).toMatchObject({ open: false, nextOpenAt: 7 });
    expect(parseAvailability(null)).toBeNull();
  });
});

describe('the answer when nobody can come, and the queue estimate', () => {
  it('`unavailable` (closed) is held with its next opening and emitted once, until someone can come', async () => {
    const h = host({ code: 1 });
    const store = createAvailabilityStore(h.client, parts);
    const told = vi.fn();
    h.events.on('unavailable', told);
    h.sessionEvent({ event: 'unavailable', reason: 'closed', open: false, agentsAvailable: true, nextOpenAt: 1_000 });
    expect(store.getSnapshot()).toMatchObject({ known: true, open: false, unavailable: { reason: 'closed', nextOpenAt: 1_000 } });
    expect(told).toHaveBeenCalledTimes(1);
    expect(told.mock.calls[0]?.[0]).toMatchObject({ reason: 'closed', nextOpenAt: 1_000 });
    h.signal({ open: true, agentsAvailable: true, nextOpenAt: 1_000 });
    expect(store.getSnapshot().unavailable).toBeNull();
  });

  it('no-agent while queued: position and estimated wait from the session; an agent joining clears the answer', () => {
    const h = host({ code: 1 });
    const store = createAvailabilityStore(h.client, parts);
    h.sessionEvent({ event: 'unavailable', reason: 'no-agent', open: true, agentsAvailable: false, nextOpenAt: 3 });
    h.sessionEvent({ event: 'queued', position: 2, busy: true, etaMs: 120_000 });
    expect(store.getSnapshot()).toMatchObject({ queue: { position: 2, etaMs: 120_000 }, unavailable: { reason: 'no-agent' } });
    h.sessionEvent({ event: 'agent-joined', agent: { id: 'agent:a', name: 'A', avatar: '' } });
    expect(store.getSnapshot().queue).toBeUndefined();
    expect(store.getSnapshot().unavailable).toBeNull();
  });

  it('destroy stops listening', () => {
    const h = host({ code: 1 });
    const store = createAvailabilityStore(h.client, parts);
    store.destroy();
    h.signal({ open: false, agentsAvailable: false, nextOpenAt: null });
    expect(store.getSnapshot().known).toBe(false);
    expect(h.events.listenerCount('socket message')).toBe(0);
  });
});
