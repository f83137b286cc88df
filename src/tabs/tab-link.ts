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
import type { ConnectionState, ImClientEvents } from '../events.js';
import type { ChatMessage } from '../messages/types.js';
import { LeaderElection, type LockManagerLike, type TabRole } from './leader-election.js';
import { TabChannel, tabScopeName, type BroadcastChannelConstructor, type LeaderSnapshot, type SharedKeySession, type TabMessage } from './tab-channel.js';

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
  /** The effective connection state (own, or the leader's when following) changed. */
  stateChanged(ctx: { newState: ConnectionState; oldState: ConnectionState }): void;
  /** The role changed. */
  roleChanged?(role: TabRole): void;
  /** Reports a failure of the lock manager or the channel (never thrown). */
  reportError(error: Error): void;
}

/** The resolved coordination: both APIs, or none (`solo`). @internal */
interface Resolved {
  locks: LockManagerLike;
  Channel: BroadcastChannelConstructor;
  prefix: string;
  tabId: string;
}

/**
 * Picks the APIs for the `tabs` option: `false` is off; `true` or options use what is given,
 * else the globals; `undefined` (the default) is on only in a browser (`inBrowser`) that has both
 * `navigator.locks` and `BroadcastChannel`. Returns null when off or when either API is missing.
 * @param option - the client's `tabs` option
 * @param inBrowser - whether the client runs in a page (it has a window)
 */
export function resolveTabOptions(option: boolean | TabOptions | undefined, inBrowser: boolean): Resolved | null {
  if (option === false || (option === undefined && !inBrowser)) return null;
  const given: TabOptions = typeof option === 'object' && option !== null ? option : {};
  const g = globalThis as { navigator?: { locks?: LockManagerLike }; BroadcastChannel?: BroadcastChannelConstructor };
  const locks = given.locks === undefined ? g.navigator?.locks : given.locks;
  const Channel = given.BroadcastChannel === undefined ? g.BroadcastChannel : given.BroadcastChannel;
  if (!locks || typeof locks.request !== 'function' || typeof Channel !== 'function') return null;
  return { locks, Channel, prefix: given.prefix ?? 'kefu-im', tabId: given.tabId ?? randomTabId() };
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
 * A client's link to its socket, shared with its other tabs. Solo until the first
 * {@link TabLink.connect}, which enters the election; {@link TabLink.disconnect} leaves it (a tab
 * that wants no socket never holds the lock).
 */
export class TabLink {
  private currentRole: TabRole | null = null;
  private election: LeaderElection | null = null;
  private channel: TabChannel | null = null;
  private scopeName = '';
  private wanted = false;
  private destroyed = false;
  /** Follower: the leader's last snapshot (null until the first one). */
  private leader: LeaderSnapshot | null = null;
  /** Whether a socket (own or a leader's) was logged in for this tab before: a later login is a reconnect. */
  private loggedInBefore = false;
  private reported: ConnectionState;
  /** The user id of the own socket (the leader's snapshot carries it). */
  private ownUserId: string | undefined;

  /**
   * @param host - what the link needs from the client
   * @param resolved - the APIs, or null for solo
   */
  constructor(
    private readonly host: TabHost,
    private readonly resolved: Resolved | null,
  ) {
    this.reported = host.connection.state;
    host.connection.on('state', this.onOwnState);
    host.connection.on('open', this.onOwnOpen);
    host.events.on('socket message', this.onOwnMessage);
    host.events.on('user', this.onOwnUser);
  }

  /** The role: `solo` until elected (and always without coordination). */
  get role(): TabRole {
    return this.currentRole ?? 'solo';
  }

  /** The lock and channel name in use ('' when not coordinating). */
  get name(): string {
    return this.scopeName;
  }

  /** The effective connection state: the own connection's, or the leader's when following. */
  get state(): ConnectionState {
    if (this.currentRole === 'leader' || this.currentRole === 'solo' || !this.election) return this.host.connection.state;
    if (!this.wanted) return 'closed';
    return this.leader?.state ?? 'connecting';
  }

  /**
   * The key session to make HTTP calls with: the leader's when following (its session is bound
   * to the identity by its socket), else null (use the own).
   */
  get sharedKeySession(): SharedKeySession | null {
    return this.currentRole === 'follower' ? (this.leader?.keySession ?? null) : null;
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
    this.wanted = true;
    if (!this.resolved) return this.host.connection.connect();
    const { clientId, connectData } = this.host.scope();
    const name = tabScopeName(this.resolved.prefix, clientId, connectData);
    if (this.election && name !== this.scopeName) this.leave();
    if (!this.election) return this.enter(name, this.resolved);
    if (this.currentRole === 'leader' || this.currentRole === 'solo') this.host.connection.connect();
    else this.update();
  }

  /** The client's `disconnect()`: closes the own socket and leaves the election (the next tab leads). */
  disconnect(): void {
    this.wanted = false;
    this.host.connection.close();
    this.leave();
  }

  /**
   * Writes a message: on the own socket (leader, solo) or through the leader (follower).
   * @returns false when no socket is open for it now (it is then the outbox's to resend)
   */
  send(message: ChatMessage): boolean {
    if (this.currentRole !== 'follower') return this.host.writeOwn(message);
    if (!this.isOpen || !this.channel) return false;
    return this.channel.post({ kind: 'send', from: this.tabId, message });
  }

  /** Resigns (the next tab leads at once) and removes every listener. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.leave();
    const { connection, events } = this.host;
    connection.off('state', this.onOwnState);
    connection.off('open', this.onOwnOpen);
    events.off('socket message', this.onOwnMessage);
    events.off('user', this.onOwnUser);
  }

  private get tabId(): string {
    return this.resolved?.tabId ?? '';
  }

  private enter(name: string, resolved: Resolved): void {
    this.scopeName = name;
    this.channel = new TabChannel(name, resolved.Channel, (m) => this.onTabMessage(m), (e) => this.host.reportError(e));
    const election = new LeaderElection({
      name,
      locks: resolved.locks,
      onRole: (role) => {
        if (this.election === election) this.setRole(role);
      },
      onError: (e) => this.host.reportError(e),
    });
    this.election = election;
    this.update();
    election.start();
  }

  /** Leaves the election and the channel (a leader says bye first). */
  private leave(): void {
    if (this.currentRole === 'leader') this.channel?.post({ kind: 'bye', from: this.tabId });
    this.election?.destroy();
    this.election = null;
    this.channel?.close();
    this.channel = null;
    this.scopeName = '';
    this.leader = null;
    this.setRole(null);
  }

  private setRole(role: TabRole | null): void {
    if (this.currentRole === role) return;
    const was = this.currentRole;
    this.currentRole = role;
    if (role === 'follower') {
      this.channel?.post({ kind: 'hello', from: this.tabId });
    } else if (role === 'leader' || role === 'solo') {
      this.leader = null;
      if (this.wanted) this.host.connection.connect();
      if (role === 'leader') this.broadcastSnapshot();
    }
    this.update();
    if ((was ?? 'solo') !== this.role && !this.destroyed) this.host.roleChanged?.(this.role);
  }

  private onTabMessage(m: TabMessage): void {
    if (this.destroyed) return;
    if (this.currentRole === 'leader') {
      if (m.kind === 'hello') this.broadcastSnapshot();
      else if (m.kind === 'send') this.host.writeOwn(m.message);
      return;
    }
    if (this.currentRole !== 'follower' && this.currentRole !== null) return;
    switch (m.kind) {
      case 'snapshot': {
        const wasOpen = this.leader?.state === 'open';
        this.leader = m.snapshot;
        if (!this.wanted) return;
        if (m.snapshot.userId) this.host.adoptUserId(m.snapshot.userId);
        this.update();
        if (wasOpen || m.snapshot.state !== 'open' || this.currentRole !== 'follower') return;
        // The leader's socket is (newly) open: resend what is pending, catch up after a gap.
        const reconnected = this.loggedInBefore;
        this.loggedInBefore = true;
        this.host.loggedIn(reconnected);
        return;
      }
      case 'bye':
        if (this.leader) this.leader = { ...this.leader, state: 'reconnecting' };
        this.update();
        return;
      case 'inbound':
        if (this.currentRole === 'follower' && this.wanted) this.host.deliver(m.message, m.encrypted);
        return;
      default:
    }
  }

  private broadcastSnapshot(): void {
    if (this.currentRole !== 'leader') return;
    const userId = this.ownUserId;
    const keySession = this.host.connection.state === 'open' ? this.host.keySession() : null;
    const snapshot: LeaderSnapshot = { state: this.host.connection.state, ...(userId ? { userId } : {}), ...(keySession ? { keySession } : {}) };
    this.channel?.post({ kind: 'snapshot', from: this.tabId, snapshot });
  }

  private readonly onOwnState = (): void => {
    this.broadcastSnapshot();
    this.update();
  };

  private readonly onOwnOpen = ({ reconnected }: { reconnected: boolean }): void => {
    if (this.currentRole === 'follower') return;
    const again = reconnected || this.loggedInBefore;
    this.loggedInBefore = true;
    this.host.loggedIn(again);
  };

  private readonly onOwnMessage = ({ message, encrypted }: { message: ChatMessage; encrypted: boolean }): void => {
    if (this.currentRole === 'leader') this.channel?.post({ kind: 'inbound', from: this.tabId, message, encrypted });
  };

  private readonly onOwnUser = ({ userId }: { userId: string }): void => {
    if (this.currentRole === 'follower') return; // adopted from the leader
    this.ownUserId = userId;
    this.broadcastSnapshot();
  };

  /** Tells the host when the effective state changed. */
  private update(): void {
    if (this.destroyed) return;
    const newState = this.state;
    const oldState = this.reported;
    if (newState === oldState) return;
    this.reported = newState;
    this.host.stateChanged({ newState, oldState });
  }
}
