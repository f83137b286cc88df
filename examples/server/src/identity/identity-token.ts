/**
 * The identity token of protocol §3b: a JWT that a merchant's backend signs with HS256 under a
 * secret it shares with the chat server, vouching for one of its members. Verified with `jose`
 * (`jwtVerify`, HS256 only: `none`, HS384/HS512, RS256 and every other `alg` are refused), never
 * parsed by hand. Checks: the signature under one of the merchant's secrets (several during a
 * rotation), `mch` equal to the connect's merchant, `sub` of 1-128 characters, `exp` present, in
 * the future and at most 24 h ahead, `iat` present and not in the future; optional `name`,
 * `avatar`, `email` of bounded length. Pure: the time and the secrets are passed in.
 * @module
 */

import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';

/** The longest token accepted (characters); a longer one is refused `invalid` before any parsing. */
export const MAX_IDENTITY_TOKEN_CHARS = 4096;
/** How far ahead `exp` may be (seconds): 24 h. */
export const MAX_TOKEN_LIFETIME_S = 24 * 3600;
/** Clock skew tolerated between the merchant's backend and the chat server (seconds). */
export const TOKEN_CLOCK_TOLERANCE_S = 60;
/** The longest `sub` (characters). */
export const MAX_SUB_CHARS = 128;

/** Why a token was refused: the reason of the 4006 close (protocol §3b.3). */
export type TokenRefusal = 'expired' | 'invalid' | 'merchant';

/** The member a valid token vouches for. */
export interface VerifiedMember {
  /** The merchant (`mch`). */
  mchId: string;
  /** The merchant's member id (`sub`). */
  sub: string;
  /** `name`, at most 64 characters, or undefined. */
  name: string | undefined;
  /** `avatar` (an http(s) URL of at most 512 characters), or undefined. */
  avatar: string | undefined;
  /** `email`, at most 254 characters, or undefined. */
  email: string | undefined;
  /** `exp` in ms. */
  expiresAt: number;
}

/** The outcome of {@link verifyIdentityToken}. */
export type TokenCheck = { readonly ok: true; readonly member: VerifiedMember } | { readonly ok: false; readonly reason: TokenRefusal };

const refused = (reason: TokenRefusal): TokenCheck => ({ ok: false, reason });

function optionalText(value: unknown, max: number): string | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max) return null;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The merchant a token names (read without verifying: only to tell `merchant` from `invalid`). */
function claimedMerchant(token: string): string | undefined {
  try {
    const mch = decodeJwt(token)['mch'];
    return typeof mch === 'string' ? mch : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies an identity token for a connect to merchant `mchId`.
 * @param secrets - the merchant's secrets (UTF-8 text); each is tried until one verifies.
 * @param now - the time (ms).
 * @returns the member, or the refusal reason: `merchant` when the token names another merchant
 *   or the merchant has no secret, `expired` when its signature is good but `exp` has passed, and
 *   `invalid` for everything else.
 */
export async function verifyIdentityToken(token: string, mchId: string, secrets: readonly string[], now: number): Promise<TokenCheck> {
  if (token.length === 0 || token.length > MAX_IDENTITY_TOKEN_CHARS) return refused('invalid');
  const named = claimedMerchant(token);
  if (named === undefined) return refused('invalid');
  if (named !== mchId || secrets.length === 0) return refused('merchant');
  for (const secret of secrets) {
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
        algorithms: ['HS256'],
        currentDate: new Date(now),
        clockTolerance: TOKEN_CLOCK_TOLERANCE_S,
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      return checkClaims(payload, mchId, now);
    } catch (error) {
      if (error instanceof errors.JWTExpired) return refused('expired');
      if (error instanceof errors.JWSSignatureVerificationFailed) continue; // the next secret of a rotation
      return refused('invalid');
    }
  }
  return refused('invalid');
}

function checkClaims(payload: Record<string, unknown>, mchId: string, now: number): TokenCheck {
  const { mch, sub, exp, iat } = payload;
  if (mch !== mchId) return refused('merchant');
  if (typeof sub !== 'string' || sub.length < 1 || sub.length > MAX_SUB_CHARS) return refused('invalid');
  if (typeof exp !== 'number' || typeof iat !== 'number') return refused('invalid');
  const nowS = now / 1000;
  if (exp > nowS + MAX_TOKEN_LIFETIME_S + TOKEN_CLOCK_TOLERANCE_S) return refused('invalid');
  if (iat > nowS + TOKEN_CLOCK_TOLERANCE_S) return refused('invalid');
  const name = optionalText(payload['name'], 256);
  const avatar = optionalText(payload['avatar'], 512);
  const email = optionalText(payload['email'], 254);
  if (name === null || avatar === null || email === null) return refused('invalid');
  if (avatar !== undefined && !/^https?:\/\/\S+$/.test(avatar)) return refused('invalid');
  return { ok: true, member: { mchId, sub, name: name?.slice(0, 64), avatar, email, expiresAt: exp * 1000 } };
}

/** What {@link signIdentityToken} puts in a token. */
export interface IdentityClaims {
  /** The merchant. */
  mchId: string;
  /** The member id. */
  sub: string;
  /** Lifetime in seconds (at most {@link MAX_TOKEN_LIFETIME_S}). */
  ttlS: number;
  /** Optional display name. */
  name?: string;
  /** Optional avatar URL. */
  avatar?: string;
  /** Optional e-mail. */
  email?: string;
}

/**
 * Signs an identity token the way a merchant's backend does (the demo link printed at start-up,
 * `admin member token`, and the tests). A merchant's real backend would use any JWT library.
 */
export function signIdentityToken(claims: IdentityClaims, secret: string, now: number = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  const optional = Object.fromEntries(
    Object.entries({ name: claims.name, avatar: claims.avatar, email: claims.email }).filter(([, v]) => v !== undefined),
  );
  return new SignJWT({ mch: claims.mchId, ...optional })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + Math.min(claims.ttlS, MAX_TOKEN_LIFETIME_S))
    .sign(new TextEncoder().encode(secret));
}
