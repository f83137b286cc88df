/**
 * The admin API (`/admin/api/...`), for the operator's own tools, never for visitors or agents:
 *
 * - `GET /admin/api/visitors/:clientId`: everything stored about the visitor, as JSON
 *   ({@link VisitorExport});
 * - `DELETE /admin/api/visitors/:clientId`: deletes it all, files and live sockets included
 *   ({@link VisitorDeleted});
 * - `GET /admin/api/retention`: the retention in force and the cluster's latest runs.
 *
 * Every call needs `Authorization: Bearer <ADMIN_TOKEN>`; the token is kept only as its SHA-256
 * and compared in constant time. Without `ADMIN_TOKEN` the API is off and says so (HTTP 404). Key
 * sessions, salt keys and agent logins count for nothing here. Calls are limited per client
 * address (`ADMIN_RATE_MAX` per `ADMIN_RATE_WINDOW_MS`, HTTP 413 beyond, wrong tokens included);
 * answers are never cached.
 * @module
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { secretMatches } from '../identity/secrets.js';
import type { VisitorDeleted, VisitorExport } from '../services/privacy.js';
import type { HttpDeps } from './deps.js';
import { ApiError, Code, ok } from './envelope.js';

/** The path prefix of the admin API. */
export const ADMIN_PREFIX = '/admin/api/';

/** The bearer token of a request, or '' when there is none. */
function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return '';
  const match = /^Bearer[ ]+(\S{1,256})\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * Lets the request through when it carries the admin token.
 * @throws ApiError HTTP 404 (code 1003) when the admin API is off; HTTP 401 (code 4003) without the right token.
 */
export function requireAdmin(request: FastifyRequest, reply: FastifyReply, tokenHash: string): void {
  reply.header('cache-control', 'no-store');
  if (tokenHash === '') throw new ApiError(Code.NotFound, 'The admin API is off: set ADMIN_TOKEN on the server to turn it on', 404);
  const token = bearerOf(request);
  // compared even when missing (against the empty string's hash), so that the time says nothing
  if (!secretMatches(token, tokenHash)) {
    reply.header('www-authenticate', 'Bearer realm="kefu-admin"');
    throw new ApiError(
      Code.Forbidden,
      token === '' ? 'Unauthorized: send the admin token as "Authorization: Bearer <ADMIN_TOKEN>"' : 'Unauthorized: the admin token is wrong',
      401,
    );
  }
}

/** Registers the admin API (see the module comment). */
export function registerAdminRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { privacy: settings } = deps.config;
  const { privacy, retention } = deps.services;
  const limited = {
    config: {
      rateLimit: {
        max: settings.adminRateMax,
        timeWindow: settings.adminRateWindowMs,
        // per address, whatever salt key a request shows: a visitor's key session is worth nothing here
        keyGenerator: (request: FastifyRequest) => `admin:${request.ip}`,
      },
    },
  };
  const clientIdOf = (request: FastifyRequest): string => (request.params as { clientId?: string }).clientId ?? '';

  app.get(`${ADMIN_PREFIX}visitors/:clientId`, limited, async (request, reply) => {
    requireAdmin(request, reply, settings.adminTokenHash);
    const exported: VisitorExport = await privacy.export(clientIdOf(request), deps.baseUrl(request));
    return ok(exported);
  });

  app.delete(`${ADMIN_PREFIX}visitors/:clientId`, limited, async (request, reply) => {
    requireAdmin(request, reply, settings.adminTokenHash);
    const deleted: VisitorDeleted = await privacy.delete(clientIdOf(request));
    return ok(deleted);
  });

  app.get(`${ADMIN_PREFIX}retention`, limited, async (request, reply) => {
    requireAdmin(request, reply, settings.adminTokenHash);
    return ok({ ...(await retention.setting()), intervalMs: settings.retentionIntervalMs, runs: await retention.runs(20) });
  });

  // anything else under the prefix: the same gate first (no probing of what exists without the token)
  app.all(`${ADMIN_PREFIX}*`, limited, async (request, reply) => {
    requireAdmin(request, reply, settings.adminTokenHash);
    throw new ApiError(Code.NotFound, `Not found: ${request.method} ${request.url.split('?')[0] ?? ''}`, 404);
  });
}
