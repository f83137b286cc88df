/**
 * The start-up key exchange (protocol §1) and the public configuration (docs/protocol.md §2).
 * @module
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gcmEncrypt, obfuscateKey } from '../crypto.js';
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

/** Registers getServerTime, getAesKey, getUserToken, switchAES and the public config. */
export function registerKeyRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { keySessionsMax, keySessionsWindowMs } = deps.config.abuse;
  const newSessions = deps.limiter('key-sessions', keySessionsMax, keySessionsWindowMs);
  const sessionOf = (request: FastifyRequest): Promise<KeySession> =>
    deps.services.identity.sessionFor(requestKeyOf(request), () => newSessions.hit(`ip:${request.ip}`, Date.now()));

  app.get('/im/api/permit/getServerTime', async () => ok(Date.now()));

  // key material: never in a compressed body, whatever its size (server.ts)
  const uncompressed = { compress: false } as const;
  app.get('/im/api/permit/getAesKey', uncompressed, async (request) => {
    const session = await sessionOf(request);
    return ok(obfuscateKey(session.aesKey, session.requestKey));
  });

  app.get('/im/api/permit/getUserToken', uncompressed, async (request) => {
    const session = await sessionOf(request);
    return ok({ userToken: gcmEncrypt(Buffer.from(session.aesKey, 'utf8'), session.token), saltKey: session.saltKey });
  });

  app.get('/im/api/permit/switchAES', async () => ok(deps.config.aesSwitch));

  app.get('/im/api/public/config', async (request) => {
    const baseUrl = deps.baseUrl(request);
    return ok({
      baseUrl,
      socketUrl: `${baseUrl.replace(/^http/, 'ws')}/ws`,
      socketKey: socketKeyOf(deps.keys),
      aesSwitch: deps.config.aesSwitch,
      translate: deps.config.translateUrl !== '',
    });
  });
}
