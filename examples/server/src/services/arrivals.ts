/**
 * What a visitor arrived with (desk issue, the context panel's "entry-link parameters"): the
 * visitor page puts the entry link's parameters and its query (`isapp`, `cpay`, the host page's
 * `json`) into its connect data as `d.entry`, a flat object of names and values; the server keeps
 * the latest per visitor and platform for the agents who serve it. It is what the visitor's page
 * said, not something the server vouches for: it is bounded here and shown as text.
 * @module
 */

import type { Store } from '../store/types.js';

/** The most parameters kept of one arrival (further ones are dropped). */
export const MAX_ARRIVAL_PARAMS = 16;
/** The longest value kept (characters; longer values are cut). */
export const MAX_ARRIVAL_VALUE = 256;
/** A parameter name: 1-32 letters, digits, `_`, `-` or `.`. */
export const ARRIVAL_NAME = /^[A-Za-z0-9_.-]{1,32}$/;
/** The parameter that names a merchant order (the page's `cpay`): the context panel shows its deposit card. */
export const ORDER_PARAM = 'cpay';

/**
 * The parameters of a connect's `d.entry`: an object's string, number and boolean values under
 * well-formed names, at most {@link MAX_ARRIVAL_PARAMS}, values trimmed and cut to
 * {@link MAX_ARRIVAL_VALUE}; empty values and anything else are dropped. Never throws.
 */
export function parseArrival(raw: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return params;
  let kept = 0;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (kept >= MAX_ARRIVAL_PARAMS) break;
    if (!ARRIVAL_NAME.test(name) || name === '__proto__') continue;
    const text = typeof value === 'string' ? value : (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' ? String(value) : '';
    const trimmed = text.trim().slice(0, MAX_ARRIVAL_VALUE);
    if (trimmed === '') continue;
    params[name] = trimmed;
    kept += 1;
  }
  return params;
}

/** Visitors' arrivals. */
export class Arrivals {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Keeps what the visitor arrived with at a platform (already parsed by {@link parseArrival});
   * an arrival without parameters keeps the earlier one.
   */
  async record(clientId: string, mchId: string, platformId: string, params: Readonly<Record<string, string>>): Promise<void> {
    if (mchId === '' || Object.keys(params).length === 0) return;
    await this.store.desk.saveArrival({ clientId, mchId, platformId, params: { ...params }, arrivedAt: this.now() });
  }
}
