/**
 * Type 320 to visitor connections, with fake timers: told once after the welcome, again only
 * when something changed (coalesced), at the hours boundary without any other cause, and no
 * timer left after dispose.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvailabilitySignals } from '../../src/chat/availability-signals.js';
import { Hub, type Peer } from '../../src/chat/hub.js';
import type { WireMessage } from '../../src/chat/wire.js';
import { Availability } from '../../src/services/availability.js';
import { parseBusinessHours } from '../../src/services/business-hours.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

const MONDAY_17_58_UTC = Date.parse('2026-11-23T17:58:00Z');
const hours = parseBusinessHours({ timeZone: 'UTC', days: { mon: [['09:00', '18:00']] } });

let store: SqliteStore;
beforeEach(() => {
  vi.useFakeTimers({ now: MONDAY_17_58_UTC });
  store = new SqliteStore(':memory:');
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
});

/** A visitor connection that records what it is sent. */
function visitorPeer(userId: string, mchId = 'M1'): Peer & { got: WireMessage[] } {
  const got: WireMessage[] = [];
  return { userId, role: 'visitor', name: userId, avatar: '', mchId, platformId: 'P1', language: 'en', saltKey: userId, send: (m) => got.push(m), close: () => undefined, got };
}

function setUp(agents: { online: number }) {
  const hub = new Hub();
  const availability = new Availability({ store, configured: { M1: hours }, agentsOnline: async () => agents.online });
  const errors: unknown[] = [];
  return { hub, signals: new AvailabilitySignals({ hub }, availability, (e) => errors.push(e)), errors };
}

const told = (peer: { got: WireMessage[] }) => peer.got.map((m) => JSON.parse(String(m.dataContent)) as { open: boolean; agentsAvailable: boolean });

describe('type 320 is told after the welcome and then only when it changes', () => {
  it('welcome tells once; an agent coming is told to every visitor here once, however many changes came at once', async () => {
    const agents = { online: 0 };
    const { hub, signals } = setUp(agents);
    const a = visitorPeer('a');
    const b = visitorPeer('b');
    const desk = { ...visitorPeer('agent:x'), role: 'agent' as const };
    for (const peer of [a, b, desk]) hub.add(peer);
    await signals.welcome(a);
    await signals.welcome(b);
    await signals.welcome(desk);
    expect(told(a)).toEqual([expect.objectContaining({ open: true, agentsAvailable: false })]);
    expect(desk.got).toEqual([]); // agents are not told
    signals.changed();
    await vi.advanceTimersByTimeAsync(100);
    expect(a.got).toHaveLength(1); // nothing changed (the clock moving is no news), nothing sent
    agents.online = 1;
    signals.changed();
    signals.changed();
    await vi.advanceTimersByTimeAsync(100);
    expect(told(a).map((x) => x.agentsAvailable)).toEqual([false, true]);
    expect(told(b).map((x) => x.agentsAvailable)).toEqual([false, true]);
    expect(a.got[1]).toMatchObject({ type: 320, from: 'system', to: 'a', mchId: 'M1' });
    signals.dispose();
  });

  it('the closing minute (18:00 on Monday) is told without any other cause', async () => {
    const { hub, signals } = setUp({ online: 1 });
    const a = visitorPeer('a');
    hub.add(a);
    await signals.welcome(a);
    expect(told(a)).toEqual([expect.objectContaining({ open: true })]);
    await vi.advanceTimersByTimeAsync(2 * 60_000 + 2_000);
    expect(told(a).map((x) => x.open)).toEqual([true, false]);
    // open on Mondays only: next Monday 09:00
    expect(JSON.parse(String(a.got[1]?.dataContent))).toMatchObject({ nextOpenAt: Date.parse('2026-11-30T09:00:00Z') });
    signals.dispose();
  });

  it('dispose leaves no timer', async () => {
    const { hub, signals } = setUp({ online: 0 });
    const a = visitorPeer('a');
    hub.add(a);
    await signals.welcome(a);
    signals.changed();
    signals.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
