/**
 * The body of the tab coordination, loaded at the first `connect()` of a page that coordinates (a
 * lazy chunk: Node, and pages without Web Locks or `BroadcastChannel`, never load it). See
 * `tab-link.ts` for the design and `docs/tabs.md`.
 * @module
 * @internal
 */
import type { ConnectionState, IdentityChange } from '../events.js';
import type { ChatMessage } from '../messages/types.js';
import { LeaderElection, type TabRole } from './leader-election.js';
import { identityChannelName, TabChannel, tabScopeName, type LeaderSnapshot, type SharedKeySession, type TabMessage } from './tab-channel.js';
import type { TabApis, TabHost } from './tab-link.js';
import { Disposables, type Disposer } from '../timers.js';

/**
 * The coordination of one client with its other tabs (the body of a `TabLink` in a page
 * that coordinates). Its first {@link TabCoordinator.connect} enters the election;
 * {@link TabCoordinator.disconnect} leaves it (a tab that wants no socket never holds the lock).
 * @internal
 */
export class TabCoordinator {
  private currentRole: TabRole | null = null;
  private election: LeaderElection | null = null;
  private channel: TabChannel | null = null;
  private scopeName = '';
  /** The client id of the election entered ('' when in none). */
  private scopeClientId = '';
  private wanted = false;
  private destroyed = false;
  /** Follower: the leader's last snapshot (null until the first one). */
  private leader: LeaderSnapshot | null = null;
  /** Whether a socket (own or a leader's) was logged in for this tab before: a later login is a reconnect. */
  private loggedInBefore = false;
  private reported: ConnectionState;
  /** The user id of the own socket (the leader's snapshot carries it). */
  private ownUserId: string | undefined;
  /** Left the election for a Page Lifecycle freeze; enters again on resume. */
  private frozen = false;
  /** A follower whose leader went silent uses its own socket (role `solo`) until the leader answers. */
  private fallback = false;
  /**
   * Leader: whether another tab may follow it: one said `hello` or sent through it since this tab
   * leads, or this tab took over from following. Until then the leader posts no `inbound`
   * messages: a lone tab (the usual case) would pay a `postMessage` (a structured clone and an
   * IPC to the browser) per frame for nobody.
   */
  private othersKnown = false;
  /** When the leader was last heard from (a follower's probe). */
  private lastHeard = 0;
  private stopProbe: Disposer | null = null;
  private readonly disposables: Disposables;
  /** The origin's identity channel (open for the coordinator's life, whatever the visitor). */
  private readonly identityChannel: TabChannel;

  /**
   * @param host - what the link needs from the client
   * @param resolved - the APIs
   * @param reported - the state the client last reported
   */
  constructor(
    private readonly host: TabHost,
    private readonly resolved: TabApis,
    reported: ConnectionState,
  ) {
    this.reported = reported;
    this.disposables = new Disposables(host.timers);
    host.connection.on('state', this.onOwnState);
    host.connection.on('open', this.onOwnOpen);
    host.events.on('socket message', this.onOwnMessage);
    host.events.on('user', this.onOwnUser);
    host.lifecycle?.addEventListener('freeze', this.onFreeze);
    host.lifecycle?.addEventListener('resume', this.onResume);
    this.identityChannel = new TabChannel(identityChannelName(resolved.prefix), resolved.Channel, this.onIdentity, (e) => host.reportError(e));
  }

  /** The role: `solo` until elected (and always without coordination). */
  get role(): TabRole {
    return this.currentRole ?? 'solo';
  }

  /** The lock and channel name in use ('' when not coordinating). */
  get name(): string {
    return this.scopeName;
  }

  /** The client id whose election this tab is in ('' when in none). */
  get enteredAs(): string {
    return this.scopeClientId;
  }

  /** The effective connection state: the own connection's, or the leader's when following. */
  get state(): ConnectionState {
    const role = this.currentRole;
    if (role === 'leader' || role === 'solo') return this.host.connection.state;
    if (!this.wanted) return role === null ? this.host.connection.state : 'closed';
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
    const { clientId, connectData } = this.host.scope();
    const name = tabScopeName(this.resolved.prefix, clientId, connectData);
    if (this.election && name !== this.scopeName) this.leave();
    if (!this.election) return this.enter(name, clientId);
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

  /**
   * Tells the other tabs that the visitor `previous` is now `clientId` (`reset()`, `identify()`,
   * a refused id): the tabs of `previous` follow (see {@link TabHost.followIdentity}).
   */
  announceIdentity(change: IdentityChange, previous: string, clientId: string): void {
    if (previous !== clientId) this.identityChannel.post({ kind: 'identity', from: this.tabId, change, previous, clientId });
  }

  /** The own socket was welcomed: a leader's followers may use it (and its key session) from now on. */
  welcomed(): void {
    this.broadcastSnapshot();
  }

  /** Resigns (the next tab leads at once) and removes every listener. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.identityChannel.close();
    this.leave();
    const { connection, events } = this.host;
    connection.off('state', this.onOwnState);
    connection.off('open', this.onOwnOpen);
    events.off('socket message', this.onOwnMessage);
    events.off('user', this.onOwnUser);
    this.host.lifecycle?.removeEventListener('freeze', this.onFreeze);
    this.host.lifecycle?.removeEventListener('resume', this.onResume);
    this.disposables.dispose();
  }

  private get tabId(): string {
    return this.resolved.tabId;
  }

  private enter(name: string, clientId: string): void {
    const resolved = this.resolved;
    this.scopeName = name;
    this.scopeClientId = clientId;
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
    this.scopeClientId = '';
    this.leader = null;
    this.fallback = false;
    this.setRole(null);
  }

  private setRole(role: TabRole | null): void {
    if (this.currentRole === role) return;
    const was = this.currentRole;
    this.currentRole = role;
    // a tab that took over from following (or its fallback) knows of others; a new leader learns of them from their hello
    this.othersKnown = role === 'leader' && (was === 'follower' || this.fallback);
    if (role === 'leader') this.fallback = false;
    if (role === 'follower') this.startProbe();
    else this.endProbe();
    if (role === 'follower') {
      // a tab that entered with its own socket open (welcomed under a new id) uses the leader's now
      if (this.host.connection.state !== 'closed') this.host.connection.close();
      this.channel?.post({ kind: 'hello', from: this.tabId });
    } else if (role === 'leader' || role === 'solo') {
      this.leader = null;
      if (this.wanted) this.host.connection.connect();
      if (role === 'leader') this.broadcastSnapshot(!this.othersKnown);
    }
    this.update();
    if ((was ?? 'solo') !== this.role && !this.destroyed) this.host.roleChanged?.(this.role);
  }

  private onTabMessage(m: TabMessage): void {
    if (this.destroyed) return;
    if (this.currentRole === 'leader') {
      if (m.kind === 'hello' || m.kind === 'send') this.othersKnown = true;
      if (m.kind === 'hello') {
        this.broadcastSnapshot();
        const catchUp = this.host.connection.state === 'open' ? this.host.catchUpMessage?.() : null;
        if (catchUp) this.channel?.post({ kind: 'inbound', from: this.tabId, message: catchUp, encrypted: false });
      }
      else if (m.kind === 'send') this.host.writeOwn(m.message);
      return;
    }
    if (m.kind === 'snapshot' || m.kind === 'inbound') this.lastHeard = this.host.timers.now();
    if (this.fallback && m.kind === 'snapshot') this.endFallback();
    if (this.currentRole !== 'follower' && this.currentRole !== null) return;
    switch (m.kind) {
      case 'snapshot': {
        // A tab that has just taken the lead may have missed this tab's hello (sent before it led):
        // it asks, and forwards inbound messages only to tabs it has heard from.
        if (m.greet && this.currentRole === 'follower') this.channel?.post({ kind: 'hello', from: this.tabId });
        const wasOpen = this.leader?.state === 'open';
        this.leader = m.snapshot;
        if (!this.wanted) return;
        if (m.snapshot.userId) this.host.adoptUserId(m.snapshot.userId);
        if (m.snapshot.identityToken) this.host.adoptIdentityToken?.(m.snapshot.identityToken);
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

  /** Another tab switched the visitor: a tab of the visitor it left follows. */
  private readonly onIdentity = (m: TabMessage): void => {
    if (m.kind !== 'identity' || this.destroyed || m.previous !== this.host.scope().clientId) return;
    this.host.followIdentity?.({ change: m.change, clientId: m.clientId });
  };

  /** @param greet - ask the followers to say hello (a new leader that knows of none yet) */
  private broadcastSnapshot(greet = false): void {
    if (this.currentRole !== 'leader') return;
    const userId = this.ownUserId;
    // An open socket is the followers' once welcomed: before, the server has not bound its key
    // session (a follower's call with it would be refused), and a refused connect never is.
    const own = this.host.connection.state;
    const open = own === 'open' && (this.host.welcomed?.() ?? true);
    const state = own === 'open' && !open ? 'connecting' : own;
    const keySession = open ? this.host.keySession() : null;
    const identityToken = open ? (this.host.identityToken?.() ?? null) : null;
    const snapshot: LeaderSnapshot = { state, ...(userId ? { userId } : {}), ...(keySession ? { keySession } : {}), ...(identityToken ? { identityToken } : {}) };
    this.channel?.post({ kind: 'snapshot', from: this.tabId, snapshot, ...(greet ? { greet } : {}) });
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
    if (this.currentRole === 'leader' && this.othersKnown) this.channel?.post({ kind: 'inbound', from: this.tabId, message, encrypted });
  };

  private readonly onOwnUser = ({ userId }: { userId: string }): void => {
    if (this.currentRole === 'follower') return; // adopted from the leader
    this.ownUserId = userId;
    this.broadcastSnapshot();
  };

  /** A follower asks the leader for a snapshot now and then; a silent leader means the fallback. */
  private startProbe(): void {
    if (this.stopProbe) return;
    this.lastHeard = this.host.timers.now();
    this.stopProbe = this.disposables.interval(() => this.probe(), this.resolved.leaderTimeout / 2.5);
  }

  private endProbe(): void {
    if (this.fallback) return; // keeps asking until the leader answers
    this.stopProbe?.();
    this.stopProbe = null;
  }

  private probe(): void {
    if (this.currentRole === 'follower' && this.host.timers.now() - this.lastHeard >= this.resolved.leaderTimeout) {
      // The leader holds the lock but does not answer (frozen, hung): use the own socket meanwhile.
      this.fallback = true;
      this.setRole('solo');
    }
    this.channel?.post({ kind: 'hello', from: this.tabId });
  }

  /** The leader answers again: close the own socket and follow it. */
  private endFallback(): void {
    this.fallback = false;
    this.setRole('follower');
    this.host.connection.close();
  }

  /** About to be frozen: leave the election (a leader closes its socket first) so another tab leads. */
  private readonly onFreeze = (): void => {
    if (!this.election || this.destroyed) return;
    const leading = this.currentRole === 'leader' || this.fallback; // its own socket is in use
    this.frozen = true;
    if (leading) this.host.connection.close();
    this.leave();
  };

  private readonly onResume = (): void => {
    if (!this.frozen || this.destroyed) return;
    this.frozen = false;
    if (this.wanted) this.connect();
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
