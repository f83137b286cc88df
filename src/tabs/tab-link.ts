/**
 * One socket per visitor per browser: the {@link TabLink} sits between a client and its socket.
 * The tabs of one identity elect a leader ({@link LeaderElection}); the leader opens its socket
 * and shares it over a {@link TabChannel}; the followers open none: what they send goes to the
 * leader, which writes it with the same `fp`; what the leader receives (decoded) reaches every
 * tab; the followers' connection state mirrors the leader's. When the leader's tab closes, the
 * browser grants the lock to a follower at once, which opens its own socket; the others resend
 * their pending messages when it is logged in (the server keeps one message per `fp`). Where Web
 * Locks or `BroadcastChannel` is missing, or coordination is off, the role is `solo`: the client
 * uses its own socket, exactly as without this module. See `docs/tabs.md`.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { ConnectionState, IdentityChange, ImClientEvents } from '../events.js';
import type { ChatMessage } from '../messages/types.js';
import { lazy } from '../lazy.js';
import type { ListenerTarget, TimerProvider } from '../timers.js';
import type { LockManagerLike, TabRole } from './leader-election.js';
import type { BroadcastChannelConstructor, SharedKeySession } from './tab-channel.js';

import type { TabCoordinator } from './coordination.js';

/** The coordination (election, channel, leader and follower) loads with the first coordinated connect. */
const loadCoordination = lazy(() => import('./coordination.js'));

export type { TabRole, LockManagerLike } from './leader-election.js';
export type { BroadcastChannelConstructor, BroadcastChannelLike, SharedKeySession } from './tab-channel.js';

/** Options of the tab coordination (`tabs` option of the client). */
export interface TabOptions {
  /** The Web Locks manager; defaults to `navigator.locks`. `null`: none (role `solo`). */
  locks?: LockManagerLike | null;
  /** The `BroadcastChannel` constructor; defaults to the global one. `null`: none (role `solo`). */
  BroadcastChannel?: BroadcastChannelConstructor | null;
  /** Prefix of the lock and channel names (default `kefu-im`). */
  prefix?: string;
  /** This tab's id on the channel (default: random). */
  tabId?: string;
  /**
   * A follower that has not heard from the leader for this long, ms (default 10 000), uses its own
   * socket until the leader answers again: a leader tab frozen or hung while holding the lock must
   * not strand the others. Followers ask every `leaderTimeout / 2.5` ms.
   */
  leaderTimeout?: number;
}

/** The client's own connection as the link drives and watches it. */
export interface TabConnection {
  /** The own connection's state. */
  readonly state: ConnectionState;
  /** Opens the own socket. */
  connect(): void;
  /** Closes the own socket. */
  close(): void;
  /** Listens to state changes. */
  on(event: 'state', listener: (ctx: { newState: ConnectionState; oldState: ConnectionState }) => void): unknown;
  /** Listens to opens of the own socket. */
  on(event: 'open', listener: (ctx: { reconnected: boolean }) => void): unknown;
  /** Removes a state listener. */
  off(event: 'state', listener: (ctx: { newState: ConnectionState; oldState: ConnectionState }) => void): unknown;
  /** Removes an open listener. */
  off(event: 'open', listener: (ctx: { reconnected: boolean }) => void): unknown;
}

/** The client events the leader forwards to the followers: `socket message` and `user`. */
export type TabEvents = Pick<EventEmitter<ImClientEvents>, 'on' | 'off'>;

/** What the link needs from the client: the seam between the two. */
export interface TabHost {
  /** The client's own connection (used when leader or solo). */
  connection: TabConnection;
  /** The client's events: the leader forwards `socket message` and `user` to the followers. */
  events: TabEvents;
  /** The identity that scopes the lock and channel, read at every {@link TabLink.connect}. */
  scope(): { clientId: string; connectData: Readonly<Record<string, unknown>> };
  /** Encodes a message with the own key session and writes it on the own socket; false when not open. */
  writeOwn(message: ChatMessage): boolean;
  /** Follower: a decoded message from the leader's socket, to handle as if it came on the own socket. */
  deliver(message: ChatMessage, encrypted: boolean): void;
  /**
   * A socket this tab uses opened: its own (leader, solo) or the leader's (follower). Resend what
   * is pending, and catch up when `reconnected` (a socket was open for this tab before, its own
   * or a former leader's).
   */
  loggedIn(reconnected: boolean): void;
  /** The own key session, once loaded (a leader shares it with its followers for their HTTP calls). */
  keySession(): SharedKeySession | null;
  /** Follower: the user id the server gave the leader (the same identity). */
  adoptUserId(userId: string): void;
  /**
   * Whether the own socket's connect was welcomed since it opened (protocol §4: type 60). The
   * server binds the key session to the identity when it accepts the connect, so a follower calls
   * with the leader's key session only from then on. Absent: an open socket counts as welcomed.
   */
  welcomed?(): boolean;
  /** Leader: the identity token its connect sent (protocol §3b), shared with the followers; null when none. */
  identityToken?(): string | null;
  /** Follower: the leader's identity token, for a connect of its own if it leads later. */
  adoptIdentityToken?(token: string): void;
  /** The effective connection state (own, or the leader's when following) changed. */
  stateChanged(ctx: { newState: ConnectionState; oldState: ConnectionState }): void;
  /** The role changed. */
  roleChanged?(role: TabRole): void;
  /**
   * Leader: a message that tells a tab joining now what it missed before it joined (the service
   * state: robot, queued, which agent serves), sent to the followers after a `hello`.
   */
  catchUpMessage?(): ChatMessage | null;
  /**
   * The document, for the Page Lifecycle `freeze` and `resume` events: a tab about to be frozen
   * leaves the election (a frozen leader, or a frozen tab granted the lock, would strand the
   * others) and enters it again when resumed. Null or absent: not followed.
   */
  lifecycle?: ListenerTarget | null;
  /**
   * Another tab switched this tab's visitor to `clientId` (`reset()`, `identify()`, a refused id,
   * told over the origin's identity channel): forget the conversation and follow.
   */
  followIdentity?(ctx: { change: IdentityChange; clientId: string }): void;
  /** The client's timers (the followers' probe of the leader). */
  timers: TimerProvider;
  /** Reports a failure of the lock manager or the channel (never thrown). */
  reportError(error: Error): void;
}

/** The resolved coordination: both APIs and the names. @internal */
export interface TabApis {
  locks: LockManagerLike;
  Channel: BroadcastChannelConstructor;
  prefix: string;
  tabId: string;
  leaderTimeout: number;
}

/**
 * Picks the APIs for the `tabs` option: `false` is off; `true` or options use what is given,
 * else the globals; `undefined` (the default) is on only in a browser (`inBrowser`) that has both
 * `navigator.locks` and `BroadcastChannel`. Returns null when off or when either API is missing.
 * @param option - the client's `tabs` option
 * @param inBrowser - whether the client runs in a page (it has a window)
 */
export function resolveTabOptions(option: boolean | TabOptions | undefined, inBrowser: boolean): TabApis | null {
  if (option === false || (option === undefined && !inBrowser)) return null;
  const given: TabOptions = typeof option === 'object' && option !== null ? option : {};
  const g = globalThis as { navigator?: { locks?: LockManagerLike }; BroadcastChannel?: BroadcastChannelConstructor };
  const locks = given.locks === undefined ? g.navigator?.locks : given.locks;
  const Channel = given.BroadcastChannel === undefined ? g.BroadcastChannel : given.BroadcastChannel;
  if (!locks || typeof locks.request !== 'function' || typeof Channel !== 'function') return null;
  const leaderTimeout = given.leaderTimeout !== undefined && given.leaderTimeout > 0 ? given.leaderTimeout : 10_000;
  return { locks, Channel, prefix: given.prefix ?? 'kefu-im', tabId: given.tabId ?? randomTabId(), leaderTimeout };
}

function randomTabId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID?.() ?? `tab-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
}

/**
 * Attaches tab coordination to a client. The client then calls the link instead of its
 * connection: {@link TabLink.connect}, {@link TabLink.disconnect}, {@link TabLink.send},
 * {@link TabLink.state}, {@link TabLink.destroy}.
 * @param host - what the link needs from the client
 * @param option - the client's `tabs` option
 * @param inBrowser - whether the client runs in a page (the default is on only there)
 */
export function attachTabs(host: TabHost, option: boolean | TabOptions | undefined, inBrowser: boolean): TabLink {
  return new TabLink(host, resolveTabOptions(option, inBrowser));
}

/**
 * A client's link to its socket, shared with its other tabs. Without coordination (option off,
 * an API missing) it passes everything to the own connection. With it, the first
 * {@link TabLink.connect} loads the coordination (a small lazy chunk) and enters the election
 * under the identity's name; {@link TabLink.disconnect} leaves it.
 */
export class TabLink {
  private coordinator: TabCoordinator | null = null;
  private loading = false;
  private wanted = false;
  private destroyed = false;
  private reported: ConnectionState;

  /**
   * @param host - what the link needs from the client
   * @param apis - the APIs, or null for solo
   */
  constructor(
    private readonly host: TabHost,
    private apis: TabApis | null,
  ) {
    this.reported = host.connection.state;
    host.connection.on('state', this.onOwnState);
    host.connection.on('open', this.onOwnOpen);
    // The election's code loads with the socket code (during start-up), not at the first connect:
    // on a slow phone each chunk loaded in a chain costs a round trip and a compile. A failed
    // load is forgotten: connect() loads again.
    if (apis) loadCoordination().catch(() => undefined);
  }

  /** The role: `solo` until elected (and always without coordination). */
  get role(): TabRole {
    return this.coordinator?.role ?? 'solo';
  }

  /** The lock and channel name in use ('' when not coordinating). */
  get name(): string {
    return this.coordinator?.name ?? '';
  }

  /** The client id whose election this tab is in ('' when in none, and without coordination). */
  get enteredAs(): string {
    return this.coordinator?.enteredAs ?? '';
  }

  /** The effective connection state: the own connection's, or the leader's when following. */
  get state(): ConnectionState {
    if (this.coordinator) return this.coordinator.state;
    return this.apis && this.wanted ? 'connecting' : this.host.connection.state;
  }

  /**
   * The key session to make HTTP calls with: the leader's when following (its session is bound
   * to the identity by its socket), else null (use the own).
   */
  get sharedKeySession(): SharedKeySession | null {
    return this.coordinator?.sharedKeySession ?? null;
  }

  /** True when {@link TabLink.send} can write now (own socket open, or the leader's when following). */
  get isOpen(): boolean {
    return this.state === 'open';
  }

  /**
   * The client's `connect()`: enters the election under the identity's name (re-entering it when
   * the identity changed), then connects the own socket unless it follows another tab.
   */
  connect(): void {
    if (this.destroyed) return;
    if (this.coordinator) return this.coordinator.connect();
    if (!this.apis) return this.host.connection.connect();
    this.wanted = true;
    this.report();
    if (this.loading) return;
    this.loading = true;
    loadCoordination().then(
      ({ TabCoordinator }) => {
        if (this.destroyed || !this.apis) return;
        this.stopListening();
        this.coordinator = new TabCoordinator(this.host, this.apis, this.reported);
        if (this.wanted) this.coordinator.connect();
      },
      (error: unknown) => {
        this.host.reportError(error instanceof Error ? error : new Error(String(error)));
        this.apis = null; // one socket per tab, as without coordination
        if (this.destroyed) return;
        this.report();
        if (this.wanted) this.host.connection.connect();
      },
    );
  }

  /** The client's `disconnect()`: closes the own socket and leaves the election (the next tab leads). */
  disconnect(): void {
    if (this.coordinator) return this.coordinator.disconnect();
    this.wanted = false;
    this.host.connection.close();
    this.report();
  }

  /**
   * Writes a message: on the own socket (leader, solo) or through the leader (follower).
   * @returns false when no socket is open for it now (it is then the outbox's to resend)
   */
  send(message: ChatMessage): boolean {
    return this.coordinator ? this.coordinator.send(message) : this.host.writeOwn(message);
  }

  /**
   * Tells the other tabs that this tab's visitor `previous` is now `clientId`, so that the tabs of
   * `previous` follow. Nothing without coordination (no other tab shares the visitor then).
   */
  announceIdentity(change: IdentityChange, previous: string, clientId: string): void {
    this.coordinator?.announceIdentity(change, previous, clientId);
  }

  /** The own socket was welcomed: a leader tells its followers that its socket is in use now. */
  welcomed(): void {
    this.coordinator?.welcomed();
  }

  /** Resigns (the next tab leads at once) and removes every listener. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.stopListening();
    this.coordinator?.destroy();
  }

  private stopListening(): void {
    this.host.connection.off('state', this.onOwnState);
    this.host.connection.off('open', this.onOwnOpen);
  }

  private readonly onOwnState = (): void => this.report();

  private readonly onOwnOpen = ({ reconnected }: { reconnected: boolean }): void => this.host.loggedIn(reconnected);

  private report(): void {
    const newState = this.state;
    const oldState = this.reported;
    if (this.destroyed || newState === oldState) return;
    this.reported = newState;
    this.host.stateChanged({ newState, oldState });
  }
}
