/**
 * Store contract: agent status and load, the routing claim (the queue's head, under capacity,
 * exactly once when claims run at once) and the transfer's reassign.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { MCH, session, T0 } from './fixtures.js';

/** Stores `count` queued sessions, oldest first (`q1` is the head). */
async function queued(store: Store, count: number): Promise<void> {
  for (let i = 1; i <= count; i += 1) await store.chat.createSession(session(`q${i}`, `v${i}`, { state: 'queued', queuedAt: T0 + i }));
}

/** Registers the routing cases against the store `current()` answers. */
export function routingCases(current: () => Store): void {
  describe('routing', () => {
    it('agentRouting answers every agent asked, available with no load by default, in the order asked', async () => {
      const store = current();
      expect(await store.chat.agentRouting([])).toEqual([]);
      await store.chat.setAgentStatus('agent:b', 'away');
      expect(await store.chat.agentRouting(['agent:b', 'agent:a', 'agent:b'])).toEqual([
        { agentId: 'agent:b', status: 'away', open: 0, capacity: null, lastAssignedAt: null },
        { agentId: 'agent:a', status: 'available', open: 0, capacity: null, lastAssignedAt: null },
      ]);
      await store.chat.setAgentStatus('agent:b', 'available');
      expect((await store.chat.agentRouting(['agent:b']))[0]?.status).toBe('available');
      await store.chat.setAgentCapacity('agent:b', 5);
      expect((await store.chat.agentRouting(['agent:b']))[0]).toMatchObject({ status: 'available', capacity: 5 });
      await store.chat.setAgentCapacity('agent:b', null);
      expect((await store.chat.agentRouting(['agent:b']))[0]?.capacity).toBeNull();
    });

    it('claimHeadFor takes the head of the queue, stamps the agent and stops at its capacity', async () => {
      const store = current();
      await queued(store, 3);
      expect(await store.chat.claimHeadFor('agent:a', 2, T0 + 10, [MCH])).toMatchObject({ sessionId: 'q1', state: 'active', agentId: 'agent:a', acceptedAt: T0 + 10 });
      expect(await store.chat.claimHeadFor('agent:a', 2, T0 + 11, [MCH])).toMatchObject({ sessionId: 'q2' });
      expect(await store.chat.claimHeadFor('agent:a', 2, T0 + 12, [MCH])).toBeUndefined();
      expect(await store.chat.agentRouting(['agent:a'])).toEqual([{ agentId: 'agent:a', status: 'available', open: 2, capacity: null, lastAssignedAt: T0 + 11 }]);
      expect((await store.chat.queue()).map((s) => s.sessionId)).toEqual(['q3']);
      expect(await store.chat.claimHeadFor('agent:b', 0, T0 + 13, [MCH])).toBeUndefined();
    });

    it('claims made at once give each visitor once and never put an agent over capacity', async () => {
      const store = current();
      await queued(store, 8);
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.chat.claimHeadFor(i % 2 === 0 ? 'agent:a' : 'agent:b', 3, T0 + 20 + i, [MCH])),
      );
      const claimed = claims.filter((s) => s !== undefined);
      expect(claimed).toHaveLength(6);
      expect(new Set(claimed.map((s) => s.sessionId)).size).toBe(6);
      const loads = await store.chat.agentRouting(['agent:a', 'agent:b']);
      expect(loads.map((l) => l.open)).toEqual([3, 3]);
      expect(await store.chat.queue()).toHaveLength(2);
    });

    it('claimHeadFor takes the oldest visitor of the agent’s merchants, passing others by', async () => {
      const store = current();
      await store.chat.createSession(session('o1', 'w1', { state: 'queued', queuedAt: T0, mchId: 'mch-2' }));
      await queued(store, 2);
      expect(await store.chat.claimHeadFor('agent:a', 5, T0 + 10, [MCH])).toMatchObject({ sessionId: 'q1' });
      expect(await store.chat.claimHeadFor('agent:b', 5, T0 + 10, ['mch-3'])).toBeUndefined();
      expect(await store.chat.claimHeadFor('agent:b', 5, T0 + 10, [])).toBeUndefined();
      expect(await store.chat.claimHeadFor('agent:b', 5, T0 + 11, ['mch-2', MCH])).toMatchObject({ sessionId: 'o1' });
      expect((await store.chat.queue()).map((s) => s.sessionId)).toEqual(['q2']);
    });

    it('reassign moves an active session from its agent only', async () => {
      const store = current();
      await queued(store, 1);
      await store.chat.claimHeadFor('agent:a', 1, T0 + 5, [MCH]);
      expect(await store.chat.reassign('q1', 'agent:b', 'agent:c', T0 + 6, 3)).toBeUndefined();
      expect(await store.chat.reassign('q1', 'agent:a', 'agent:b', T0 + 6, 3)).toMatchObject({ sessionId: 'q1', state: 'active', agentId: 'agent:b' });
      expect(await store.chat.activeSessions('agent:a')).toEqual([]);
      expect((await store.chat.activeSessions('agent:b')).map((s) => s.sessionId)).toEqual(['q1']);
      expect(await store.chat.reassign('q1', 'agent:a', 'agent:c', T0 + 7, 3)).toBeUndefined();
    });

    it('reassign keeps the other agent within its capacity, also when transfers and claims run at once', async () => {
      const store = current();
      await queued(store, 6);
      for (let i = 0; i < 3; i += 1) await store.chat.claimHeadFor('agent:a', 3, T0 + 5 + i, [MCH]);
      await store.chat.claimHeadFor('agent:b', 1, T0 + 8, [MCH]);
      expect(await store.chat.reassign('q1', 'agent:a', 'agent:b', T0 + 9, 1)).toBeUndefined();
      expect(await store.chat.reassign('q1', 'agent:a', 'agent:c', T0 + 9, 0)).toBeUndefined();
      expect((await store.chat.activeSessions('agent:a')).map((s) => s.sessionId)).toEqual(['q1', 'q2', 'q3']);
      // c can take 2: three transfers and two claims race for its room
      const raced = await Promise.all([
        store.chat.reassign('q1', 'agent:a', 'agent:c', T0 + 10, 2),
        store.chat.claimHeadFor('agent:c', 2, T0 + 10, [MCH]),
        store.chat.reassign('q2', 'agent:a', 'agent:c', T0 + 10, 2),
        store.chat.claimHeadFor('agent:c', 2, T0 + 10, [MCH]),
        store.chat.reassign('q3', 'agent:a', 'agent:c', T0 + 10, 2),
      ]);
      expect(raced.filter((s) => s !== undefined)).toHaveLength(2);
      expect(await store.chat.activeSessions('agent:c')).toHaveLength(2);
      expect((await store.chat.activeSessions('agent:a')).length + (await store.chat.activeSessions('agent:c')).length + (await store.chat.queue()).length).toBe(5);
    });
  });
}
