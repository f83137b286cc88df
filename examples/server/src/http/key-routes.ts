/**
 * The start-up key exchange (protocol §1) and the public configuration (docs/protocol.md §2).
 * @module
 */

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gcmEncrypt, obfuscateKey, randomAscii } from '../crypto.js';
import { socketKeyOf } from '../keys.js';
import type { KeySession, Store } from '../store/types.js';
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
async function sessionFor(deps: HttpDeps, requestKey: string, mayCreate: () => boolean | Promise<boolean>): Promise<KeySession> {
  const store = deps.ctx.store;
  const now = Date.now();
  const existing = await store.keys.byRequestKey(requestKey);
  if (existing && existing.lastUsed + deps.ctx.config.keySessionTtlMs >= now) return existing;
  try {
    return await store.transaction((tx) => createSession(tx, deps, requestKey, now, mayCreate));
  } catch (error) {
    // two first calls with one request key at once (on two nodes): the other one created it
    const made = await store.keys.byRequestKey(requestKey);
    if (made && !(error instanceof ApiError)) return made;
    throw error;
  }
}

async function createSession(tx: Store, deps: HttpDeps, requestKey: string, now: number, mayCreate: () => boolean | Promise<boolean>): Promise<KeySession> {
  await tx.keys.deleteUnusedSince(now - deps.ctx.config.keySessionTtlMs);
  const again = await tx.keys.byRequestKey(requestKey);
  if (again) return again;
  if (!(await mayCreate())) throw tooManyRequests();
  const session: KeySession = {
    saltKey: randomBytes(18).toString('base64url'),
    requestKey,
    aesKey: randomAscii(32),
    token: randomAscii(32),
    createdAt: now,
    lastUsed: now,
    boundTo: null,
  };
  await tx.keys.create(session);
  return session;
}

/** Registers getServerTime, getAesKey, getUserToken, switchAES and the public config. */
export function registerKeyRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { keySessionsMax, keySessionsWindowMs } = deps.ctx.config.abuse;
  const newSessions = deps.limiter('key-sessions', keySessionsMax, keySessionsWindowMs);
  const sessionOf = (request: FastifyRequest): Promise<KeySession> =>
    sessionFor(deps, requestKeyOf(request), () => newSessions.hit(`ip:${request.ip}`, Date.now()));

  app.get('/im/api/permit/getServerTime', async () => ok(Date.now()));

  app.get('/im/api/permit/getAesKey', async (request) => {
    const session = await sessionOf(request);
    return ok(obfuscateKey(session.aesKey, session.requestKey));
  });

  app.get('/im/api/permit/getUserToken', async (request) => {
    const session = await sessionOf(request);
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
