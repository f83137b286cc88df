/**
 * The start-up key exchange (protocol §1) and the public configuration (docs/protocol.md §2).
 * @module
 */

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gcmEncrypt, obfuscateKey, randomAscii } from '../crypto.js';
import { socketKeyOf } from '../keys.js';
import type { KeySession } from '../store/types.js';
import type { HttpDeps } from './deps.js';
import { ApiError, Code, ok } from './envelope.js';

const REQUEST_KEY = /^[0-9a-fA-F]{32}$/;

function requestKeyOf(request: FastifyRequest): string {
  const query = request.query as { requestKey?: unknown } | undefined;
  const value = query?.requestKey;
  if (typeof value !== 'string' || !REQUEST_KEY.test(value)) {
    throw new ApiError(Code.BadRequest, 'requestKey must be 32 hexadecimal characters');
  }
  return value.toLowerCase();
}

/** The key session of a request key, created on first use (one per request key, expiring). */
function sessionFor(deps: HttpDeps, requestKey: string): KeySession {
  const store = deps.ctx.store;
  const now = Date.now();
  const existing = store.keys.byRequestKey(requestKey);
  if (existing && existing.lastUsed + deps.ctx.config.keySessionTtlMs >= now) return existing;
  return store.transaction(() => {
    store.keys.deleteUnusedSince(now - deps.ctx.config.keySessionTtlMs);
    const again = store.keys.byRequestKey(requestKey);
    if (again) return again;
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
  app.get('/im/api/permit/getServerTime', async () => ok(Date.now()));

  app.get('/im/api/permit/getAesKey', async (request) => {
    const requestKey = requestKeyOf(request);
    const session = sessionFor(deps, requestKey);
    return ok(obfuscateKey(session.aesKey, requestKey));
  });

  app.get('/im/api/permit/getUserToken', async (request) => {
    const session = sessionFor(deps, requestKeyOf(request));
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
    });
  });
}
