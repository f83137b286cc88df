/**
 * The types of availability (business hours, agents available, the queue's estimated wait), kept
 * apart from the store so that the event map and the client name them without loading it.
 * @module
 */

/** Why nobody can come for a visitor who asked for a human. */
export type UnavailableReason = 'closed' | 'no-agent' | (string & {});

/** Where the visitor stands in the queue, while queued. */
export interface QueueEstimate {
  /** 1-based position. */
  position: number;
  /** The server's estimated wait in ms (recent accept times times the position); null when it has none. */
  etaMs: number | null;
}

/** The server's answer to a transfer (type 301) when nobody could come. */
export interface UnavailableAnswer {
  /** `closed`: outside business hours (not queued); `no-agent`: nobody online (queued, busy). */
  reason: UnavailableReason;
  /** When the merchant next opens (ms), null when unknown or never. */
  nextOpenAt: number | null;
}

/** What the availability store holds (docs/protocol.md, "Availability and business hours"). */
export interface AvailabilitySnapshot {
  /** False until the server said anything (type 320 or the getAvailability call). */
  known: boolean;
  /** Inside the merchant's business hours now (true until known). */
  open: boolean;
  /** At least one agent is online now. */
  agentsAvailable: boolean;
  /** When the merchant next opens (ms; now while open), null when unknown or never. */
  nextOpenAt: number | null;
  /** The position and estimated wait while queued. */
  queue?: QueueEstimate;
  /**
   * The answer to the latest transfer when nobody could come, until someone can (open with an
   * agent online) or an agent joined; null otherwise.
   */
  unavailable: UnavailableAnswer | null;
}

/** The snapshot before the server said anything: open, nobody known to be available. */
export const INITIAL_AVAILABILITY: Readonly<AvailabilitySnapshot> = Object.freeze({
  known: false,
  open: true,
  agentsAvailable: false,
  nextOpenAt: null,
  unavailable: null,
});
