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
}

/** Creates a fake `BroadcastChannel` for one "browser". */
export function createFakeChannels(): FakeChannels {
  const all = new Set<FakeChannel>();
  const posted: { name: string; data: unknown }[] = [];
  class FakeChannel implements BroadcastChannelLike {
    readonly listeners = new Set<(event: { data: unknown }) => void>();
    closed = false;
    constructor(readonly name: string) {
      all.add(this);
    }
    postMessage(message: unknown): void {
      if (this.closed) throw new Error('InvalidStateError: the channel is closed');
      const data = structuredClone(message);
      posted.push({ name: this.name, data });
      for (const other of all) {
        if (other === this || other.closed || other.name !== this.name) continue;
        queueMicrotask(() => {
          if (other.closed) return;
          for (const l of [...other.listeners]) l({ data: structuredClone(data) });
        });
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
  };
}

/** Lets queued work (the lazy load of the election, lock grants, channel deliveries) run. */
export async function flushTabs(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let j = 0; j < 20; j++) await Promise.resolve();
  }
}
