/**
 * Test fakes of the browser APIs the tab coordination uses: a Web Locks manager (exclusive locks,
 * `ifAvailable`, abort signals, and the release the browser does when a tab dies) and a
 * `BroadcastChannel` (delivery to every other open channel of the same name, in a microtask,
 * structured-cloned). One instance of each is one "browser".
 * @module
 * @internal
 */
import type { LockManagerLike, LockRequestOptionsLike } from './leader-election.js';
import type { BroadcastChannelConstructor, BroadcastChannelLike } from './tab-channel.js';
import type { TimerProvider } from '../timers.js';

/** Timers driven by the test: {@link ManualTimers.advance} runs what falls due, in order. */
export interface ManualTimers extends TimerProvider {
  /** Moves the clock on by `ms`, running due timeouts and intervals. */
  advance(ms: number): void;
  /** How many timers are pending. */
  readonly pending: number;
}

/** Creates {@link ManualTimers} starting at time 0. */
export function manualTimers(): ManualTimers {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void; every: number | null }>();
  const add = (fn: () => void, ms: number, every: number | null): number => {
    const id = nextId++;
    timers.set(id, { at: now + Math.max(0, ms), fn, every });
    return id;
  };
  return {
    setTimeout: (fn, ms) => add(fn, ms, null),
    setInterval: (fn, ms) => add(fn, ms, Math.max(1, ms)),
    clearTimeout: (h) => void timers.delete(h as number),
    clearInterval: (h) => void timers.delete(h as number),
    now: () => now,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let due: [number, { at: number; fn: () => void; every: number | null }] | undefined;
        for (const entry of timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        const [id, t] = due;
        now = t.at;
        if (t.every === null) timers.delete(id);
        else t.at += t.every;
        t.fn();
      }
      now = end;
    },
    get pending() {
      return timers.size;
    },
  };
}

interface Waiter {
  callback: (lock: unknown) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

interface Held {
  waiter: Waiter;
}

/** An exclusive-only Web Locks manager. */
export class FakeLockManager implements LockManagerLike {
  private readonly held = new Map<string, Held>();
  private readonly queues = new Map<string, Waiter[]>();
  /** Every request made, in order (for assertions on names and options). */
  readonly requests: { name: string; options: LockRequestOptionsLike }[] = [];

  /** @inheritDoc */
  request(name: string, options: LockRequestOptionsLike, callback: (lock: unknown) => unknown): Promise<unknown> {
    this.requests.push({ name, options });
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { callback, resolve, reject, signal: options.signal, onAbort: () => undefined };
      if (options.signal?.aborted) return reject(abortError());
      if (!this.held.has(name)) return this.grant(name, waiter);
      if (options.ifAvailable) {
        void Promise.resolve()
          .then(() => callback(null))
          .then(resolve, reject);
        return;
      }
      const queue = this.queues.get(name) ?? [];
      queue.push(waiter);
      this.queues.set(name, queue);
      waiter.onAbort = () => {
        const q = this.queues.get(name) ?? [];
        const i = q.indexOf(waiter);
        if (i >= 0) q.splice(i, 1);
        reject(abortError());
      };
      options.signal?.addEventListener('abort', waiter.onAbort);
    });
  }

  /** Who holds a lock (true) or not. */
  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  /** How many requests wait for a lock. */
  waiting(name: string): number {
    return this.queues.get(name)?.length ?? 0;
  }

  /** Releases a lock as the browser does when the holding tab closes or crashes. */
  crash(name: string): void {
    const held = this.held.get(name);
    if (!held) return;
    this.releaseHeld(name, held);
    held.waiter.resolve(undefined);
  }

  private grant(name: string, waiter: Waiter): void {
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    const held: Held = { waiter };
    this.held.set(name, held);
    void Promise.resolve()
      .then(() => waiter.callback({ name, mode: 'exclusive' }))
      .then(
        (value) => {
          this.releaseHeld(name, held);
          waiter.resolve(value);
        },
        (error: unknown) => {
          this.releaseHeld(name, held);
          waiter.reject(error);
        },
      );
  }

  private releaseHeld(name: string, held: Held): void {
    if (this.held.get(name) !== held) return;
    this.held.delete(name);
    const next = this.queues.get(name)?.shift();
    if (next) this.grant(name, next);
  }
}

function abortError(): Error {
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}

/** A fake browser's channels: a `BroadcastChannel` constructor and what is open. */
export interface FakeChannels {
  /** The constructor to inject. */
  BroadcastChannel: BroadcastChannelConstructor;
  /** How many channels are open. */
  readonly open: number;
  /** How many message listeners are registered on open or closed channels. */
  readonly listeners: number;
  /** Every message posted, with its channel name (for assertions). */
  readonly posted: { name: string; data: unknown }[];
  /** Every channel made, in order (a test may freeze one: it then receives nothing until thawed). */
  readonly instances: FakeChannelHandle[];
}

/** A fake channel as a test sees it. */
export interface FakeChannelHandle {
  /** The channel name. */
  readonly name: string;
  /** Holds deliveries (a frozen page runs nothing) until {@link FakeChannelHandle.thaw}. */
  freeze(): void;
  /** Delivers what was held, then delivers again as messages come. */
  thaw(): void;
}

/** Creates a fake `BroadcastChannel` for one "browser". */
export function createFakeChannels(): FakeChannels {
  const all = new Set<FakeChannel>();
  const posted: { name: string; data: unknown }[] = [];
  const instances: FakeChannelHandle[] = [];
  class FakeChannel implements BroadcastChannelLike {
    readonly listeners = new Set<(event: { data: unknown }) => void>();
    closed = false;
    private held: unknown[] | null = null;
    constructor(readonly name: string) {
      all.add(this);
      instances.push(this);
    }
    freeze(): void {
      this.held ??= [];
    }
    thaw(): void {
      const held = this.held ?? [];
      this.held = null;
      for (const data of held) this.receive(data);
    }
    receive(data: unknown): void {
      if (this.closed) return;
      if (this.held) return void this.held.push(data);
      for (const l of [...this.listeners]) l({ data: structuredClone(data) });
    }
    postMessage(message: unknown): void {
      if (this.closed) throw new Error('InvalidStateError: the channel is closed');
      const data = structuredClone(message);
      posted.push({ name: this.name, data });
      for (const other of all) {
        if (other === this || other.closed || other.name !== this.name) continue;
        queueMicrotask(() => other.receive(data));
      }
    }
    close(): void {
      this.closed = true;
    }
    addEventListener(type: string, listener: (event: { data: unknown }) => void): void {
      if (type === 'message') this.listeners.add(listener);
    }
    removeEventListener(type: string, listener: (event: { data: unknown }) => void): void {
      if (type === 'message') this.listeners.delete(listener);
    }
  }
  return {
    BroadcastChannel: FakeChannel,
    get open() {
      return [...all].filter((c) => !c.closed).length;
    },
    get listeners() {
      return [...all].reduce((n, c) => n + c.listeners.size, 0);
    },
    posted,
    instances,
  };
}

/** Lets queued work (the lazy load of the election, lock grants, channel deliveries) run. */
export async function flushTabs(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let j = 0; j < 20; j++) await Promise.resolve();
  }
}
