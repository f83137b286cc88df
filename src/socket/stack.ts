/**
 * The socket half of a client's engine: the socket link (connection, close codes), the identity's
 * claim (protocol §3a), the inbound router, the tab link (one socket per visitor per browser) and
 * the page lifecycle, wired to the engine. It is loaded
 * with the client's first `start()` or `connect()` (a dynamic `import()`), so that a page pays for
 * it only once it goes online; the key ring, the connection snapshot and the network flag are the
 * engine's from its construction and handed over here.
 * @module
 * @internal
 */
import type { ClientContext } from '../client-context.js';
import { welcomeBeforeCall } from '../http/bound-calls.js';
import type { RequestOptions } from '../http/http-client.js';
import { IdentityKeeper, MERGED_FOLLOW_WAIT, verifiedOfWelcome, type IdentityDeps } from '../identity.js';
import { IdentityTokens } from '../identity-token.js';
import { InboundRouter } from '../inbound.js';
import type { ConnectionState, IdentityChange } from '../events.js';
import type { KeyRing } from '../key-ring.js';
import { MessageType, type ChatMessage, type FailReason } from '../messages/types.js';
import type { DocumentLike, ImClientOptions, WindowLike } from '../options.js';
import type { Outbox } from '../outbox/outbox.js';
import type { ReceiptManager } from '../receipts/receipt-manager.js';
import { globalWebSocket } from '../platform.js';
import type { Store } from '../state/store.js';
import { attachTabs, type TabEvents, type TabLink } from '../tabs/tab-link.js';
import type { TimerHandle } from '../timers.js';
import type { ConnectionSnapshot } from './connection-snapshot.js';
import { documentVisible, PageLifecycle } from './lifecycle.js';
import { SocketLink } from './link.js';
import { serviceStateMessage } from './service-state.js';

// The resend rule of the outbox paces writes on an open socket only: it loads with the socket code.
export { ResendPacer } from '../outbox/resend-pacer.js';

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
  /** The persisted client state holding the client id and its secret (protocol §3a). */
  state: IdentityDeps['state'];
  /** Makes a new client id. */
  createId(): string;
  /** A refused identity (4004) was replaced by a new one: forget its conversation. */
  identityReset(): void;
  /** Forgets on this device what a refused identity left (its drafts, its durable outbox). */
  forgetIdentity(clientId: string): Promise<void>;
  /** Another tab switched this tab's visitor (see `TabHost.followIdentity`): follow it. */
  followIdentity(ctx: { change: IdentityChange; clientId: string }): Promise<void>;
  /** Every welcome (type 60): the connect was accepted. */
  onWelcome(message: ChatMessage): void;
  /** The outbox (an echo acknowledges its message). */
  outbox: Outbox;
  /** The read receipts incoming messages go to. */
  receipts: ReceiptManager;
  /** A refused message fails; false when it stays pending (sent again later). */
  markFailed(fp: string, reason: FailReason): boolean | void;
  /** A socket this tab uses opened. */
  loggedIn(reconnected: boolean): void;
  /** No attempt to connect is coming (a terminal close, a policy that gave up). */
  halted(): void;
}

/** The socket link, the inbound router, the tab link and the page lifecycle of one client. @internal */
export interface SocketStack {
  /** Connection, key session, close codes. */
  readonly link: SocketLink;
  /** The own socket, or the leader tab's (docs/tabs.md). */
  readonly tabs: TabLink;
  /** Incoming frames to the managers. */
  readonly router: InboundRouter;
  /** The member's identity token (protocol §3b). */
  readonly identityTokens: IdentityTokens;
  /**
   * Before a call that speaks for the visitor (see `needsBinding`), made during a connect: waits
   * for `welcomed` (at most `limits.requestTimeout`; at once while the connection shows
   * `failed`); returns nothing for other calls.
   */
  callReady(path: string, opts: RequestOptions, welcomed: () => Promise<void>): Promise<void> | undefined;
  /**
   * `identify()` is under way (true) until the verified welcome: this tab enters the tab election
   * under a name of its own, so that it opens its own socket with the token instead of following
   * another tab of the anonymous visitor.
   */
  setIdentifying(on: boolean): void;
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
  const identity = new IdentityKeeper({
    state: deps.state,
    createId: deps.createId,
    onReset: ({ oldId, newId }) => {
      deps.identityReset();
      // The refused id never comes back (a member's id without its token, a deleted or merged id):
      // nothing of it stays on this device, as after reset() (its drafts, its durable outbox).
      deps.forgetIdentity(oldId).catch((e: unknown) => ctx.reportError(e, 'connect'));
      ctx.events.emit('identity', { change: 'refused', clientId: newId });
      tabs?.announceIdentity('refused', oldId, newId); // the other tabs of the refused id follow
    },
    onGiveUp: (error) => ctx.reportError(error, 'connect'),
  });
  const tokens = new IdentityTokens({
    source: options.getIdentityToken,
    timers: ctx.timers,
    now: () => ctx.clock.now(),
    timeout: ctx.limits.requestTimeout,
    onRefused: (refusal) => ctx.events.emit('identity token refused', refusal),
    reportError: (error) => ctx.reportError(error, 'connect'),
  });
  let tabs: TabLink | undefined; // undefined while attachTabs runs
  let identifying = false;
  let mergedWait: TimerHandle | null = null;
  const welcomed = (message: ChatMessage, own: boolean): void => {
    identity.onFrame(message); // the welcome's claim (protocol §3a)
    if (message.type !== MessageType.Welcome) return;
    tokens.onWelcome();
    const verified = verifiedOfWelcome(message);
    deps.store.setState({ verified });
    // A verified member is the same visitor id on every device (protocol §3b.2): it becomes the
    // client id, so that calls naming the visitor name the member (the anonymous id is retired by
    // the merge, and a member needs no §3a secret).
    const memberId = message.to;
    const previous = deps.state.getState().uuid;
    if (verified && own) identifying = false;
    if (verified && typeof memberId === 'string' && memberId !== '' && memberId !== previous) {
      deps.state.setState({ uuid: memberId, clientSecret: null });
      if (own) tabs?.announceIdentity('identify', previous, memberId); // the other tabs of the anonymous id follow
    }
    // The tabs of one visitor share a socket under the visitor's name: a tab whose own socket was
    // welcomed under another client id (a member's, a new one after 4004) enters the election of
    // that id (the socket stays open: it leads there, or follows the tab that already does).
    const enteredAs = tabs?.enteredAs ?? '';
    if (own && enteredAs !== '' && enteredAs !== ctx.clientId()) tabs?.connect();
    if (own) tabs?.welcomed(); // a leader's followers use its socket (and its key session) from now on
  };
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
    withIdentity: (data) => identity.connectData(data),
    withIdentityToken: (data) => tokens.connectData(data),
    onWelcome: (message) => {
      deps.onWelcome(message);
      welcomed(message, true);
    },
    identity: {
      identityRefused: (reason) => {
        if (identity.onRefused(reason) !== 'wait') return;
        // merged by a tab of this storage that logged in: it tells this one to follow; else a new id
        if (mergedWait !== null) ctx.timers.clearTimeout(mergedWait);
        mergedWait = ctx.timers.setTimeout(() => {
          mergedWait = null;
          if (identity.renewIfWaiting()) connection.connect();
        }, MERGED_FOLLOW_WAIT);
      },
      identityGivenUp: () => identity.givenUp,
      identityTokenRefused: (reason) => tokens.onRefused(reason),
    },
  });
  const { connection } = link;
  const router = new InboundRouter({
    ...ctx,
    outbox: deps.outbox,
    receipts: deps.receipts,
    decode: (data) => link.decode(data),
    markFailed: deps.markFailed,
  });
  const stateChanged = (change: { newState: ConnectionState; oldState: ConnectionState }): void => {
    ctx.events.emit('state', change);
    const following = tabs?.role === 'follower';
    const open = change.newState === 'open';
    // a follower calls with the leader's key session: the leader's open socket counts as welcomed (as for its history)
    if (following) connection.store.setState({ state: change.newState, loggedIn: open, welcomed: open, failed: change.newState === 'failed' });
    // Pending messages fail only when no attempt is coming (a terminal close, a policy that gave up).
    if (change.newState === 'failed' && !following && connection.halted) deps.halted();
  };
  tabs = attachTabs(
    {
      connection,
      events: deps.clientEvents,
      scope: () => ({ clientId: identifying ? `${ctx.clientId()}#identify` : ctx.clientId(), connectData: ctx.connectData() }),
      followIdentity: (change) =>
        void deps.followIdentity(change).then(
          () => ctx.events.emit('identity', change),
          (e: unknown) => ctx.reportError(e, 'connect'),
        ),
      writeOwn: (message) => link.send(message),
      deliver: (message, encrypted) => {
        if (message.type === MessageType.Welcome) welcomed(message, false); // the leader's claim, kept here too
        router.handleMessage(message, encrypted);
      },
      loggedIn: deps.loggedIn,
      catchUpMessage: () => serviceStateMessage(ctx.session.getState()),
      keySession: () => link.keys.token,
      welcomed: () => deps.store.getState().welcomed,
      identityToken: () => tokens.current,
      adoptIdentityToken: (token) => tokens.adopt(token),
      adoptUserId: (userId) => {
        router.adoptUserId(userId);
        connection.store.setState({ userId });
      },
      stateChanged,
      lifecycle: document,
      timers: ctx.timers,
      reportError: (error) => ctx.reportError(error, 'socket'),
    },
    options.tabs,
    network !== null,
  );
  connection.on('frame', ({ data }) => router.handleFrame(data));
  connection.on('error', ({ error, source }) => ctx.reportError(error, source));
  connection.on('network', ({ online }) => ctx.events.emit('network', { online }));
  const { heartbeatInterval, livenessTimeout } = ctx.limits;
  const lifecycle = new PageLifecycle({ window: network, document, timers: ctx.timers, connection, heartbeatInterval, livenessTimeout });
  const attached = tabs;
  return {
    link,
    tabs: attached,
    router,
    identityTokens: tokens,
    callReady: (path, opts, welcomed) =>
      connection.store.getState().failed ? undefined : welcomeBeforeCall(path, opts, welcomed, ctx.timers, ctx.limits.requestTimeout),
    setIdentifying(on) {
      identifying = on;
    },
    destroy() {
      if (mergedWait !== null) ctx.timers.clearTimeout(mergedWait);
      tokens.destroy();
      lifecycle.destroy();
      attached.destroy();
      connection.destroy();
    },
  };
}
