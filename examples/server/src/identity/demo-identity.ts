/**
 * The demo verified-identity link printed at start-up on loopback (protocol §3b): the demo visitor
 * entry with `?identity=<token>`, a short-lived token for a demo member of the demo merchant,
 * signed with the public demo secret. The reference app reads `identity`, removes it from the
 * address bar at once and connects as the member.
 * @module
 */

import { DEMO } from '../seed.js';
import { signIdentityToken } from './identity-token.js';
import { DEMO_MERCHANT_SECRET } from './merchant-secrets.js';

/** The demo member's id at the demo merchant. */
export const DEMO_MEMBER = { sub: 'demo-member-1', name: 'Demo Member' } as const;

/**
 * The demo link: `<baseUrl><entryPath>?identity=<token>` (the token valid `ttlS` seconds, 1 h by default).
 * @param now - the time (ms)
 */
export async function demoIdentityLink(baseUrl: string, entryPath: string, ttlS = 3600, now: number = Date.now()): Promise<string> {
  const token = await signIdentityToken({ mchId: DEMO.mchId, sub: DEMO_MEMBER.sub, name: DEMO_MEMBER.name, ttlS }, DEMO_MERCHANT_SECRET, now);
  return `${baseUrl}${entryPath}?identity=${token}`;
}
