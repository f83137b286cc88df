/**
 * One alert per burst (live signals): events that follow each other with less than a quiet gap
 * between them form one burst, and only its first event alerts. A pure rule with the time
 * passed in, so that it is tested without clocks.
 * @module
 */

/** The quiet gap that ends a burst, ms. */
export const BURST_GAP_MS = 10_000;

/** Where a burst stands: the time of its last event, or null when none is open. */
export interface BurstState {
  /** The time of the last event of the open burst, ms; null: no burst is open. */
  readonly lastEventAt: number | null;
}

/** No burst open. */
export const NO_BURST: BurstState = Object.freeze({ lastEventAt: null });

/**
 * Adds an event to the bursts.
 * @param state - where the burst stands
 * @param now - the event's time, ms
 * @param gap - the quiet gap that ends a burst, ms (default {@link BURST_GAP_MS})
 * @returns the new state, and whether this event opens a burst (then, and only then, alert)
 */
export function addToBurst(state: BurstState, now: number, gap = BURST_GAP_MS): { state: BurstState; opens: boolean } {
  const last = state.lastEventAt;
  const opens = last === null || !(now - last < gap) || now < last; // a clock that went back opens a new burst
  return { state: { lastEventAt: now }, opens };
}
