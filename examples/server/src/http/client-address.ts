/**
 * The client's address for the per-address limits: the TCP peer, or, when that peer is a trusted
 * reverse proxy (`TRUST_PROXY`), the nearest untrusted address of `X-Forwarded-For`. A client
 * cannot forge its address by sending `X-Forwarded-For` itself: the header is read only when the
 * peer is trusted, and only as far back as the chain of trusted proxies goes.
 * @module
 */

import { isIP } from 'node:net';

/** Decides whether an address is a trusted proxy. */
export type TrustProxy = (address: string) => boolean;

function normalise(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed.toLowerCase();
}

/** A {@link TrustProxy} for a list of exact addresses (`TRUST_PROXY`); an empty list trusts nobody. */
export function trustProxyOf(addresses: readonly string[]): TrustProxy {
  const trusted = new Set(addresses.map(normalise));
  return (address) => trusted.has(normalise(address));
}

/**
 * The client's address.
 * @param peer - the TCP peer's address
 * @param forwardedFor - the `X-Forwarded-For` header, if any
 * @param trust - which addresses are trusted proxies
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trust: TrustProxy): string {
  let address = normalise(peer ?? '');
  if (!trust(address)) return address;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor ?? '';
  const hops = header.split(',').map((h) => h.trim()).filter((h) => h !== '').reverse();
  for (const hop of hops) {
    if (isIP(normalise(hop)) === 0) return address; // garbage ends the chain at the last good hop
    address = normalise(hop);
    if (!trust(address)) return address;
  }
  return address;
}
