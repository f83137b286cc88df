/**
 * A fake client for the tab link's tests: the {@link TabHost} of one tab (its own connection
 * driven by the test, a log of what the link told it), tabs of one fake browser (Web Locks,
 * `BroadcastChannel`, one clock), and the usual set-ups (two tabs; the leader gone with a third).
 * @module
 * @internal
 */
import { EventEmitter } from 'eventemitter3';
import type { ConnectionState, ImClientEvents } from '../events.js';
import type { ChatMessage } from '../messages/types.js';
import { attachTabs, type TabHost, type TabOptions, type TabRole } from './tab-link.js';
import { createFakeChannels, FakeLockManager, flushTabs, manualTimers, type FakeChannels, type ManualTimers } from './tabs.fixture.js';

/** The client's own connection, driven by the test. */
export class FakeConnection extends EventEmitter<{
  state: (ctx: { newState: ConnectionState; oldState: ConnectionState }) => void;
  open: (ctx: { reconnected: boolean }) => void;
}> {
  private opened = false;
  state: ConnectionState = 'closed';
  connects = 0;
  connect(): void {
    this.connects++;
    if (this.state === 'closed' || this.state === 'failed') this.set('connecting');
  }
  close(): void {
    this.set('closed');
  }
  set(newState: ConnectionState): void {
    const oldState = this.state;
    if (oldState === newState) return;
    this.state = newState;
    this.emit('state', { newState, oldState });
    if (newState === 'open') {
      this.emit('open', { reconnected: this.opened });
      this.opened = true;
    }
  }
}

/** The document's Page Lifecycle events, counting its listeners. */
export class CountingTarget extends EventTarget {
  listeners = 0;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    this.listeners++;
    super.addEventListener(type, listener);
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    this.listeners--;
    super.removeEventListener(type, listener);
  }
}

/** One fake browser: its locks, channels and clock. */
export interface Browser {
  locks: FakeLockManager;
  channels: FakeChannels;
  /** One clock for the whole browser (each tab's timers). */
  timers: ManualTimers;
}

/** A fresh fake browser. */
export function browser(): Browser {
  return { locks: new FakeLockManager(), channels: createFakeChannels(), timers: manualTimers() };
}

let tabCount = 0;

/** What a fake host may add: its welcome state and its identity token (protocol §3b). */
export interface HostExtras {
  welcomed?: () => boolean;
  identityToken?: () => string | null;
}

/** A tab of `b`: its link, its own connection and the log of what the link told the host. */
export function tab(b: Browser, identity: { clientId?: string; mchId?: string } = {}, option?: boolean | TabOptions, catchUp?: ChatMessage, extras: HostExtras = {}) {
  const connection = new FakeConnection();
  const page = new CountingTarget();
  const events = new EventEmitter<ImClientEvents>();
  const log = {
    written: [] as ChatMessage[],
    delivered: [] as ChatMessage[],
    logins: [] as boolean[],
    states: [] as ConnectionState[],
    users: [] as string[],
    tokens: [] as string[],
    roles: [] as TabRole[],
    errors: [] as Error[],
  };
  const scope = { clientId: identity.clientId ?? 'uuid-1', connectData: { mchId: identity.mchId ?? 'M1001', platformId: 'P01' } as Record<string, unknown> };
  const host: TabHost = {
    connection,
    events,
    scope: () => scope,
    keySession: () => ({ saltKey: `salt-of-${scope.clientId}`, userKey: 'k'.repeat(32) }),
    writeOwn: (m) => {
      if (connection.state !== 'open') return false;
      log.written.push(m);
      return true;
    },
    deliver: (m) => log.delivered.push(m),
    loggedIn: (r) => log.logins.push(r),
    adoptUserId: (u) => log.users.push(u),
    adoptIdentityToken: (t) => log.tokens.push(t),
    ...extras,
    stateChanged: ({ newState }) => log.states.push(newState),
    roleChanged: (r) => log.roles.push(r),
    lifecycle: page,
    timers: b.timers,
    reportError: (e) => log.errors.push(e),
    ...(catchUp ? { catchUpMessage: () => catchUp } : {}),
  };
  const tabId = `tab-${++tabCount}`;
  const link = attachTabs(host, option ?? { locks: b.locks, BroadcastChannel: b.channels.BroadcastChannel, tabId }, true);
  return { link, connection, events, log, scope, page };
}

/** A text message. */
export const text = (fp: string, dataContent = 'hi'): ChatMessage => ({ type: 100, fp, from: 'U1', to: 'A1', dataContent });

/** Two tabs of one visitor: the first leads with its socket open. */
export async function twoTabs() {
  const b = browser();
  const leader = tab(b);
  leader.link.connect();
  await flushTabs();
  leader.connection.set('open');
  const follower = tab(b);
  follower.link.connect();
  await flushTabs();
  return { b, leader, follower };
}

/** Two tabs and a third follower; the leader tab closes, so that the first follower takes over. */
export async function leaderGoneWithThird() {
  const { b, leader, follower } = await twoTabs();
  const third = tab(b);
  third.link.connect();
  await flushTabs();
  leader.link.destroy();
  await flushTabs();
  return { b, follower, third };
}

