/**
 * `useServerClock`: the server's time, ticking once a second.
 * @module
 */
import { useMemo } from 'react';
import { useImClient } from './context.js';
import { identity, useStoreSelector, type ExternalStore } from './store-selector.js';

/**
 * The server time in ms (`client.clock`): synced at start-up, reset by heartbeat replies and the
 * welcome, advancing in whole ticks (spec §9: 1 000 ms). Re-renders once per tick while the clock
 * runs; before the first sync it is the local time at the client's creation.
 */
export function useServerClock(): number {
  const clock = useImClient().clock;
  const store = useMemo<ExternalStore<number>>(
    () => ({ subscribe: (listener) => clock.subscribe(() => listener()), getSnapshot: () => clock.getSnapshot() }),
    [clock],
  );
  return useStoreSelector(store, identity<number>);
}
