import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../messages/types.js';
import { resolveTabOptions, type TabOptions } from './tab-link.js';
import { browser, CountingTarget, leaderGoneWithThird, tab, text, twoTabs } from './tab-host.fixture.js';
import { createFakeChannels, FakeLockManager, flushTabs } from './tabs.fixture.js';

// The coordination is a lazy chunk: load it once so that the links' own import resolves within a flush.
beforeAll(() => import('./coordination.js'));

describe('one socket per visitor: election', () => {
  it('the first tab leads and opens its socket; the second follows, opens none and mirrors the leader', async () => {
    const { leader, follower } = await twoTabs();
    expect([leader.link.role, follower.link.role]).toEqual(['leader', 'follower']);
    expect(leader.connection.connects).toBe(1);
    expect(follower.connection.connects).toBe(0);
    expect(follower.link.state).toBe('open');
    expect(follower.log.states).toEqual(['connecting', 'open']);
    expect(follower.log.logins).toEqual([false]); // resend what is pending: the leader's socket is open
    expect(leader.log.logins).toEqual([false]);

    leader.connection.set('reconnecting');
    await flushTabs();
    expect(follower.link.state).toBe('reconnecting');
    leader.connection.set('open');
    await flushTabs();
    expect(follower.log.states).toEqual(['connecting', 'open', 'reconnecting', 'open']);
    expect(follower.log.logins).toEqual([false, true]);
  });

  it('a tab is solo, and connects its own socket, until the lock manager answers', () => {
    const b = browser();
    const a = tab(b);
    expect(a.link.role).toBe('solo');
    a.link.connect();
    expect(a.link.state).toBe('connecting');
    expect(a.connection.connects).toBe(0); // not before it knows it leads
  });

  it("a follower adopts the leader's user id, and a tab opened later gets it with the snapshot its hello asks for", async () => {
    const { b, leader, follower } = await twoTabs();
    leader.events.emit('user', { userId: 'U42' });
    await flushTabs();
    expect(follower.log.users).toContain('U42');
    const late = tab(b);
    late.link.connect();
    await flushTabs();
    expect(late.link.role).toBe('follower');
    expect(late.log.users).toEqual(['U42']);
    expect(late.link.state).toBe('open');
  });
});

describe('one socket per visitor: HTTP calls of a follower', () => {
  it("use the leader's key session (bound to the identity by its socket), never their own", async () => {
    const { leader, follower } = await twoTabs();
    expect(follower.link.sharedKeySession).toEqual({ saltKey: 'salt-of-uuid-1', userKey: 'k'.repeat(32) });
    expect(leader.link.sharedKeySession).toBeNull();
    leader.link.destroy();
    await flushTabs();
    expect(follower.link.sharedKeySession).toBeNull(); // it leads now: its own
  });
});

describe('one socket per visitor: a tab that joins later', () => {
  it('hears the service state from the leader (it missed the welcome-time state event)', async () => {
    const b = browser();
    const state: ChatMessage = { type: 300, dataContent: JSON.stringify({ event: 'state', state: 'active', agent: { name: 'Alice' } }) };
    const leader = tab(b, {}, undefined, state);
    leader.link.connect();
    await flushTabs();
    leader.connection.set('open');
    const late = tab(b);
    late.link.connect();
    await flushTabs();
    expect(late.log.delivered).toContainEqual(state);
  });
});

describe('one socket per visitor: sending and receiving', () => {
  it("a follower's send is written on the leader's socket with its fp", async () => {
    const { leader, follower } = await twoTabs();
    expect(follower.link.send(text('fp-f1'))).toBe(true);
    await flushTabs();
    expect(leader.log.written.map((m) => m.fp)).toEqual(['fp-f1']);
    expect(follower.log.written).toEqual([]);
  });

  it("a follower's send fails (stays the outbox's) while the leader's socket is not open", async () => {
    const { leader, follower } = await twoTabs();
    leader.connection.set('reconnecting');
    await flushTabs();
    expect(follower.link.send(text('fp-f2'))).toBe(false);
    await flushTabs();
    expect(leader.log.written).toEqual([]);
  });

  it("every message decoded on the leader's socket reaches every follower (the echo is the follower's ack)", async () => {
    const { b, leader, follower } = await twoTabs();
    const third = tab(b);
    third.link.connect();
    await flushTabs();
    leader.events.emit('socket message', { message: text('fp-f1'), encrypted: true });
    leader.events.emit('socket message', { message: { type: 200, fp: 'fp-r', dataContent: 'robot' }, encrypted: true });
    await flushTabs();
    expect(follower.log.delivered.map((m) => m.fp)).toEqual(['fp-f1', 'fp-r']);
    expect(third.log.delivered.map((m) => m.fp)).toEqual(['fp-f1', 'fp-r']);
    expect(leader.log.delivered).toEqual([]);
    // A follower's own decoded messages (delivered ones re-emitted) are not forwarded again.
    follower.events.emit('socket message', { message: text('fp-x'), encrypted: false });
    await flushTabs();
    expect(third.log.delivered.map((m) => m.fp)).toEqual(['fp-f1', 'fp-r']);
  });

  it('a lone leader posts no inbound message (a postMessage per frame for nobody); from the first hello on, every one', async () => {
    const b = browser();
    const leader = tab(b);
    leader.link.connect();
    await flushTabs();
    leader.connection.set('open');
    leader.events.emit('socket message', { message: text('fp-alone'), encrypted: true });
    await flushTabs();
    const inbound = () => b.channels.posted.filter((p) => (p.data as { kind: string }).kind === 'inbound').map((p) => (p.data as { message: ChatMessage }).message.fp);
    expect(inbound()).toEqual([]);
    const follower = tab(b);
    follower.link.connect();
    await flushTabs();
    leader.events.emit('socket message', { message: text('fp-shared'), encrypted: true });
    await flushTabs();
    expect(inbound()).toEqual(['fp-shared']);
    expect(follower.log.delivered.map((m) => m.fp)).toEqual(['fp-shared']);
  });

  it('the solo and leader roles write on their own socket', async () => {
    const b = browser();
    const solo = tab(b, {}, false);
    solo.link.connect();
    solo.connection.set('open');
    expect(solo.link.send(text('s1'))).toBe(true);
    expect(solo.log.written.map((m) => m.fp)).toEqual(['s1']);
    const { leader } = await twoTabs();
    expect(leader.link.send(text('l1'))).toBe(true);
    expect(leader.log.written.map((m) => m.fp)).toEqual(['l1']);
  });
});

describe('one socket per visitor: take-over', () => {
  it('when the leader tab closes, a follower leads, connects, and the other follower resends after its login', async () => {
    const { follower, third } = await leaderGoneWithThird();
    expect(follower.link.role).toBe('leader');
    expect(follower.connection.connects).toBe(1);
    expect(follower.link.state).toBe('connecting');
    expect(third.link.state).toBe('connecting');
    follower.connection.set('open');
    await flushTabs();
    expect(follower.log.logins).toEqual([false, true]); // its own first socket, yet a reconnect for this tab
    expect(third.link.state).toBe('open');
    expect(third.log.logins).toEqual([false, true]); // a reconnect: resend pending and catch up
    third.link.send(text('fp-3'));
    await flushTabs();
    expect(follower.log.written.map((m) => m.fp)).toEqual(['fp-3']);
  });

  it('a tab that has just taken the lead asks for hellos (a follower\'s hello sent before it led reached nobody); followers answer it, not every snapshot', async () => {
    const b = browser();
    const leader = tab(b);
    leader.link.connect();
    await flushTabs();
    const snapshots = () => b.channels.posted.filter((p) => (p.data as { kind: string }).kind === 'snapshot').map((p) => p.data as { greet?: boolean });
    expect(snapshots().filter((snapshot) => snapshot.greet === true)).toHaveLength(1);
    const follower = tab(b);
    follower.link.connect();
    await flushTabs();
    const hellos = () => b.channels.posted.filter((p) => (p.data as { kind: string; from: string }).kind === 'hello').length;
    const before = hellos();
    leader.connection.set('open'); // a plain snapshot: no hello in answer
    await flushTabs();
    expect(hellos()).toBe(before);
    // a snapshot that asks (a new leader), as the follower's channel receives it
    const tabsChannel = b.channels.posted[0]!.name;
    const followerChannel = b.channels.instances.filter((c) => c.name === tabsChannel)[1] as unknown as { receive(data: unknown): void };
    followerChannel.receive({ v: 1, kind: 'snapshot', from: 'new-leader', snapshot: { state: 'open' }, greet: true });
    await flushTabs();
    expect(hellos()).toBe(before + 1);
  });

  it('a follower that takes over forwards at once (the others said hello to the old leader, not to it)', async () => {
    const { follower, third } = await leaderGoneWithThird();
    follower.connection.set('open');
    follower.events.emit('socket message', { message: text('fp-new'), encrypted: true });
    await flushTabs();
    expect(third.log.delivered.map((m) => m.fp)).toEqual(['fp-new']);
  });

  it('when the leader tab crashes (no bye, the browser releases the lock), a follower takes over', async () => {
    const { b, leader, follower } = await twoTabs();
    b.locks.crash(leader.link.name);
    await flushTabs();
    expect(follower.link.role).toBe('leader');
    expect(follower.connection.connects).toBe(1);
    expect(follower.log.roles).toEqual(['follower', 'leader']);
  });
});

describe('one socket per visitor: Page Lifecycle', () => {
  it('a leader about to be frozen closes its socket and hands the lead over; resumed, it follows', async () => {
    const { leader, follower } = await twoTabs();
    leader.page.dispatchEvent(new Event('freeze'));
    await flushTabs();
    expect(leader.connection.state).toBe('closed');
    expect(follower.link.role).toBe('leader');
    expect(follower.connection.connects).toBe(1);
    follower.connection.set('open');
    leader.page.dispatchEvent(new Event('resume'));
    await flushTabs();
    expect(leader.link.role).toBe('follower');
    expect(leader.link.state).toBe('open');
    expect(leader.connection.connects).toBe(1);
  });

  it('a frozen follower leaves the queue, so the lock is never granted to a tab that cannot run', async () => {
    const { b, leader, follower } = await twoTabs();
    follower.page.dispatchEvent(new Event('freeze'));
    await flushTabs();
    expect(b.locks.waiting(leader.link.name)).toBe(0);
    leader.link.destroy();
    await flushTabs();
    expect(follower.link.role).toBe('solo'); // out of the election until resumed
    expect(follower.connection.connects).toBe(0);
    follower.page.dispatchEvent(new Event('resume'));
    await flushTabs();
    expect(follower.link.role).toBe('leader');
    expect(follower.connection.connects).toBe(1);
  });
});

describe('one socket per visitor: a leader that does not answer', () => {
  it('a follower that has not heard from the leader for leaderTimeout uses its own socket, and follows again when it answers', async () => {
    const { b, follower } = await twoTabs();
    const advance = async (ms: number): Promise<void> => {
      for (let t = 0; t < ms; t += 1_000) {
        b.timers.advance(1_000);
        await flushTabs(1);
      }
    };
    await advance(30_000);
    expect(follower.link.role).toBe('follower'); // the leader answers every probe
    expect(follower.connection.connects).toBe(0);

    // The leader hangs (frozen by the browser without a freeze event): it answers nothing.
    const leaderChannel = b.channels.instances.find((c) => !c.name.endsWith(':identity'))!; // the visitor's channel, the leader's end
    leaderChannel.freeze();
    await advance(8_000);
    expect(follower.link.role).toBe('follower');
    await advance(4_000);
    expect(follower.link.role).toBe('solo');
    expect(follower.connection.connects).toBe(1);
    follower.connection.set('open');
    expect(follower.link.send(text('fp-own'))).toBe(true);
    expect(follower.log.written.map((m) => m.fp)).toEqual(['fp-own']);

    // The leader answers again: the follower closes its own socket and follows.
    leaderChannel.thaw();
    await advance(4_000);
    expect(follower.link.role).toBe('follower');
    expect(follower.connection.state).toBe('closed');
    expect(follower.link.state).toBe('open');
    expect(follower.log.logins.at(-1)).toBe(true);
  });

  it('no probe runs in the leader, and none is left after destroy', async () => {
    const { b, leader, follower } = await twoTabs();
    expect(b.timers.pending).toBe(1); // the follower's probe
    follower.link.destroy();
    leader.link.destroy();
    expect(b.timers.pending).toBe(0);
  });
});

describe('one socket per visitor: fallback to one socket per tab', () => {
  it('without Web Locks, without BroadcastChannel, or turned off, every tab is solo and connects', async () => {
    const b = browser();
    const options: (boolean | TabOptions)[] = [
      { locks: null, BroadcastChannel: b.channels.BroadcastChannel },
      { locks: b.locks, BroadcastChannel: null },
      false,
    ];
    for (const option of options) {
      const x = tab(b, {}, option);
      const y = tab(b, {}, option);
      x.link.connect();
      y.link.connect();
      await flushTabs();
      expect([x.link.role, y.link.role]).toEqual(['solo', 'solo']);
      expect([x.connection.connects, y.connection.connects]).toEqual([1, 1]);
    }
    expect(b.locks.requests).toEqual([]);
  });

  it('is off by default outside a browser (Node) and where the globals are missing', () => {
    expect(resolveTabOptions(undefined, false)).toBeNull();
    // Node 20 has a global BroadcastChannel but no navigator.locks.
    expect(resolveTabOptions(undefined, true)).toBeNull();
    expect(resolveTabOptions(true, true)).toBeNull();
    const b = browser();
    expect(resolveTabOptions({ locks: b.locks }, true)?.Channel).toBe(globalThis.BroadcastChannel);
  });
});

describe('one socket per visitor: names scoped per identity', () => {
  it('two visitors (or merchants) of one browser each lead their own socket', async () => {
    const b = browser();
    const u1 = tab(b, { clientId: 'uuid-1' });
    const u2 = tab(b, { clientId: 'uuid-2' });
    const m2 = tab(b, { clientId: 'uuid-1', mchId: 'M2' });
    for (const t of [u1, u2, m2]) t.link.connect();
    await flushTabs();
    expect([u1.link.role, u2.link.role, m2.link.role]).toEqual(['leader', 'leader', 'leader']);
    expect(new Set([u1.link.name, u2.link.name, m2.link.name]).size).toBe(3);
    expect(u1.link.name).toBe('kefu-im:uuid-1:M1001:P01');
  });

  it('a new identity at the next connect re-enters the election under its own name', async () => {
    const { b, leader, follower } = await twoTabs();
    follower.scope.clientId = 'uuid-new';
    follower.link.connect();
    await flushTabs();
    expect(follower.link.role).toBe('leader');
    expect(follower.link.name).toBe('kefu-im:uuid-new:M1001:P01');
    expect(leader.link.role).toBe('leader');
    expect(b.locks.waiting(leader.link.name)).toBe(0);
  });
});

describe('one socket per visitor: disconnect and destroy', () => {
  it('disconnect in the leader closes its socket and hands the lead over; connect enters again', async () => {
    const { leader, follower } = await twoTabs();
    leader.link.disconnect();
    await flushTabs();
    expect(leader.connection.state).toBe('closed');
    expect(follower.link.role).toBe('leader');
    leader.link.connect();
    await flushTabs();
    expect(leader.link.role).toBe('follower');
  });

  it('a tab destroyed while the coordination loads enters nothing and opens nothing', async () => {
    const b = browser();
    const a = tab(b);
    a.link.connect();
    a.link.destroy();
    await flushTabs();
    expect(b.channels.open).toBe(0);
    expect(b.locks.requests).toEqual([]);
    expect(a.connection.connects).toBe(0);
    expect(a.connection.listenerCount('state') + a.connection.listenerCount('open')).toBe(0);
  });

  it('destroy leaves no listener, channel, lock or queued request behind', async () => {
    const { b, leader, follower } = await twoTabs();
    const name = leader.link.name;
    follower.link.destroy();
    leader.link.destroy();
    await flushTabs();
    expect(b.channels.open).toBe(0);
    expect(b.channels.listeners).toBe(0);
    expect(b.locks.isHeld(name)).toBe(false);
    expect(b.locks.waiting(name)).toBe(0);
    for (const t of [leader, follower]) {
      expect(t.connection.listenerCount('state') + t.connection.listenerCount('open')).toBe(0);
      expect(t.page.listeners).toBe(0);
      expect(t.events.listenerCount('socket message') + t.events.listenerCount('user')).toBe(0);
      expect(t.log.errors).toEqual([]);
    }
  });
});
