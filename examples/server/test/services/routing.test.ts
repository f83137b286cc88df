/**
 * The routing rule (pure): fewest open conversations, ties to the longest idle, nobody over
 * capacity, away agents excluded.
 */
import { describe, expect, it } from 'vitest';
import { isAgentStatus, nextAgent, type RoutingCandidate } from '../../src/services/routing.js';

function agent(agentId: string, over: Partial<RoutingCandidate> = {}): RoutingCandidate {
  return { agentId, status: 'available', capacity: 3, open: 0, lastAssignedAt: null, ...over };
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
