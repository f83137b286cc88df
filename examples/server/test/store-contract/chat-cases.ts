/**
 * Store contract: visitors, service sessions, the queue and claimQueued.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { MCH, PLATFORM, session, T0, visitor } from './fixtures.js';

/** Registers the visitor and session cases against the store `current()` answers. */
export function sessionCases(current: () => Store): void {
  describe('visitors', () => {
    it('saveVisitor inserts, then updates name, avatar, language and lastSeen but keeps the flags', async () => {
      const store = current();
      expect(await store.chat.visitor('v1')).toBeUndefined();
      await store.chat.saveVisitor(visitor('v1'));
      await store.chat.setVisitorFlags('v1', { blacklisted: true });
      await store.chat.saveVisitor(visitor('v1', { name: 'new', avatar: 'a.png', language: 'zh', lastSeen: T0 + 5, createdAt: T0 + 5 }));
      expect(await store.chat.visitor('v1')).toEqual(
        visitor('v1', { name: 'new', avatar: 'a.png', language: 'zh', lastSeen: T0 + 5, blacklisted: true }),
      );
    });

    it('visitors reads many at once and leaves out the unknown ones', async () => {
      const store = current();
      expect(await store.chat.visitors([])).toEqual([]);
      await store.chat.saveVisitor(visitor('v1'));
      await store.chat.saveVisitor(visitor('v2', { name: 'two' }));
      const found = await store.chat.visitors(['v2', 'nobody', 'v1', "v1' OR 1=1 --"]);
      expect(found.map((v) => [v.clientId, v.name]).sort()).toEqual([['v1', visitor('v1').name], ['v2', 'two']]);
    });

    it('setVisitorFlags changes only the flags it is given', async () => {
      const store = current();
      await store.chat.saveVisitor(visitor('v1'));
      await store.chat.setVisitorFlags('v1', { banned: true });
      expect(await store.chat.visitor('v1')).toMatchObject({ banned: true, blacklisted: false });
      await store.chat.setVisitorFlags('v1', { blacklisted: true, banned: false });
      expect(await store.chat.visitor('v1')).toMatchObject({ banned: false, blacklisted: true });
    });
  });

  describe('service sessions', () => {
    it('createSession, session and updateSession round-trip every field', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1'));
      expect(await store.chat.session('s1')).toEqual(session('s1', 'v1'));
      const ended = session('s1', 'v1', { state: 'ended', agentId: 'agent:a', queuedAt: T0 + 1, acceptedAt: T0 + 2, endedAt: T0 + 3, score: 5, remark: 'good' });
      await store.chat.updateSession(ended);
      expect(await store.chat.session('s1')).toEqual(ended);
      expect(await store.chat.session('nope')).toBeUndefined();
    });

    it('latestSession is the newest of the visitor on that platform (insertion order breaks ties)', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { createdAt: T0, state: 'ended', endedAt: T0 + 1 }));
      await store.chat.createSession(session('s2', 'v1', { createdAt: T0 + 10, state: 'ended', endedAt: T0 + 11 }));
      await store.chat.createSession(session('s3', 'v1', { createdAt: T0 + 10 }));
      await store.chat.createSession(session('s4', 'v1', { createdAt: T0 + 99, platformId: 'app' }));
      expect((await store.chat.latestSession('v1', MCH, PLATFORM))?.sessionId).toBe('s3');
      expect(await store.chat.latestSession('v2', MCH, PLATFORM)).toBeUndefined();
    });

    it('servingAgents lists the agents of active sessions, once each, sorted', async () => {
      const store = current();
      expect(await store.chat.servingAgents()).toEqual([]);
      await store.chat.createSession(session('s1', 'v1', { state: 'active', agentId: 'agent:b', acceptedAt: T0 }));
      await store.chat.createSession(session('s2', 'v2', { state: 'active', agentId: 'agent:a', acceptedAt: T0 }));
      await store.chat.createSession(session('s3', 'v3', { state: 'active', agentId: 'agent:b', acceptedAt: T0 }));
      await store.chat.createSession(session('s4', 'v4', { state: 'ended', agentId: 'agent:c', acceptedAt: T0, endedAt: T0 + 1 }));
      expect(await store.chat.servingAgents()).toEqual(['agent:a', 'agent:b']);
    });

    it('keeps one open session per conversation: a second is refused until the first ended', async () => {
      const store = current();
      expect(await store.chat.createSession(session('s1', 'v1', { createdAt: T0 }))).toBe(true);
      expect(await store.chat.createSession(session('s2', 'v1', { createdAt: T0 + 1 }))).toBe(false);
      expect(await store.chat.session('s2')).toBeUndefined();
      // another platform, another visitor: their own conversations
      expect(await store.chat.createSession(session('s3', 'v1', { createdAt: T0 + 2, platformId: 'app' }))).toBe(true);
      expect(await store.chat.createSession(session('s4', 'v2', { createdAt: T0 + 3 }))).toBe(true);
      const first = (await store.chat.session('s1'))!;
      await store.chat.updateSession({ ...first, state: 'ended', endedAt: T0 + 4 });
      expect(await store.chat.createSession(session('s5', 'v1', { createdAt: T0 + 5 }))).toBe(true);
      // two at once (on PostgreSQL from two connections): exactly one is stored
      const both = await Promise.all([
        store.chat.createSession(session('s6', 'v9', { createdAt: T0 + 6 })),
        store.chat.createSession(session('s7', 'v9', { createdAt: T0 + 6 })),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
    });

    it('queue lists queued sessions oldest first; activeSessions an agent’s, by acceptance', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'queued', queuedAt: T0 + 20 }));
      await store.chat.createSession(session('s2', 'v2', { state: 'queued', queuedAt: T0 + 10 }));
      await store.chat.createSession(session('s3', 'v3', { state: 'queued', queuedAt: T0 + 10 }));
      await store.chat.createSession(session('s4', 'v4', { state: 'robot' }));
      await store.chat.createSession(session('s5', 'v5', { state: 'active', agentId: 'agent:a', acceptedAt: T0 + 9 }));
      await store.chat.createSession(session('s6', 'v6', { state: 'active', agentId: 'agent:a', acceptedAt: T0 + 1 }));
      await store.chat.createSession(session('s7', 'v7', { state: 'active', agentId: 'agent:b', acceptedAt: T0 }));
      expect((await store.chat.queue()).map((s) => s.sessionId)).toEqual(['s2', 's3', 's1']);
      expect((await store.chat.activeSessions('agent:a')).map((s) => s.sessionId)).toEqual(['s6', 's5']);
    });

    it('activeSessionWith finds the agent’s active session with one visitor, the oldest accepted first', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'active', agentId: 'agent:a', acceptedAt: T0 + 5 }));
      await store.chat.createSession(session('s2', 'v1', { state: 'active', agentId: 'agent:a', acceptedAt: T0 + 2, mchId: 'm2' }));
      await store.chat.createSession(session('s3', 'v2', { state: 'active', agentId: 'agent:b', acceptedAt: T0 }));
      await store.chat.createSession(session('s4', 'v3', { state: 'queued', queuedAt: T0 }));
      await store.chat.createSession(session('s5', 'v4', { state: 'ended', agentId: 'agent:a', acceptedAt: T0 }));
      expect((await store.chat.activeSessionWith('agent:a', 'v1'))?.sessionId).toBe('s2');
      expect(await store.chat.activeSessionWith('agent:a', 'v2')).toBeUndefined();
      expect((await store.chat.activeSessionWith('agent:b', 'v2'))?.sessionId).toBe('s3');
      expect(await store.chat.activeSessionWith('agent:a', 'v3')).toBeUndefined();
      expect(await store.chat.activeSessionWith('agent:a', 'v4')).toBeUndefined();
    });
  });

  describe('claimQueued: of two agents accepting the same visitor at once, exactly one gets the session', () => {
    it('assigns the queued session and answers it active', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'queued', queuedAt: T0 }));
      const claimed = await store.chat.claimQueued('v1', 'agent:a', T0 + 5, [MCH]);
      expect(claimed).toEqual(session('s1', 'v1', { state: 'active', agentId: 'agent:a', queuedAt: T0, acceptedAt: T0 + 5 }));
      expect(await store.chat.session('s1')).toEqual(claimed);
      expect(await store.chat.claimQueued('v1', 'agent:b', T0 + 6, [MCH])).toBeUndefined();
      expect(await store.chat.claimQueued('nobody', 'agent:b', T0 + 6, [MCH])).toBeUndefined();
      expect(await store.identity.assigned('agent:a', 'v1', [MCH])).toBe(true);
      expect(await store.identity.assigned('agent:b', 'v1', [MCH])).toBe(false);
    });

    it('claims only a visitor queued with one of the agent’s merchants', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'queued', queuedAt: T0, mchId: 'mch-2' }));
      expect(await store.chat.claimQueued('v1', 'agent:a', T0 + 5, [MCH])).toBeUndefined();
      expect(await store.chat.claimQueued('v1', 'agent:a', T0 + 5, [])).toBeUndefined();
      expect((await store.chat.session('s1'))?.state).toBe('queued');
      expect(await store.chat.claimQueued('v1', 'agent:b', T0 + 6, [MCH, 'mch-2'])).toMatchObject({ sessionId: 's1', agentId: 'agent:b' });
    });

    it('two claims at once: exactly one wins', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'queued', queuedAt: T0 }));
      const results = await Promise.all([store.chat.claimQueued('v1', 'agent:a', T0, [MCH]), store.chat.claimQueued('v1', 'agent:b', T0, [MCH])]);
      const winners = results.filter((r) => r !== undefined);
      expect(winners).toHaveLength(1);
      expect((await store.chat.session('s1'))?.agentId).toBe(winners[0]?.agentId);
    });

    it('many agents racing for many visitors: every visitor is assigned exactly once', async () => {
      const store = current();
      const visitors = Array.from({ length: 8 }, (_, i) => `v${i}`);
      for (const [i, v] of visitors.entries()) await store.chat.createSession(session(`s${i}`, v, { state: 'queued', queuedAt: T0 + i }));
      const claims = visitors.flatMap((v) => ['agent:a', 'agent:b', 'agent:c'].map((agent) => store.chat.claimQueued(v, agent, T0 + 100, [MCH])));
      const won = (await Promise.all(claims)).filter((r) => r !== undefined);
      expect(won.map((s) => s.clientId).sort()).toEqual([...visitors].sort());
      expect(await store.chat.queue()).toEqual([]);
    });

    it('a claim made while another transaction holds the claimed row does not win it too', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'queued', queuedAt: T0 }));
      let outside: Promise<unknown> | undefined;
      const inside = await store.transaction(async (tx) => {
        const claimed = await tx.chat.claimQueued('v1', 'agent:a', T0, [MCH]);
        outside = store.chat.claimQueued('v1', 'agent:b', T0, [MCH]); // another connection (PostgreSQL) or held back (SQLite)
        await new Promise((resolve) => setTimeout(resolve, 50));
        return claimed;
      });
      expect(inside?.agentId).toBe('agent:a');
      expect(await outside).toBeUndefined();
      expect((await store.chat.session('s1'))?.agentId).toBe('agent:a');
    });
  });

  describe('recentWaits: the queue waits of the latest accepts, newest accept first', () => {
    it('answers acceptedAt - queuedAt of accepted sessions only, at most `limit`', async () => {
      const store = current();
      expect(await store.chat.recentWaits(5)).toEqual([]);
      await store.chat.createSession(session('s1', 'v1', { state: 'ended', queuedAt: T0, acceptedAt: T0 + 30_000, endedAt: T0 + 40_000 }));
      await store.chat.createSession(session('s2', 'v2', { state: 'active', agentId: 'agent:a', queuedAt: T0 + 1_000, acceptedAt: T0 + 61_000 }));
      await store.chat.createSession(session('s3', 'v3', { state: 'active', agentId: 'agent:a', queuedAt: T0 + 2_000, acceptedAt: T0 + 12_000 }));
      await store.chat.createSession(session('s4', 'v4', { state: 'queued', queuedAt: T0 + 3_000 }));
      await store.chat.createSession(session('s5', 'v5', { state: 'robot' }));
      expect(await store.chat.recentWaits(5)).toEqual([60_000, 30_000, 10_000]);
      expect(await store.chat.recentWaits(2)).toEqual([60_000, 30_000]);
      // an accept through claimQueued counts from then on
      expect(await store.chat.claimQueued('v4', 'agent:b', T0 + 203_000, [MCH])).toBeDefined();
      expect(await store.chat.recentWaits(1)).toEqual([200_000]);
    });
  });
}
