/**
 * What the HTTP routes share. Routes reach the store only through {@link Services}.
 * @module
 */

import type { FastifyRequest } from 'fastify';
import type { LimiterFactory } from '../cluster/node-services.js';
import type { ServerConfig } from '../config.js';
import type { ServerKeys } from '../keys.js';
import type { Services } from '../services/index.js';

/** The routes' dependencies. */
export interface HttpDeps {
  /** Configuration. */
  config: ServerConfig;
  /** The services (every rule; the only way to the store). */
  services: Services;
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
