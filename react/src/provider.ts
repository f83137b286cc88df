/**
 * `<ImProvider>`: puts an {@link ImClient} in context, starts and connects it once, and destroys
 * the client it created when it unmounts.
 * @module
 */
import { ImClient, type ImClientOptions } from '@kefu-im/sdk';
import { createElement, useEffect, type ReactElement, type ReactNode } from 'react';
import { ImClientContext } from './context.js';
import { useOwned } from './owned.js';

/** Props shared by both forms of {@link ImProvider}. */
export interface ImProviderBaseProps {
  /** The chat UI. */
  children?: ReactNode;
  /**
   * Run the start-up key exchange on mount (`client.start()`, default true). Start-up failures
   * are reported as the client's `error` events, never thrown.
   */
  autoStart?: boolean;
  /** Open the socket on mount (`client.connect()`, which starts first; default true). */
  autoConnect?: boolean;
}

/** Props of {@link ImProvider} given a client: the caller owns it and destroys it. */
export interface ImProviderClientProps extends ImProviderBaseProps {
  /** The client to provide. The provider never disconnects or destroys it. */
  client: ImClient;
  /** Not with `client`. */
  options?: never;
}

/** Props of {@link ImProvider} given options: the provider creates, owns and destroys the client. */
export interface ImProviderOptionsProps extends ImProviderBaseProps {
  /**
   * Options of the client the provider creates once, on its first render (later changes are
   * ignored: give the provider a new `key` to make a new client).
   */
  options: ImClientOptions;
  /** Not with `options`. */
  client?: never;
}

/** Props of {@link ImProvider}: either a `client` or the `options` to create one. */
export type ImProviderProps = ImProviderClientProps | ImProviderOptionsProps;

function destroyClient(client: ImClient | null): void {
  client?.destroy();
}

/**
 * Provides a client to the hooks below it.
 *
 * - With `client`, that client is used as it is and is never destroyed by the provider.
 * - With `options`, a client is created on the first render (the constructor does no I/O and
 *   touches no window, so this is safe during server rendering) and destroyed on unmount.
 * - `autoStart` and `autoConnect` (both default true) run in an effect, so never on the server.
 *   Under React StrictMode's simulated unmount and remount the same client stays alive and
 *   connects once: `connect()` is a no-op while connecting or open, and the unmount's destroy is
 *   deferred to a microtask and cancelled by the remount.
 *
 * ```tsx
 * <ImProvider options={{ baseUrl, socketUrl, socketKey, connectData: { mchId, platformId } }}>
 *   <Chat />
 * </ImProvider>
 * ```
 * @param props - see {@link ImProviderProps}
 */
export function ImProvider(props: ImProviderProps): ReactElement {
  const { autoStart = true, autoConnect = true, children } = props;
  const given = props.client;
  if (!given && (typeof props.options !== 'object' || props.options === null)) {
    throw new TypeError('ImProvider: pass either a `client` or the `options` to create one.');
  }
  // Always called, to keep the hook order; holds null while a client is given.
  const owned = useOwned(() => (props.client ? null : new ImClient(props.options)), destroyClient, given ? 'given' : 'owned');
  const client = given ?? owned;
  if (!client) throw new Error('ImProvider: no client');
  useEffect(() => {
    if (autoStart && !autoConnect) client.start().catch(() => undefined);
    if (autoConnect) client.connect();
  }, [client, autoStart, autoConnect]);
  return createElement(ImClientContext.Provider, { value: client }, children);
}
