/**
 * The start-up key exchange (protocol §1) and the public configuration (docs/protocol.md §2).
 * @module
 */

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gcmEncrypt, obfuscateKey, randomAscii } from '../crypto.js';
import { socketKeyOf } from '../keys.js';
import { SlidingWindowLimiter } from '../socket/rate-limiter.js';
import type { KeySession } from '../store/types.js';
import type { HttpDeps } from './deps.js';
import { ApiError, Code, ok } from './envelope.js';
import { tooManyRequests } from './errors.js';

const REQUEST_KEY = /^[0-9a-fA-F]{32}$/;

function requestKeyOf(request: FastifyRequest): string {
  const query = request.query as { requestKey?: unknown } | undefined;
  const value = query?.requestKey;
  if (typeof value !== 'string' || !REQUEST_KEY.test(value)) {
    throw new ApiError(Code.BadRequest, 'requestKey must be 32 hexadecimal characters');
  }
  return value.toLowerCase();
}

/**
 * The key session of a request key, created on first use (one per request key, expiring).
 * `mayCreate` decides whether a new one may be created now (the per-address limit); when it may
 * not, nothing is created and the call is refused with HTTP 413.
 */
function sessionFor(deps: HttpDeps, requestKey: string, mayCreate: () => boolean): KeySession {
  const store = deps.ctx.store;
  const now = Date.now();
  const existing = store.keys.byRequestKey(requestKey);
  if (existing && existing.lastUsed + deps.ctx.config.keySessionTtlMs >= now) return existing;
  return store.transaction(() => {
    store.keys.deleteUnusedSince(now - deps.ctx.config.keySessionTtlMs);
    const again = store.keys.byRequestKey(requestKey);
    if (again) return again;
    if (!mayCreate()) throw tooManyRequests();
    const session: KeySession = {
      saltKey: randomBytes(18).toString('base64url'),
      requestKey,
      aesKey: randomAscii(32),
      token: randomAscii(32),
      createdAt: now,
      lastUsed: now,
      boundTo: null,
    };
    store.keys.create(session);
    return session;
  });
}

/** Registers getServerTime, getAesKey, getUserToken, switchAES and the public config. */
export function registerKeyRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { keySessionsMax, keySessionsWindowMs } = deps.ctx.config.abuse;
  const newSessions = new SlidingWindowLimiter(keySessionsMax, keySessionsWindowMs);
  const sessionOf = (request: FastifyRequest): KeySession =>
    sessionFor(deps, requestKeyOf(request), () => newSessions.hit(`ip:${request.ip}`, Date.now()));

  app.get('/im/api/permit/getServerTime', async () => ok(Date.now()));

  app.get('/im/api/permit/getAesKey', async (request) => {
    const session = sessionOf(request);
    return ok(obfuscateKey(session.aesKey, session.requestKey));
  });

  app.get('/im/api/permit/getUserToken', async (request) => {
    const session = sessionOf(request);
    return ok({ userToken: gcmEncrypt(Buffer.from(session.aesKey, 'utf8'), session.token), saltKey: session.saltKey });
  });

  app.get('/im/api/permit/switchAES', async () => ok(deps.ctx.config.aesSwitch));

  app.get('/im/api/public/config', async (request) => {
    const baseUrl = deps.baseUrl(request);
    return ok({
      baseUrl,
      socketUrl: `${baseUrl.replace(/^http/, 'ws')}/ws`,
      socketKey: socketKeyOf(deps.keys),
      aesSwitch: deps.ctx.config.aesSwitch,
      translate: deps.ctx.config.translateUrl !== '',
    });
  });
}
