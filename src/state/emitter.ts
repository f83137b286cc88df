/**
 * The event emitter of the client, the connection and the uploader: eventemitter3's API and
 * types (`on`, `once`, `off`, `emit`, listener contexts, `listeners`, `eventNames`...) in a few
 * lines of ES module code, so that start-up carries neither eventemitter3's CommonJS build nor
 * the bundler's CommonJS wrapper. The types stay eventemitter3's own.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';

type Listener = (...args: unknown[]) => void;
type EventName = string | symbol;

/** One registration: the listener, its `this`, and whether it runs once. */
interface Registration {
  readonly fn: Listener;
  readonly context: unknown;
  readonly once: boolean;
}

/** The emitter's code; typed as eventemitter3's `EventEmitter` by {@link Emitter}. */
class TinyEmitter {
  /** Named like eventemitter3's own field, which subclasses already leave alone. */
  private readonly _events = new Map<EventName, readonly Registration[]>();

  eventNames(): EventName[] {
    return [...this._events.keys()];
  }

  listeners(event: EventName): Listener[] {
    return (this._events.get(event) ?? []).map((r) => r.fn);
  }

  listenerCount(event: EventName): number {
    return this._events.get(event)?.length ?? 0;
  }

  /** Calls the listeners registered when the emit began, in order; true when there were any. */
  emit(event: EventName, ...args: unknown[]): boolean {
    const list = this._events.get(event);
    if (!list) return false;
    for (const r of list) {
      if (r.once) this.removeListener(event, r.fn, undefined, true);
      r.fn.apply(r.context, args);
    }
    return true;
  }

  on(event: EventName, fn: Listener, context?: unknown): this {
    return register(this, event, fn, context, false);
  }

  addListener(event: EventName, fn: Listener, context?: unknown): this {
    return register(this, event, fn, context, false);
  }

  once(event: EventName, fn: Listener, context?: unknown): this {
    return register(this, event, fn, context, true);
  }

  /** Removes the matching registrations: all of the event without `fn`. */
  removeListener(event: EventName, fn?: Listener, context?: unknown, once?: boolean): this {
    const list = this._events.get(event);
    if (!list) return this;
    const kept = fn ? list.filter((r) => r.fn !== fn || (once && !r.once) || (context !== undefined && r.context !== context)) : [];
    if (kept.length > 0) this._events.set(event, kept);
    else this._events.delete(event);
    return this;
  }

  off(event: EventName, fn?: Listener, context?: unknown, once?: boolean): this {
    return this.removeListener(event, fn, context, once);
  }

  removeAllListeners(event?: EventName): this {
    if (event === undefined) this._events.clear();
    else this._events.delete(event);
    return this;
  }
}

/** Adds a registration (a function, not a method: subclasses have methods of their own, e.g. `add`). */
function register<T extends TinyEmitter>(emitter: T, event: EventName, fn: Listener, context: unknown, once: boolean): T {
  if (typeof fn !== 'function') throw new TypeError('The listener must be a function');
  const events = (emitter as unknown as { _events: Map<EventName, readonly Registration[]> })._events;
  // a new array: an emit under way goes on with the listeners it began with
  events.set(event, [...(events.get(event) ?? []), { fn, context: context ?? emitter, once }]);
  return emitter;
}

/**
 * eventemitter3's `EventEmitter` (same API, same types), without its CommonJS build.
 * `class ImClient extends Emitter<ImClientEvents>`.
 */
export const Emitter: EventEmitter.EventEmitterStatic = TinyEmitter as unknown as EventEmitter.EventEmitterStatic;
