/**
 * Identity tokens of protocol §3b as a merchant's backend makes them (HS256 JWTs), and the broken
 * ones an attacker makes (`alg: none`, a wrong signature, a tampered payload). Built here from
 * node:crypto: the kit only signs and forges tokens; it never verifies or parses one.
 * @module
 */

import { createHmac } from 'node:crypto';

const part = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/** The claims of an identity token. */
export interface IdentityTokenClaims {
  /** The merchant (`mch`). */
  mch: string;
  /** The member id (`sub`). */
  sub: string;
  /** Issued at (seconds). */
  iat: number;
  /** Expires at (seconds). */
  exp: number;
  /** Further claims (`name`, ...). */
  [claim: string]: unknown;
}

/**
 * A compact JWS: `header.payload.signature`, HS256 under `secret` unless the header says `none`
 * (then the signature is empty).
 * @param claims - the payload
 * @param secret - the merchant secret (UTF-8)
 * @param alg - the header's `alg` (`HS256`, or `none` to forge)
 */
export function identityToken(claims: IdentityTokenClaims, secret: string, alg: 'HS256' | 'none' = 'HS256'): string {
  const signingInput = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  if (alg === 'none') return `${signingInput}.`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

/**
 * Claims for member `sub` of merchant `mch`, valid `ttlS` seconds from `now` (negative: expired).
 * @param now - the time (ms)
 */
export function memberClaims(mch: string, sub: string, ttlS: number, now: number = Date.now()): IdentityTokenClaims {
  const iat = Math.floor(now / 1000) - (ttlS < 0 ? 600 : 0);
  return { mch, sub, iat, exp: Math.floor(now / 1000) + ttlS };
}
