/**
 * The availability service alone, over a stand-in store and a fixed clock: which hours apply,
 * open / agents available / next opening, why nobody can come, and the estimated wait.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Availability, estimatedWait } from '../../src/services/availability.js';
import { parseBusinessHours } from '../../src/services/business-hours.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

const MONDAY_10_UTC = Date.parse('2026-11-23T10:00:00Z');
const ninetoSix = parseBusinessHours({ timeZone: 'UTC', days: { mon: [['09:00', '18:00']], tue: [['09:00', '18:00']] } });

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** The service over a real in-memory store holding `stored` hours and accepts that waited `waits`. */
async function service(options: { stored?: Record<string, string>; waits?: number[]; agents?: number; at?: number; configured?: Record<string, typeof ninetoSix> } = {}) {
  const store = new SqliteStore(':memory:');
  stores.push(store);
  for (const [mchId, hours] of Object.entries(options.stored ?? {})) await store.directory.putMerchantHours(mchId, hours, 0);
  for (const [i, wait] of (options.waits ?? []).entries()) {
    const queuedAt = 1_000_000 + i * 1_000;
    await store.chat.createSession({
      ...{ sessionId: `s${i}`, clientId: `v${i}`, mchId: 'M1', platformId: 'P1', state: 'ended', agentId: 'agent:a' },
      ...{ createdAt: queuedAt, queuedAt, acceptedAt: queuedAt + wait, endedAt: queuedAt + wait, score: null, remark: null },
    });
  }
  return new Availability({ store, configured: options.configured ?? {}, agentsOnline: async () => options.agents ?? 0, now: () => options.at ?? MONDAY_10_UTC });
}

describe('which hours apply: the admin command\'s, then MERCHANT_HOURS for the merchant, then for "*"', () => {
  it('stored hours win; a merchant without any is always open', async () => {
    const never = JSON.stringify({ timeZone: 'UTC', days: {} });
    const s = await service({ stored: { M1: never }, configured: { M1: ninetoSix, '*': ninetoSix } });
    expect(await s.hoursOf('M1')).toEqual({ timeZone: 'UTC', days: {} });
    expect(await s.hoursOf('M2')).toBe(ninetoSix);
    expect(await (await service()).hoursOf('M2')).toBeUndefined();
  });

  it('unreadable stored hours count as none, never as a crash', async () => {
    expect(await (await service({ stored: { M1: '{broken' } })).hoursOf('M1')).toBeUndefined();
  });

  it('setHours checks before storing, and null removes', async () => {
    const s = await service();
    await expect(s.setHours('M1', { timeZone: 'UTC', days: { mon: 'x' } })).rejects.toThrow(/list/);
    await s.setHours('M1', { timeZone: 'UTC', days: {} });
    expect((await s.of('M1')).open).toBe(false);
    await s.setHours('M1', null);
    expect((await s.of('M1')).open).toBe(true);
  });
});

describe('the snapshot and why nobody can come', () => {
  it('Monday 10:00 inside 09-18 with an agent: open, available, closes at 18:00', async () => {
    const snapshot = await (await service({ configured: { '*': ninetoSix }, agents: 2 })).of('M1');
    expect(snapshot).toEqual({ open: true, agentsAvailable: true, nextOpenAt: MONDAY_10_UTC, nextChangeAt: Date.parse('2026-11-23T18:00:00Z') });
    expect(Availability.unavailableReason(snapshot)).toBeNull();
  });

  it('Monday 20:00: closed until Tuesday 09:00 (reason closed, even with agents online)', async () => {
    const snapshot = await (await service({ configured: { '*': ninetoSix }, agents: 1, at: Date.parse('2026-11-23T20:00:00Z') })).of('M1');
    expect(snapshot).toMatchObject({ open: false, agentsAvailable: true, nextOpenAt: Date.parse('2026-11-24T09:00:00Z') });
    expect(Availability.unavailableReason(snapshot)).toBe('closed');
  });

  it('open with nobody online: reason no-agent', async () => {
    expect(Availability.unavailableReason(await (await service()).of('M1'))).toBe('no-agent');
  });
});

describe('the estimated wait: the median of the latest accept waits times the position', () => {
  it('median of an odd and an even sample; times the position; rounded to the second', async () => {
    expect(await (await service({ waits: [30_000, 10_000, 20_000] })).etaMs(3)).toBe(60_000);
    expect(await (await service({ waits: [10_000, 20_000, 31_000, 40_000] })).etaMs(1)).toBe(26_000);
    expect(estimatedWait(1_400, 1)).toBe(1_000);
  });

  it('no accepts yet, or no position: no estimate (null)', async () => {
    expect(await (await service()).etaMs(1)).toBeNull();
    expect(await (await service({ waits: [5_000] })).etaMs(0)).toBeNull();
  });
});
