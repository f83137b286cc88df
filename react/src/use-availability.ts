/**
 * `useAvailability`: a selector over the SDK's availability store, which the hook loads on first
 * use (`client.availability()`); until it is loaded the hook answers `INITIAL_AVAILABILITY`.
 * @module
 */
import { INITIAL_AVAILABILITY, type AvailabilitySnapshot, type AvailabilityStore } from '@kefu-im/sdk';
import { useEffect, useState } from 'react';
import { useImClient } from './context.js';
import { identity, useStoreSelector, type EqualityFn, type ExternalStore } from './store-selector.js';

export type { AvailabilitySnapshot } from '@kefu-im/sdk';

/** Stands in until the availability store is loaded. */
const NOT_LOADED: ExternalStore<AvailabilitySnapshot> = { subscribe: () => () => undefined, getSnapshot: () => INITIAL_AVAILABILITY };

/**
 * The merchant's availability for the provider's client: `{ known, open, agentsAvailable,
 * nextOpenAt, queue?: { position, etaMs }, unavailable }` (business hours, agents online, the
 * queue estimate, the answer when a visitor asked for a human and nobody can come). The store is
 * loaded on first use; with a selector the component re-renders only when the slice changes.
 *
 * ```tsx
 * const unavailable = useAvailability((a) => a.unavailable);
 * const etaMs = useAvailability((a) => a.queue?.etaMs ?? null);
 * ```
 * @param selector - picks a slice (default: the whole snapshot)
 * @param isEqual - optional equality of two slices (default `Object.is`)
 */
export function useAvailability<S = AvailabilitySnapshot>(selector?: (availability: AvailabilitySnapshot) => S, isEqual?: EqualityFn<S>): S {
  const client = useImClient();
  const [store, setStore] = useState<AvailabilityStore | null>(null);
  useEffect(() => {
    let mounted = true;
    client.availability().then(
      (loaded) => {
        if (mounted) setStore(loaded);
      },
      () => undefined, // the chunk did not load: the initial snapshot stays
    );
    return () => {
      mounted = false;
    };
  }, [client]);
  return useStoreSelector(store ?? NOT_LOADED, selector ?? identity<AvailabilitySnapshot, S>, isEqual);
}
