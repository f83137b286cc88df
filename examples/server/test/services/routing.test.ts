/**
 * The routing rule (pure): fewest open conversations, ties to the longest idle, nobody over
 * capacity, away agents excluded.
 */
import { describe, expect, it } from 'vitest';
import { isAgentStatus, nextAgent, RoutingPolicy, type RoutingCandidate } from '../../src/services/routing.js';
import type { ServiceSession } from '../../src/store/types.js';

function agent(agentId: string, over: Partial<RoutingCandidate> = {}): RoutingCandidate {
  return { agentId, status: 'available', capacity: 3, open: 0, lastAssignedAt: null, merchants: ['M'], ...over };
}

describe('nextAgent', () => {
  it('answers undefined when there is nobody', () => {
    expect(nextAgent([])).toBeUndefined();
  });

  it('picks the agent with the fewest open conversations', () => {
    const picked = nextAgent([agent('a', { open: 2 }), agent('b', { open: 0 }), agent('c', { open: 1 })]);
    expect(picked?.agentId).toBe('b');
  });

  it('breaks ties by the longest idle, never assigned first', () => {
    expect(nextAgent([agent('a', { lastAssignedAt: 300 }), agent('b', { lastAssignedAt: 100 }), agent('c', { lastAssignedAt: 200 })])?.agentId).toBe('b');
    expect(nextAgent([agent('a', { lastAssignedAt: 100 }), agent('b', { lastAssignedAt: null })])?.agentId).toBe('b');
  });

  it('breaks a full tie by account, whatever the order given', () => {
    expect(nextAgent([agent('b'), agent('a')])?.agentId).toBe('a');
    expect(nextAgent([agent('a'), agent('b')])?.agentId).toBe('a');
  });

  it('never picks an agent at capacity', () => {
    expect(nextAgent([agent('a', { capacity: 1, open: 1 }), agent('b', { capacity: 3, open: 2 })])?.agentId).toBe('b');
    expect(nextAgent([agent('a', { capacity: 1, open: 1 }), agent('b', { capacity: 2, open: 2 })])).toBeUndefined();
    expect(nextAgent([agent('a', { capacity: 0 })])).toBeUndefined();
  });

  it('never picks an away agent, however idle', () => {
    expect(nextAgent([agent('a', { status: 'away' }), agent('b', { open: 2, lastAssignedAt: 5 })])?.agentId).toBe('b');
    expect(nextAgent([agent('a', { status: 'away' })])).toBeUndefined();
  });

  it('spreads 10 visitors over capacities 1/2/3 by the rule, nobody over capacity', () => {
    const agents = [agent('one', { capacity: 1 }), agent('two', { capacity: 2 }), agent('three', { capacity: 3 })];
    const order: string[] = [];
    for (let now = 1; now <= 10; now += 1) {
      const picked = nextAgent(agents);
      if (!picked) break;
      picked.open += 1;
      picked.lastAssignedAt = now;
      order.push(picked.agentId);
    }
    expect(order).toEqual(['one', 'three', 'two', 'three', 'two', 'three']);
    expect(agents.map((a) => a.open)).toEqual([1, 2, 3]);
  });
});

describe('isAgentStatus', () => {
  it('knows the two statuses only', () => {
    expect(isAgentStatus('available')).toBe(true);
    expect(isAgentStatus('away')).toBe(true);
    expect(isAgentStatus('busy')).toBe(false);
    expect(isAgentStatus(1)).toBe(false);
  });
});

describe('RoutingPolicy (fake store)', () => {
  interface Fake {
    queue: string[];
    /** The merchant of each queued visitor (`M` when not named). */
    queuedWith?: Record<string, string>;
    /** The merchants of each agent (`['M']` when not named). */
    merchants?: Record<string, string[]>;
    status: Record<string, 'available' | 'away'>;
    open: Record<string, number>;
    last: Record<string, number | null>;
    /** Agents whose claims find them full (filled on another node). */
    fullElsewhere?: Set<string>;
    /** The store fails. */
    broken?: boolean;
  }
  function policy(fake: Fake, autoAssign = true, onlineAgents = Object.keys(fake.status)) {
    const assigned: [string, string][] = [];
    const errors: unknown[] = [];
    let clock = 100;
    const sessionOf = (clientId: string, agentId: string): ServiceSession => ({
      sessionId: `s-${clientId}`, clientId, mchId: 'M', platformId: 'P', state: 'active', agentId,
      createdAt: 0, queuedAt: 0, acceptedAt: clock, endedAt: null, score: null, remark: null,
    });
    const p = new RoutingPolicy({
      store: {
        chat: {
          agentRouting: async (ids) => ids.map((agentId) => ({ agentId, status: fake.status[agentId] ?? 'available', open: fake.open[agentId] ?? 0, capacity: null, lastAssignedAt: fake.last[agentId] ?? null })),
          claimHeadFor: async (agentId, capacity, now, mchIds) => {
            if (fake.broken) throw new Error('store down');
            if ((fake.open[agentId] ?? 0) >= capacity || fake.fullElsewhere?.has(agentId)) return undefined;
            const at = fake.queue.findIndex((clientId) => mchIds.includes(fake.queuedWith?.[clientId] ?? 'M'));
            if (at < 0) return undefined;
            const [head] = fake.queue.splice(at, 1);
            if (head === undefined) return undefined;
            fake.open[agentId] = (fake.open[agentId] ?? 0) + 1;
            fake.last[agentId] = now;
            return sessionOf(head, agentId);
          },
          queue: async () => fake.queue.map((clientId) => ({ ...sessionOf(clientId, ''), mchId: fake.queuedWith?.[clientId] ?? 'M', state: 'queued' as const, agentId: null })),
        },
      },
      onlineAgents: async () => onlineAgents,
      merchantsOf: async (agentId) => fake.merchants?.[agentId] ?? ['M'],
      config: { autoAssign, defaultCapacity: 2, capacities: { one: 1 } },
      assigned: async (s) => {
        assigned.push([s.clientId, s.agentId ?? '']);
      },
      onError: (e) => errors.push(e),
      now: () => (clock += 1),
    });
    return { p, assigned, errors };
  }

  it('assigns the queue by the rule until nobody has capacity left', async () => {
    const fake: Fake = { queue: ['v1', 'v2', 'v3', 'v4'], status: { 'agent:one': 'available', 'agent:two': 'available' }, open: {}, last: {} };
    const { p, assigned } = policy(fake);
    p.trigger();
    await p.idle();
    expect(assigned).toEqual([['v1', 'agent:one'], ['v2', 'agent:two'], ['v3', 'agent:two']]);
    expect(fake.queue).toEqual(['v4']);
  });

  it('does nothing when automatic assignment is off, or for away and offline agents', async () => {
    const off = policy({ queue: ['v1'], status: { 'agent:a': 'available' }, open: {}, last: {} }, false);
    off.p.trigger();
    await off.p.idle();
    expect(off.assigned).toEqual([]);
    const fake: Fake = { queue: ['v1'], status: { 'agent:away': 'away', 'agent:gone': 'available' }, open: {}, last: {} };
    const { p, assigned } = policy(fake, true, ['agent:away']);
    expect(await p.route()).toBe(0);
    expect(assigned).toEqual([]);
  });

  it('gives each agent only visitors of its merchants; an agent of no queued merchant is not asked', async () => {
    const fake: Fake = {
      queue: ['a1', 'b1', 'a2', 'b2', 'c1'],
      queuedWith: { a1: 'A', a2: 'A', b1: 'B', b2: 'B', c1: 'C' },
      merchants: { 'agent:ann': ['A'], 'agent:ben': ['B'], 'agent:zoe': ['Z'] },
      status: { 'agent:ann': 'available', 'agent:ben': 'available', 'agent:zoe': 'available' },
      open: {},
      last: {},
    };
    const { p, assigned } = policy(fake);
    expect(await p.route()).toBe(4);
    expect(assigned.sort()).toEqual([['a1', 'agent:ann'], ['a2', 'agent:ann'], ['b1', 'agent:ben'], ['b2', 'agent:ben']]);
    expect(fake.queue).toEqual(['c1']);
    expect(fake.last['agent:zoe']).toBeUndefined();
  });

  it('moves on when an agent filled up elsewhere, and reports a failing pass without throwing', async () => {
    const fake: Fake = { queue: ['v1', 'v2'], status: { 'agent:a': 'available', 'agent:b': 'available' }, open: {}, last: {}, fullElsewhere: new Set(['agent:a']) };
    const { p, assigned, errors } = policy(fake);
    expect(await p.route()).toBe(2);
    expect(assigned.map(([, agent]) => agent)).toEqual(['agent:b', 'agent:b']);
    fake.broken = true;
    fake.queue.push('v3');
    fake.open['agent:b'] = 0;
    p.trigger();
    await p.idle();
    expect(errors).toHaveLength(1);
  });
});
