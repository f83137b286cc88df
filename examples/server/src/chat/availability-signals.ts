/**
 * Availability signals (type 320, docs/protocol.md): each visitor connection is told its
 * merchant's availability right after the welcome, and again whenever it changes: agents come
 * or go (on any node: see {@link AvailabilitySignals.changed}) or an hours boundary passes (a
 * timer set at the earliest next change of the merchants with visitors here, and a minute's
 * check as a safety net). Live, never stored: it is only true now.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { Availability, AvailabilitySnapshot, UnavailableReason } from '../services/availability.js';
import type { ServiceSession } from '../store/types.js';
import { SYSTEM_ID, type ChatContext } from './context.js';
import type { Peer } from './hub.js';
import { T, type WireMessage } from './wire.js';

/** How often availability is checked again without any cause (ms): a cluster's far agents, clock drift. */
export const AVAILABILITY_RECHECK_MS = 60_000;
/** Changes within this many ms are told once. */
const COALESCE_MS = 50;

/** The wire form of a snapshot (type 320). */
export function availabilityMessage(to: string, mchId: string, snapshot: AvailabilitySnapshot): WireMessage {
  return {
    type: T.Availability,
    from: SYSTEM_ID,
    to,
    fp: randomUUID(),
    mchId,
    createTime: Date.now(),
    dataContent: JSON.stringify(snapshot),
  };
}

/**
 * The live `unavailable` session event (type 300): the visitor asked for a human and nobody can
 * come now, with why (`closed`: outside business hours; `no-agent`: nobody online) and when the
 * merchant next opens.
 */
export function unavailableEvent(session: ServiceSession, reason: UnavailableReason, snapshot: AvailabilitySnapshot): WireMessage {
  const { open, agentsAvailable, nextOpenAt } = snapshot;
  return {
    type: T.SessionEvent,
    from: SYSTEM_ID,
    to: session.clientId,
    fp: randomUUID(),
    mchId: session.mchId,
    createTime: Date.now(),
    dataContent: JSON.stringify({ event: 'unavailable', sessionId: session.sessionId, reason, open, agentsAvailable, nextOpenAt }),
  };
}

/** Tells visitor connections their merchant's availability when it changes. */
export class AvailabilitySignals {
  /** What each connection was last told (the JSON text), so only changes are sent. */
  private readonly told = new WeakMap<Peer, string>();
  private pending: ReturnType<typeof setTimeout> | null = null;
  private boundary: ReturnType<typeof setTimeout> | null = null;
  private boundaryAt = Number.POSITIVE_INFINITY;
  private readonly recheck: ReturnType<typeof setInterval>;

  /**
   * @param ctx - the chat services' shared state (only the hub: its visitor connections)
   * @param availability - the availability service
   * @param onError - where a failed check is reported
   */
  constructor(
    private readonly ctx: Pick<ChatContext, 'hub'>,
    private readonly availability: Availability,
    private readonly onError: (error: unknown) => void,
  ) {
    this.recheck = setInterval(() => this.changed(), AVAILABILITY_RECHECK_MS);
    this.recheck.unref?.();
  }

  /** Tells one new visitor connection where its merchant stands. */
  async welcome(peer: Peer): Promise<void> {
    if (peer.role !== 'visitor') return;
    const snapshot = await this.availability.of(peer.mchId);
    this.tell(peer, snapshot);
    if (snapshot.nextChangeAt !== null && (snapshot.nextChangeAt < this.boundaryAt || this.boundaryAt <= Date.now())) this.armBoundary(snapshot.nextChangeAt);
  }

  /** Something may have changed: every visitor connection here is checked at the next turn. */
  changed(): void {
    if (this.pending !== null) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      this.flush().catch(this.onError);
    }, COALESCE_MS);
    this.pending.unref?.();
  }

  /** Stops every timer (server shutdown). */
  dispose(): void {
    clearInterval(this.recheck);
    if (this.pending !== null) clearTimeout(this.pending);
    if (this.boundary !== null) clearTimeout(this.boundary);
    this.pending = null;
    this.boundary = null;
    this.boundaryAt = Number.POSITIVE_INFINITY;
  }

  private async flush(): Promise<void> {
    const byMerchant = new Map<string, Promise<AvailabilitySnapshot>>();
    let earliest: number | null = null;
    for (const peer of this.ctx.hub.all()) {
      if (peer.role !== 'visitor') continue;
      let pending = byMerchant.get(peer.mchId);
      if (!pending) {
        pending = this.availability.of(peer.mchId);
        byMerchant.set(peer.mchId, pending);
      }
      const snapshot = await pending;
      this.tell(peer, snapshot);
      if (snapshot.nextChangeAt !== null && (earliest === null || snapshot.nextChangeAt < earliest)) earliest = snapshot.nextChangeAt;
    }
    this.armBoundary(earliest);
  }

  private tell(peer: Peer, snapshot: AvailabilitySnapshot): void {
    // news is what the visitor sees: while open, nextOpenAt is just "now", and nextChangeAt only
    // says when to look again; neither alone is worth a frame
    const key = `${snapshot.open}:${snapshot.agentsAvailable}:${snapshot.open ? '' : String(snapshot.nextOpenAt)}`;
    if (this.told.get(peer) === key) return;
    this.told.set(peer, key);
    peer.send(availabilityMessage(peer.userId, peer.mchId, snapshot));
  }

  /** Checks again right after `at` (an hours boundary) instead of when it was set to; null: not at all. */
  private armBoundary(at: number | null): void {
    if (this.boundary !== null) clearTimeout(this.boundary);
    this.boundary = null;
    this.boundaryAt = at ?? Number.POSITIVE_INFINITY;
    if (at === null) return;
    // setTimeout holds at most ~24.8 days; the minute's check covers anything further
    const wait = Math.min(Math.max(0, at - Date.now()) + 1_000, 2 ** 31 - 1);
    this.boundary = setTimeout(() => {
      this.boundary = null;
      this.boundaryAt = Number.POSITIVE_INFINITY;
      this.changed();
    }, wait);
    this.boundary.unref?.();
  }
}
