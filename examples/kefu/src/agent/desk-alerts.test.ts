import { createStore, type UnreadSnapshot } from '@kefu-im/sdk';
import type { AgentDeskSnapshot } from '@kefu-im/sdk/agent';
import { describe, expect, it } from 'vitest';
import { DeskAlerts, type DeskAlert } from './desk-alerts.js';

const EMPTY: AgentDeskSnapshot = { queue: [], sessions: [], online: 1, received: true };
const visitor = (clientId: string, position = 1) => ({ clientId, name: `Name ${clientId}`, since: 0, position });
const session = (clientId: string) => ({ sessionId: `s-${clientId}`, clientId, name: `Name ${clientId}`, since: 0 });

function setup(hidden = true) {
  const queue = createStore<AgentDeskSnapshot>(EMPTY);
  const unread = createStore<UnreadSnapshot>({ total: 0, byConversation: {} });
  const clock = { now: 0, hidden };
  const alerts: DeskAlert[] = [];
  const desk = new DeskAlerts({ queue, unread, now: () => clock.now, hidden: () => clock.hidden, alert: (a) => alerts.push(a) });
  const counts = (byConversation: Record<string, number>) =>
    unread.setState({ byConversation, total: Object.values(byConversation).reduce((a, b) => a + b, 0) });
  return { queue, unread, clock, alerts, desk, counts };
}

describe('desk alerts: a new queued visitor and new messages, while the tab is hidden', () => {
  it('alerts once for a burst of messages', () => {
    const { queue, clock, alerts, counts } = setup();
    queue.setState({ sessions: [session('v1')] });
    for (let n = 1; n <= 5; n++) {
      clock.now += 1_000;
      counts({ v1: n });
    }
    expect(alerts).toEqual([{ kind: 'messages', clientId: 'v1', name: 'Name v1' }]);
  });

  it('alerts for a visitor newly in the queue, never for one already there', () => {
    const { queue, alerts } = setup();
    queue.setState({ queue: [visitor('v1')] });
    expect(alerts).toEqual([{ kind: 'visitor', clientId: 'v1', name: 'Name v1' }]);
  });

  it('a visitor and messages within one burst alert once', () => {
    const { queue, clock, alerts, counts } = setup();
    queue.setState({ queue: [visitor('v1')] });
    clock.now += 3_000;
    counts({ v2: 1 });
    expect(alerts).toHaveLength(1);
  });

  it('after a quiet gap of 10 s the next event alerts again', () => {
    const { clock, alerts, counts } = setup();
    counts({ v1: 1 });
    clock.now += 10_000;
    counts({ v1: 2 });
    expect(alerts).toHaveLength(2);
  });

  it('never alerts while the tab is visible, and coming back ends the burst', () => {
    const { clock, alerts, counts, desk, queue } = setup(false);
    queue.setState({ queue: [visitor('v1')] });
    counts({ v1: 1 });
    expect(alerts).toEqual([]);
    clock.hidden = true;
    counts({ v1: 2 });
    expect(alerts).toHaveLength(1);
    desk.seen();
    clock.now += 1_000;
    counts({ v1: 3 });
    expect(alerts).toHaveLength(2);
  });

  it('counts that fall (read) alert nothing; stops after destroy', () => {
    const { alerts, counts, desk } = setup();
    counts({ v1: 2 });
    desk.seen();
    counts({ v1: 1 });
    counts({});
    expect(alerts).toHaveLength(1);
    desk.destroy();
    desk.seen();
    counts({ v1: 4 });
    expect(alerts).toHaveLength(1);
  });
});
