/**
 * The socket half of a client's engine: the socket link (connection, close codes), the tab link
 * (one socket per visitor per browser) and the page lifecycle, wired to the engine. It is loaded
 * with the client's first `start()` or `connect()` (a dynamic `import()`), so that a page pays for
 * it only once it goes online; the key ring, the connection snapshot and the network flag are the
 * engine's from its construction and handed over here.
 * @module
 * @internal
 */
import type { ClientContext } from '../client-context.js';
import type { ConnectionState } from '../events.js';
import type { KeyRing } from '../key-ring.js';
import type { ChatMessage } from '../messages/types.js';
import type { DocumentLike, ImClientOptions, WindowLike } from '../options.js';
import { globalWebSocket } from '../platform.js';
import type { Store } from '../state/store.js';
import { attachTabs, type TabEvents, type TabLink } from '../tabs/tab-link.js';
import type { ConnectionSnapshot } from './connection-snapshot.js';
import { documentVisible, PageLifecycle } from './lifecycle.js';
import { SocketLink } from './link.js';

/** What the socket stack needs from the engine. @internal */
export interface SocketStackDeps {
  /** The client context. */
  ctx: ClientContext;
  /** The client options (transports, reconnect policy, tabs). */
  options: ImClientOptions;
  /** The window (network events, page lifecycle); null without one. */
  network: WindowLike | null;
  /** The document (visibility, freeze and resume); null without one. */
  document: DocumentLike | null;
  /** The client's events (a leader tab forwards `socket message` and `user` to the others). */
  clientEvents: TabEvents;
  /** The key session, held by the engine. */
  keys: KeyRing;
  /** The connection snapshot store, created by the engine. */
  store: Store<ConnectionSnapshot>;
  /** Runs start-up (the key exchange) if it has not run. */
  start(): Promise<unknown>;
  /** Adds what proves the identity to the connect data (protocol §3a). */
  withIdentity(data: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** Close-code rules of the identity (4004). */
  identity: { identityRefused(): void; identityGivenUp(): boolean };
  /** Every welcome (type 60): the connect was accepted. */
  onWelcome(message: ChatMessage): void;
  /** A decoded message from the leader tab's socket (a follower), and a welcome's claim. */
  deliver(message: ChatMessage, encrypted: boolean): void;
  /** A raw frame from the own socket. */
  frame(data: unknown): void;
  /** A socket this tab uses opened. */
  loggedIn(reconnected: boolean): void;
  /** The service state, for a tab that joins later. */
  catchUpMessage(): ChatMessage | null;
  /** Follower: the user id the server gave the leader. */
  adoptUserId(userId: string): void;
  /** No attempt to connect is coming (a terminal close, a policy that gave up). */
  halted(): void;
}

/** The socket link, the tab link and the page lifecycle of one client. @internal */
export interface SocketStack {
  /** Connection, key session, close codes. */
  readonly link: SocketLink;
  /** The own socket, or the leader tab's (docs/tabs.md). */
  readonly tabs: TabLink;
  /** Stops the connection, the tab link and the lifecycle listeners. */
  destroy(): void;
}

/**
 * Builds the socket stack of a client.
 * @param deps - the engine's parts and callbacks
 * @internal
 */
export function createSocketStack(deps: SocketStackDeps): SocketStack {
  const { ctx, options, network, document } = deps;
  const link = new SocketLink({
    ...options,
    ...ctx,
    WebSocket: options.WebSocket ?? globalWebSocket(),
    network,
    keys: deps.keys,
    store: deps.store,
    online: deps.store.getState().online,
    start: deps.start,
    isVisible: () => documentVisible(document),
    withIdentity: deps.withIdentity,
    onWelcome: deps.onWelcome,
    identity: deps.identity,
  });
  const { connection } = link;
  let tabs: TabLink | undefined; // undefined while attachTabs runs
  const stateChanged = (change: { newState: ConnectionState; oldState: ConnectionState }): void => {
    ctx.events.emit('state', change);
    const following = tabs?.role === 'follower';
    if (following) connection.store.setState({ state: change.newState, loggedIn: change.newState === 'open', failed: change.newState === 'failed' });
    // Pending messages fail only when no attempt is coming (a terminal close, a policy that gave up).
    if (change.newState === 'failed' && !following && connection.halted) deps.halted();
  };
  tabs = attachTabs(
    {
      connection,
      events: deps.clientEvents,
      scope: () => ({ clientId: ctx.clientId(), connectData: ctx.connectData() }),
      writeOwn: (message) => link.send(message),
      deliver: deps.deliver,
      loggedIn: deps.loggedIn,
      catchUpMessage: deps.catchUpMessage,
      keySession: () => link.keys.token,
      adoptUserId: deps.adoptUserId,
      stateChanged,
      lifecycle: document,
      timers: ctx.timers,
      reportError: (error) => ctx.reportError(error, 'socket'),
    },
    options.tabs,
    network !== null,
  );
  connection.on('frame', ({ data }) => deps.frame(data));
  connection.on('error', ({ error, source }) => ctx.reportError(error, source));
  connection.on('network', ({ online }) => ctx.events.emit('network', { online }));
  const { heartbeatInterval, livenessTimeout } = ctx.limits;
  const lifecycle = new PageLifecycle({ window: network, document, timers: ctx.timers, connection, heartbeatInterval, livenessTimeout });
  const attached = tabs;
  return {
    link,
    tabs: attached,
    destroy() {
      lifecycle.destroy();
      attached.destroy();
      connection.destroy();
    },
  };
}
