/**
 * The network flag before the socket code has loaded: the client's socket stack (connection,
 * tabs, page lifecycle) loads with the first `start()` or `connect()`, and until then this keeps
 * the connection snapshot's `online` in step with the window.
 * @module
 * @internal
 */
import type { Store } from '../state/store.js';
import type { Disposer } from '../timers.js';
import type { ConnectionSnapshot } from './connection-snapshot.js';
import type { NetworkTarget } from './connection.js';

/**
 * Follows the window's `online`/`offline` events into `store` and tells `changed`; returns the
 * disposer that stops it, once however often it is called (the connection takes over, with the
 * flag as it is then).
 * @param target - the window, or null (always online)
 * @param store - the connection snapshot store
 * @param changed - told of each change (the client's `network` event)
 * @internal
 */
export function watchNetwork(target: NetworkTarget | null, store: Store<ConnectionSnapshot>, changed: (online: boolean) => void): Disposer {
  if (!target) return () => undefined;
  const set = (online: boolean) => (): void => {
    if (store.getState().online === online) return;
    store.setState({ online });
    changed(online);
  };
  const offline = set(false);
  const online = set(true);
  target.addEventListener('offline', offline);
  target.addEventListener('online', online);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    target.removeEventListener('offline', offline);
    target.removeEventListener('online', online);
  };
}
