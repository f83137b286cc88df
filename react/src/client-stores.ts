/**
 * Per-client helpers of the bindings: history paging forwards the SDK's `client.history` store
 * with one shared `loadOlder`. One of each per client, kept in a WeakMap so they live as long as
 * the client.
 * @module
 * @internal
 */
import type { ImClient, MessagePage, PagingSnapshot } from '@kefu-im/sdk';
import type { ExternalStore } from './store-selector.js';

/** History paging state of `useMessages` (the SDK's `client.history` snapshot). */
export type { PagingSnapshot } from '@kefu-im/sdk';

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

/**
 * History paging of a client: the SDK's `client.history` store, with a `loadOlder` that resolves
 * `null` instead of rejecting (the error is in the snapshot); calls made while a page loads get
 * the same promise.
 * @internal
 */
export const pagingStore = perClient((client: ImClient): PagingStore => {
  let inFlight: Promise<MessagePage | null> | null = null;
  const loadOlder = (size?: number): Promise<MessagePage | null> => {
    inFlight ??= client.history
      .loadOlder(size)
      .catch(() => null)
      .finally(() => (inFlight = null));
    return inFlight;
  };
  return { subscribe: client.history.subscribe, getSnapshot: client.history.getSnapshot, loadOlder };
});
