/**
 * The availability store (`client.availability()` loads it on first use): business hours, agents
 * available, the queue position with its estimated wait, and the server's answer when a visitor
 * asked for a human and nobody could come. Live signals are their own room: the store listens to
 * the client's events and session store, and asks `getAvailability` once to start from what the
 * server says now (a type 320 that arrives meanwhile wins).
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { ImClientEvents } from '../events.js';
import type { HttpClient } from '../http/http-client.js';
import type { ChatMessage } from '../messages/types.js';
import type { SessionState } from '../session.js';
import type { ReadonlyStore } from '../socket/connection-snapshot.js';
import type { createStore, Store } from '../state/store.js';
import type { AvailabilitySnapshot, UnavailableAnswer } from './types.js';

/** The availability store: subscribe/getSnapshot, a refresh, and destroy. */
export interface AvailabilityStore extends ReadonlyStore<AvailabilitySnapshot> {
  /** Asks the server (`getAvailability`) now; never rejects (a failure leaves the snapshot as it is). */
  refresh(): Promise<void>;
  /** Stops listening (the client's `destroy()` calls it). */
  destroy(): void;
}

/**
 * What the store needs from the client. The shared pieces (the store factory, the message type,
 * the call's path, the initial snapshot) come from the client too: this chunk then imports
 * nothing that the start-up bundle holds, and the bundler splits nothing more out of it.
 * @internal
 */
export interface AvailabilityHost extends Pick<EventEmitter<ImClientEvents>, 'on' | 'off' | 'emit'> {
  /** The session store (status, position, etaMs). */
  readonly session: ReadonlyStore<SessionState>;
  /** HTTP, for `getAvailability`. */
  readonly http: Pick<HttpClient, 'get'>;
  /** The connect data (its `mchId`). */
  getConnectData(): Readonly<Record<string, unknown>>;
}

/** The shared pieces the client hands over (see {@link AvailabilityHost}). @internal */
export interface AvailabilityParts {
  /** The SDK's store factory. */
  createStore: typeof createStore;
  /** The type number of availability signals (320). */
  signalType: number;
  /** The path of `getAvailability`. */
  path: string;
  /** The snapshot before the server said anything. */
  initial: Readonly<AvailabilitySnapshot>;
}


const time = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Reads what type 320 (or `getAvailability`) says; null when it is not an availability object.
 * @internal
 */
export function parseAvailability(value: unknown): Pick<AvailabilitySnapshot, 'open' | 'agentsAvailable' | 'nextOpenAt'> | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.open !== 'boolean' || typeof v.agentsAvailable !== 'boolean') return null;
  return { open: v.open, agentsAvailable: v.agentsAvailable, nextOpenAt: time(v.nextOpenAt) };
}

/** The queue part of a session state. */
function queueOf(session: SessionState): Pick<AvailabilitySnapshot, 'queue'> {
  return session.status === 'queued' && session.position !== null ? { queue: { position: session.position, etaMs: session.etaMs } } : { queue: undefined };
}

/**
 * Creates the availability store over a client.
 * @param client - the client (its events, session store, HTTP and connect data)
 * @param parts - the store factory, the signal type, the call's path and the initial snapshot
 */
export function createAvailabilityStore(client: AvailabilityHost, parts: AvailabilityParts): AvailabilityStore {
  const store: Store<AvailabilitySnapshot> = parts.createStore<AvailabilitySnapshot>({ ...parts.initial, ...queueOf(client.session.getState()) });
  /** Set once a type 320 arrived: a slower HTTP answer is older and is dropped. */
  let signalled = false;

  const apply = (next: Partial<AvailabilitySnapshot>): void => {
    const previous = store.getState();
    const merged = { ...previous, ...next };
    // someone can come (open, an agent online) or came: the earlier "nobody can come" is over
    if ((merged.open && merged.agentsAvailable) || client.session.getState().status === 'agent') merged.unavailable = null;
    store.setState(merged);
    const snapshot = store.getState();
    if (snapshot !== previous) client.emit('availability', { snapshot, previous });
  };

  const onMessage = ({ message }: { message: ChatMessage }): void => {
    if (message.type !== parts.signalType) return;
    let parsed: ReturnType<typeof parseAvailability> = null;
    try {
      parsed = parseAvailability(JSON.parse(message.dataContent ?? ''));
    } catch {
      // a malformed signal changes nothing
    }
    if (!parsed) return;
    signalled = true;
    apply({ known: true, ...parsed });
  };

  const onSession: ImClientEvents['session'] = (event) => {
    if (event.event !== 'unavailable') return;
    const answer: UnavailableAnswer = { reason: typeof event.reason === 'string' ? event.reason : 'no-agent', nextOpenAt: time(event.nextOpenAt) };
    const known = parseAvailability(event);
    apply({ unavailable: answer, ...(known ? { known: true, ...known } : {}) });
    client.emit('unavailable', { ...answer, message: event.message });
  };

  client.on('socket message', onMessage);
  client.on('session', onSession);
  const stopSession = client.session.subscribe((session) => apply(queueOf(session)));

  const refresh = async (): Promise<void> => {
    const mchId = client.getConnectData().mchId;
    if (typeof mchId !== 'string' && typeof mchId !== 'number') return;
    try {
      const body = await client.http.get<{ code?: unknown; data?: unknown }>(parts.path, { query: { mchId: String(mchId) }, accept: 'any' });
      const parsed = body.code === 0 ? parseAvailability(body.data) : null;
      if (parsed && !signalled) apply({ known: true, ...parsed });
    } catch {
      // the socket's type 320 will say it
    }
  };
  void refresh();

  return {
    getState: store.getState,
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    refresh,
    destroy: () => {
      client.off('socket message', onMessage);
      client.off('session', onSession);
      stopSession();
    },
  };
}
