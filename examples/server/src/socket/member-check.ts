/**
 * The verified-identity part of the connect check (protocol §3b): a connect whose `d` carries an
 * identity token. The token is verified first (a refusal closes with 4006 and a short reason,
 * before anything is stored or bound); then the member's stable visitor id is found or made; the
 * connect's anonymous `u` is merged into it when its §3a secret proves it; and the key session
 * must be unbound, bound to the member, or (merging) bound to that anonymous id.
 * @module
 */

import type { Identity } from '../services/identity.js';
import { isMemberId, type Members } from '../services/members.js';
import type { KeySession } from '../store/types.js';
import { IDENTITY_TOKEN_REFUSED_CLOSE } from './close-codes.js';
import { ConnectRefused, identityRefused } from './connect-refused.js';

/** A verified member's connect. */
export interface VerifiedConnect {
  /** The member's stable visitor id. */
  clientId: string;
  /** The merchant's member id (`sub`). */
  sub: string;
  /** The token's `name`, or undefined. */
  name: string | undefined;
  /** The token's `avatar`, or undefined. */
  avatar: string | undefined;
  /** The anonymous id whose conversation joins the member's at admission (its secret was valid), or undefined. */
  mergeFrom: string | undefined;
}

/** The services the member check calls. */
export interface MemberCheckServices {
  /** Claims (the anonymous id's secret). */
  readonly identity: Pick<Identity, 'checkClaim'>;
  /** Tokens and members. */
  readonly members: Pick<Members, 'verify' | 'memberFor'>;
}

/**
 * Checks a connect's identity token for merchant `mchId`.
 * @param token - `d.identityToken`; null when it was present but not a string.
 * @param clientSecret - `d.clientSecret` (proves `u` for a merge).
 * @throws ConnectRefused 4006 (`expired`, `invalid`, `merchant`) for a refused token; 4004 when the
 *   key session speaks for another identity.
 */
export async function checkMember(
  token: string | null,
  clientSecret: string | undefined,
  u: string,
  mchId: string,
  keySession: KeySession,
  services: MemberCheckServices,
): Promise<VerifiedConnect> {
  const check = token === null ? ({ ok: false, reason: 'invalid' } as const) : await services.members.verify(token, mchId);
  if (!check.ok) throw new ConnectRefused(check.reason, IDENTITY_TOKEN_REFUSED_CLOSE);
  const member = await services.members.memberFor(check.member);
  const anonymous = !isMemberId(u) && u !== member.clientId;
  const proven = anonymous && clientSecret !== undefined && (await services.identity.checkClaim(u, clientSecret)) === 'matches';
  const mergeFrom = proven ? u : undefined;
  const bound = keySession.boundTo;
  if (bound !== null && bound !== member.clientId && (mergeFrom === undefined || bound !== mergeFrom)) throw identityRefused();
  return { clientId: member.clientId, sub: member.sub, name: check.member.name, avatar: check.member.avatar, mergeFrom };
}
