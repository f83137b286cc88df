/**
 * `useConnection`: one selector over the SDK's connection snapshot (`client.connectionStore`).
 * @module
 */
import type { ConnectionSnapshot } from '@kefu-im/sdk';
import { useImClient } from './context.js';
import { identity, useStoreSelector, type EqualityFn } from './store-selector.js';

export type { ConnectionSnapshot } from '@kefu-im/sdk';

/**
 * The connection of the provider's client, read from `client.connectionStore`:
 * `{ state, online, attempt, nextAttemptAt, lastCloseCode, failed, halted, haltReason, loggedIn, reconnected, userId }`.
 * Without a selector it re-renders when any of them changes; with one, only when the slice does.
 *
 * ```tsx
 * const { state, loggedIn } = useConnection();
 * const nextAttemptAt = useConnection((c) => c.nextAttemptAt);
 * ```
 * @param selector - picks a slice (default: the whole snapshot)
 * @param isEqual - optional equality of two slices (default `Object.is`)
 */
export function useConnection<S = ConnectionSnapshot>(selector?: (connection: ConnectionSnapshot) => S, isEqual?: EqualityFn<S>): S {
  const client = useImClient();
  return useStoreSelector(client.connectionStore, selector ?? identity<ConnectionSnapshot, S>, isEqual);
}
