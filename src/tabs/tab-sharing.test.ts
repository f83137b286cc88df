/**
 * What a leader tab shares with its followers, and when: its socket (and the key session the
 * followers call with) only once the server welcomed its connect, since only an accepted connect
 * binds the key session to the visitor (protocol §3a); and the member's identity token (§3b), so
 * that a follower that leads later connects as the member. The tabs of one fake browser, each with
 * a fake host (tab-host.fixture.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { browser, tab } from './tab-host.fixture.js';
import { flushTabs } from './tabs.fixture.js';

// The coordination is a lazy chunk: load it once so that the links' own import resolves within a flush.
beforeAll(() => import('./coordination.js'));

/** A tab whose own connect is welcomed when the test says so, and which holds `token` (if any). */
function welcomingTab(b: ReturnType<typeof browser>, token: string | null = null) {
  const flag = { welcomed: false };
  const t = tab(b, {}, undefined, undefined, { welcomed: () => flag.welcomed, identityToken: () => token });
  const welcome = (): void => {
    flag.welcomed = true;
    t.link.welcomed();
  };
  return { ...t, welcome };
}

/** A leader tab (`token` its member's, if any) with its socket open, welcomed when `welcome`, and a follower that joined. */
async function leaderAndFollower(welcome: boolean, token: string | null = null) {
  const b = browser();
  const leader = welcomingTab(b, token);
  leader.link.connect();
  await flushTabs();
  leader.connection.set('open');
  if (welcome) leader.welcome();
  const follower = tab(b);
  follower.link.connect();
  await flushTabs();
  return { b, leader, follower };
}

describe("a leader's open socket is its followers' once the server welcomed it", () => {
  it('a follower mirrors "connecting", logs in nothing and calls with no shared key session until the welcome', async () => {
    const { leader, follower } = await leaderAndFollower(false);
    expect(follower.link.role).toBe('follower');
    expect(follower.link.state).toBe('connecting');
    expect(follower.log.logins).toEqual([]);
    expect(follower.link.sharedKeySession).toBeNull();

    leader.welcome();
    await flushTabs();
    expect(follower.link.state).toBe('open');
    expect(follower.log.logins).toEqual([false]);
    expect(follower.link.sharedKeySession).toEqual({ saltKey: 'salt-of-uuid-1', userKey: 'k'.repeat(32) });
  });

  it('after a take-over too: the other follower catches up only once the new leader is welcomed', async () => {
    const b = browser();
    const first = welcomingTab(b);
    first.link.connect();
    await flushTabs();
    first.connection.set('open');
    first.welcome();
    const next = welcomingTab(b);
    next.link.connect();
    const third = tab(b);
    third.link.connect();
    await flushTabs();
    expect(third.log.logins).toEqual([false]);

    first.link.destroy();
    await flushTabs();
    expect(next.link.role).toBe('leader');
    next.connection.set('open'); // its own socket opens: the server has not accepted the connect yet
    await flushTabs();
    expect(third.link.state).toBe('connecting');
    expect(third.log.logins).toEqual([false]); // no catch-up call with a key session bound to nobody
    next.welcome();
    await flushTabs();
    expect(third.link.state).toBe('open');
    expect(third.log.logins).toEqual([false, true]); // now it resends and catches up
  });
});

describe("the member's identity token travels to the followers (protocol §3b)", () => {
  it('with the welcomed snapshot, to a follower and to a tab that joins later; never before the welcome', async () => {
    const { b, leader, follower } = await leaderAndFollower(false, 'member.jwt.token');
    expect(follower.log.tokens).toEqual([]);
    leader.welcome();
    await flushTabs();
    expect(follower.log.tokens).toContain('member.jwt.token');
    const later = tab(b);
    later.link.connect();
    await flushTabs();
    expect(later.log.tokens).toContain('member.jwt.token');
  });

  it('an anonymous leader shares none', async () => {
    const { follower } = await leaderAndFollower(true);
    expect(follower.link.state).toBe('open');
    expect(follower.log.tokens).toEqual([]);
  });
});
