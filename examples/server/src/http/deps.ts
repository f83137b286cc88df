/**
 * What the HTTP routes share.
 * @module
 */

import type { FastifyRequest } from 'fastify';
import type { ChatContext } from '../chat/context.js';
import type { Sessions } from '../chat/sessions.js';
import type { LimiterFactory } from '../cluster/node-services.js';
import type { ServerKeys } from '../keys.js';

/** The routes' dependencies. */
export interface HttpDeps {
  /** Shared chat state (store, hub, clock, config). */
  ctx: ChatContext;
  /** Service sessions. */
  sessions: Sessions;
  /** The server's secrets. */
  keys: ServerKeys;
  /**
   * The public base URL (`http://host:port`): `PUBLIC_URL`, else the request's `Host`, else the
   * listening address.
   */
  baseUrl: (request?: FastifyRequest) => string;
  /** Rate limits (one allowance for the whole cluster when there is one). */
  limiter: LimiterFactory;
}
