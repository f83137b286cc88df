/**
 * Availability: whether a merchant's visitors can reach a human now. Two things decide it: the
 * merchant's business hours (the admin command's hours in the store win over `MERCHANT_HOURS`;
 * none at all is always open) and whether an agent of that merchant is online in the cluster and
 * available. The queue's estimated wait is computed here too, from how long the latest accepted
 * visitors waited.
 * @module
 */

import type { Store } from '../store/types.js';
import { nextChangeAt, nextOpenAt, parseBusinessHours, type BusinessHours } from './business-hours.js';

/** What a visitor is told about availability (the `dataContent` of type 320, docs/protocol.md). */
export interface AvailabilitySnapshot {
  /** Inside business hours now (always true without hours). */
  open: boolean;
  /** At least one agent is online now and available (not `away`). */
  agentsAvailable: boolean;
  /** When the merchant next opens (ms): now when open; null when it never opens. */
  nextOpenAt: number | null;
  /** When the open/closed state next changes (ms), null when it never does. */
  nextChangeAt: number | null;
}

/** Why nobody can come for a visitor asking for a human. */
export type UnavailableReason = 'closed' | 'no-agent';

/** How many of the latest accepts the estimated wait is computed from. */
export const ETA_SAMPLE = 20;

/** Hours by merchant id from the configuration (`MERCHANT_HOURS`); `*` applies to every other merchant. */
export type HoursByMerchant = Readonly<Record<string, BusinessHours>>;

/** What the service reads. */
export interface AvailabilityDeps {
  /** Storage (hours set with the admin command, the latest accepts). */
  store: Store;
  /** The configured hours (`MERCHANT_HOURS`). */
  configured: HoursByMerchant;
  /** How many agents of the merchant are online (in the cluster) and available (not `away`). */
  agentsOnline(mchId: string): Promise<number>;
  /** The clock; `Date.now` by default. */
  now?: () => number;
}

/** The median of a non-empty list. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The availability service. */
export class Availability {
  private readonly now: () => number;

  /** @param deps - storage, the configured hours, agent presence and the clock */
  constructor(private readonly deps: AvailabilityDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * The merchant's hours: the store's (admin command) first, then `MERCHANT_HOURS` for it, then
   * `MERCHANT_HOURS` for `*`; undefined (always open) when none. Unreadable stored hours count
   * as none, never as a crash (the admin command checks them before storing).
   */
  async hoursOf(mchId: string): Promise<BusinessHours | undefined> {
    const stored = await this.deps.store.directory.merchantHours(mchId);
    if (stored !== undefined) {
      try {
        return parseBusinessHours(JSON.parse(stored));
      } catch {
        return undefined;
      }
    }
    return this.deps.configured[mchId] ?? this.deps.configured['*'];
  }

  /** Sets (or, with null, removes) the merchant's hours in the store. @throws HoursError for bad hours */
  async setHours(mchId: string, hours: unknown): Promise<BusinessHours | null> {
    const parsed = hours === null ? null : parseBusinessHours(hours);
    await this.deps.store.directory.putMerchantHours(mchId, parsed === null ? null : JSON.stringify(parsed), this.now());
    return parsed;
  }

  /** The merchant's availability now. */
  async of(mchId: string): Promise<AvailabilitySnapshot> {
    const hours = await this.hoursOf(mchId);
    const at = this.now();
    const open = nextOpenAt(hours, at);
    return {
      open: open === at,
      agentsAvailable: (await this.deps.agentsOnline(mchId)) > 0,
      nextOpenAt: open,
      nextChangeAt: nextChangeAt(hours, at),
    };
  }

  /** Why nobody can come for a visitor of this availability, or null when someone can. */
  static unavailableReason(snapshot: AvailabilitySnapshot): UnavailableReason | null {
    if (!snapshot.open) return 'closed';
    return snapshot.agentsAvailable ? null : 'no-agent';
  }

  /**
   * The median of the latest {@link ETA_SAMPLE} queue waits (accept time minus queue time, ms):
   * what one place in the queue is estimated to cost ({@link estimatedWait}). Null before any
   * visitor was accepted (nothing to estimate from).
   */
  async waitPerPlace(): Promise<number | null> {
    const waits = (await this.deps.store.chat.recentWaits(ETA_SAMPLE)).filter((w) => Number.isFinite(w) && w >= 0);
    return waits.length === 0 ? null : median(waits);
  }

  /** The estimated wait (ms) of the visitor at `position` (1-based); see {@link estimatedWait}. */
  async etaMs(position: number): Promise<number | null> {
    return estimatedWait(await this.waitPerPlace(), position);
  }
}

/**
 * The estimated wait at `position` (1-based): the wait per place times the position, rounded to
 * the second; null when there is no estimate or no position.
 */
export function estimatedWait(perPlace: number | null, position: number): number | null {
  if (perPlace === null || position < 1) return null;
  return Math.round((perPlace * position) / 1000) * 1000;
}
