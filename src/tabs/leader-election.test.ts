import { describe, expect, it } from 'vitest';
import { LeaderElection, type LockManagerLike, type TabRole } from './leader-election.js';
import { FakeLockManager, flushTabs } from './tabs.fixture.js';

function candidate(locks: LockManagerLike | null, name = 'kefu-im:u1:M1:P1') {
  const roles: TabRole[] = [];
  const errors: Error[] = [];
  const election = new LeaderElection({ name, locks, onRole: (r) => roles.push(r), onError: (e) => errors.push(e) });
  election.start();
  return { election, roles, errors };
}

describe('leader election with Web Locks', () => {
  it('the first tab leads, the next ones follow and queue for the lock', async () => {
    const locks = new FakeLockManager();
    const a = candidate(locks);
    await flushTabs();
    const b = candidate(locks);
    const c = candidate(locks);
    await flushTabs();
    expect([a.election.role, b.election.role, c.election.role]).toEqual(['leader', 'follower', 'follower']);
    expect(locks.waiting('kefu-im:u1:M1:P1')).toBe(2);
    expect(locks.requests[0]?.options).toMatchObject({ mode: 'exclusive', ifAvailable: true });
    expect(locks.requests.filter((r) => !r.options.ifAvailable).every((r) => r.options.mode === 'exclusive')).toBe(true);
  });

  it('the role is null until the lock manager answers', () => {
    const a = candidate(new FakeLockManager());
    expect(a.election.role).toBeNull();
    expect(a.roles).toEqual([]);
  });

  it('when the leader resigns, the first follower in the queue leads at once', async () => {
    const locks = new FakeLockManager();
    const a = candidate(locks);
    await flushTabs();
    const b = candidate(locks);
    const c = candidate(locks);
    await flushTabs();
    a.election.destroy();
    await flushTabs();
    expect(b.roles).toEqual(['follower', 'leader']);
    expect(c.election.role).toBe('follower');
  });

  it('when the leader tab dies (the browser releases its lock), a follower leads', async () => {
    const locks = new FakeLockManager();
    candidate(locks);
    await flushTabs();
    const b = candidate(locks);
    await flushTabs();
    locks.crash('kefu-im:u1:M1:P1');
    await flushTabs();
    expect(b.election.role).toBe('leader');
  });

  it('a follower that resigns leaves the queue and never leads', async () => {
    const locks = new FakeLockManager();
    const a = candidate(locks);
    await flushTabs();
    const b = candidate(locks);
    await flushTabs();
    b.election.destroy();
    await flushTabs();
    expect(locks.waiting('kefu-im:u1:M1:P1')).toBe(0);
    a.election.destroy();
    await flushTabs();
    expect(locks.isHeld('kefu-im:u1:M1:P1')).toBe(false);
    expect(b.roles).toEqual(['follower']);
    expect(b.errors).toEqual([]);
  });

  it('different names are different elections', async () => {
    const locks = new FakeLockManager();
    const a = candidate(locks, 'kefu-im:u1:M1:P1');
    const b = candidate(locks, 'kefu-im:u2:M1:P1');
    await flushTabs();
    expect([a.election.role, b.election.role]).toEqual(['leader', 'leader']);
  });

  it('without a lock manager the role is solo', () => {
    const a = candidate(null);
    expect(a.election.role).toBe('solo');
    expect(a.roles).toEqual(['solo']);
  });

  it('a lock manager that refuses (e.g. SecurityError) falls back to solo and reports it', async () => {
    const throwing: LockManagerLike = {
      request: () => {
        throw new Error('SecurityError: locks are not allowed here');
      },
    };
    const rejecting: LockManagerLike = { request: () => Promise.reject(new Error('SecurityError')) };
    const a = candidate(throwing);
    const b = candidate(rejecting);
    await flushTabs();
    expect([a.election.role, b.election.role]).toEqual(['solo', 'solo']);
    expect(a.errors).toHaveLength(1);
    expect(b.errors).toHaveLength(1);
  });
});
