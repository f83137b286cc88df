/**
 * Who calls (protocol §3a.3): the identity a key session is bound to, and whether it may name a
 * given visitor (the rule is {@link Identity.mayActFor}). Anything else is code 4003 and nothing
 * is read or changed.
 * @module
 */

import type { FastifyRequest } from 'fastify';
import { roleOf, type Identity } from '../services/identity.js';
import type { KeySession } from '../store/types.js';
import type { HttpDeps } from './deps.js';
import { requireSession, saltKeyOf } from './enc.js';
import { ApiError, Code } from './envelope.js';

/** The bound identity behind a request. */
export interface Caller {
  /** The client id, or `agent:<account>`. */
  readonly identity: string;
  /** Visitor or agent. */
  readonly role: 'visitor' | 'agent';
  /**
   * Checks that the caller may act for `clientId` (in its conversation with `mchId`, when the call
   * names a merchant: an agent's must be one of its merchants).
   * @throws ApiError 4003 otherwise.
   * @returns `clientId`.
   */
  actFor(clientId: string, mchId?: string): Promise<string>;
  /** The merchants the caller works for (an agent's; none for a visitor). */
  merchants(): Promise<readonly string[]>;
  /**
   * Checks that the caller is an agent of merchant `mchId`.
   * @throws ApiError 4003 otherwise.
   * @returns `mchId`.
   */
  requireMerchant(mchId: string): Promise<string>;
}

/** The refusal of protocol §3a: code 4003. */
export function forbidden(message = 'Forbidden: this key session may not act for that visitor'): ApiError {
  return new ApiError(Code.Forbidden, message);
}

/**
 * The caller of a key session.
 * @throws ApiError 4003 when the key session is not bound (no accepted socket connect yet).
 */
export function callerOf(identities: Identity, session: KeySession): Caller {
  const identity = session.boundTo;
  if (identity === null || identity === '') {
    throw forbidden('Forbidden: connect the socket first (this key session speaks for nobody yet)');
  }
  return {
    identity,
    role: roleOf(identity),
    actFor: async (clientId, mchId) => {
      if (!(await identities.mayActFor(identity, clientId, mchId))) throw forbidden();
      return clientId;
    },
    merchants: () => identities.merchantsOf(identity),
    requireMerchant: async (mchId) => {
      if (!(await identities.merchantsOf(identity)).includes(mchId)) throw forbidden('Forbidden: not an agent of that merchant');
      return mchId;
    },
  };
}

/**
 * The caller of a host-root request (uploads): the live, bound key session of `X-Salt-Key`.
 * @throws ApiError 4003 without `X-Salt-Key` or when unbound; 1002 when unknown or expired.
 */
export async function requireCaller(request: FastifyRequest, deps: HttpDeps): Promise<Caller> {
  if (saltKeyOf(request) === '') throw forbidden('Forbidden: uploads need a key session (X-Salt-Key) bound by a socket connect');
  return callerOf(deps.services.identity, await requireSession(request, deps.services.identity));
}
