/**
 * `useConnection`: the socket connection state, login, user id and online flag.
 * @module
 */
import { connectionStore, type ConnectionSnapshot } from './client-stores.js';
import { useImClient } from './context.js';
import { identity, useStoreSelector, type EqualityFn } from './store-selector.js';

export type { ConnectionSnapshot } from './client-stores.js';

/**
 * The connection of the provider's client: `{ state, loggedIn, reconnected, userId, online }`.
 * Without a selector it re-renders when any of them changes; with one, only when the slice does.
 *
 * ```tsx
 * const { state, loggedIn } = useConnection();
 * const userId = useConnection((c) => c.userId);
 * ```
 * @param selector - picks a slice (default: the whole snapshot)
 * @param isEqual - optional equality of two slices (default `Object.is`)
 */
export function useConnection<S = ConnectionSnapshot>(selector?: (connection: ConnectionSnapshot) => S, isEqual?: EqualityFn<S>): S {
  const client = useImClient();
  return useStoreSelector(connectionStore(client), selector ?? identity<ConnectionSnapshot, S>, isEqual);
}
