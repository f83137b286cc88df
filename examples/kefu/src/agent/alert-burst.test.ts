import { describe, expect, it } from 'vitest';
import { addToBurst, BURST_GAP_MS, NO_BURST, type BurstState } from './alert-burst.js';

/** Feeds events at the given times; returns which of them opened a burst. */
function alerts(times: number[], gap?: number): boolean[] {
  let state: BurstState = NO_BURST;
  return times.map((t) => {
    const next = addToBurst(state, t, gap);
    state = next.state;
    return next.opens;
  });
}

describe('desk alerts: one per burst, not one per message', () => {
  it('the first event alerts; events within the quiet gap of the last one join its burst', () => {
    expect(alerts([0, 1_000, 2_000, 9_999])).toEqual([true, false, false, false]);
  });

  it('a burst goes on as long as its events keep coming within the gap', () => {
    expect(alerts([0, 9_000, 18_000, 27_000])).toEqual([true, false, false, false]);
  });

  it('a quiet gap of 10 s ends the burst: the next event alerts again', () => {
    expect(BURST_GAP_MS).toBe(10_000);
    expect(alerts([0, 5_000, 15_000, 15_001])).toEqual([true, false, true, false]);
  });

  it('takes the gap as given', () => {
    expect(alerts([0, 500, 1_000], 500)).toEqual([true, true, true]);
  });

  it('a clock that went back opens a new burst rather than silencing alerts', () => {
    expect(alerts([50_000, 10_000])).toEqual([true, true]);
  });
});
