/**
 * Small stores the bindings keep per client for state the SDK does not hold as a store (history
 * paging). One of each per client, kept
 * in a WeakMap so they live as long as the client.
 * @module
 * @internal
 */
import type { ImClient, MessagePage } from '@kefu-im/sdk';
import type { ExternalStore } from './store-selector.js';
import { Listeners } from '@kefu-im/sdk';

/** History paging state of `useMessages`. */
export interface PagingSnapshot {
  /** True while a page of older history is loading. */
  readonly loading: boolean;
  /** False once the server said there is no older history. */
  readonly hasMore: boolean;
  /** The error of the last failed page load, cleared by the next load. */
  readonly error: Error | null;
}

/** A store of one value on the SDK's {@link Listeners} (its one subscription primitive). @internal */
class Cell<T> extends Listeners implements ExternalStore<T> {
  constructor(private value: T) {
    super();
  }
  getSnapshot = (): T => this.value;
  set(value: T): void {
    if (Object.is(value, this.value)) return;
    this.value = value;
    this.notify();
  }
}

function perClient<V>(create: (client: ImClient) => V): (client: ImClient) => V {
  const cache = new WeakMap<ImClient, V>();
  return (client) => {
    let value = cache.get(client);
    if (value === undefined) {
      value = create(client);
      cache.set(client, value);
    }
    return value;
  };
}

/** The paging store of a client, with the one `loadOlder` shared by every `useMessages`. @internal */
export interface PagingStore extends ExternalStore<PagingSnapshot> {
  /** Loads the page before the oldest message held; concurrent calls share one request. */
  loadOlder(size?: number): Promise<MessagePage | null>;
}

/** History paging state of a client. @internal */
export const pagingStore = perClient((client: ImClient): PagingStore => {
  const cell = new Cell<PagingSnapshot>({ loading: false, hasMore: true, error: null });
  let inFlight: Promise<MessagePage | null> | null = null;
  const loadOlder = (size?: number): Promise<MessagePage | null> => {
    if (inFlight) return inFlight;
    cell.set({ ...cell.getSnapshot(), loading: true, error: null });
    const run = async (): Promise<MessagePage | null> => {
      try {
        const page = await client.loadOlder(size);
        cell.set({ loading: false, hasMore: page.hasMore === true, error: null });
        return page;
      } catch (e) {
        cell.set({ ...cell.getSnapshot(), loading: false, error: e instanceof Error ? e : new Error(String(e)) });
        return null;
      } finally {
        inFlight = null;
      }
    };
    inFlight = run();
    return inFlight;
  };
  return { subscribe: cell.subscribe, getSnapshot: cell.getSnapshot, loadOlder };
});
