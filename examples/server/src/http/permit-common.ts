/**
 * Helpers shared by the permit routes: (enc) route registration and the payload parts many read.
 * @module
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConversationCaller, PageWindow } from '../services/conversations.js';
import type { HttpDeps } from './deps.js';
import { callerOf, type Caller } from './caller.js';
import { decodeEnc, languageOf, requireSession } from './enc.js';
import { ok } from './envelope.js';
import { optInt, reqStr, type Payload } from './validate.js';

/** Registers an (enc) permit call that names no visitor: any live key session may call it. */
export function encRoute(
  app: FastifyInstance,
  deps: HttpDeps,
  method: 'GET' | 'POST',
  name: string,
  handler: (payload: Payload, request: FastifyRequest) => unknown,
): void {
  app.route({
    method,
    url: `/im/api/permit/${name}`,
    handler: async (request) => {
      const session = await requireSession(request, deps.services.identity);
      return ok(await handler(decodeEnc(dataOf(request), session), request));
    },
  });
}

/**
 * Registers a visitor-scoped (enc) permit call (protocol §3a.3): the key session must be bound
 * to an identity (else code 4003 before anything is read or changed); the handler checks every
 * visitor it names with {@link Caller.actFor}.
 */
export function boundRoute(
  app: FastifyInstance,
  deps: HttpDeps,
  method: 'GET' | 'POST',
  name: string,
  handler: (payload: Payload, caller: Caller, request: FastifyRequest) => unknown,
): void {
  app.route({
    method,
    url: `/im/api/permit/${name}`,
    handler: async (request) => {
      const session = await requireSession(request, deps.services.identity);
      const payload = decodeEnc(dataOf(request), session);
      return ok(await handler(payload, callerOf(deps.services.identity, session), request));
    },
  });
}

function dataOf(request: FastifyRequest): unknown {
  const source = request.method === 'GET' ? request.query : request.body;
  return typeof source === 'object' && source !== null ? (source as { data?: unknown }).data : undefined;
}

/**
 * The page window of a history call: `size` (1-100, 20 by default) and `afterSeq` (wins), or
 * `before` and/or `after` (ms).
 */
export function pageWindowOf(p: Payload): PageWindow {
  const size = optInt(p, 'size', 1, 100) ?? 20;
  const before = optInt(p, 'before', 0, Number.MAX_SAFE_INTEGER);
  const after = optInt(p, 'after', 0, Number.MAX_SAFE_INTEGER);
  const afterSeq = optInt(p, 'afterSeq', 0, Number.MAX_SAFE_INTEGER);
  if (afterSeq !== undefined) return { afterSeq, size };
  return { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }), size };
}

/** A visitor naming a merchant's conversation: ids from the payload, the request's language. */
export function conversationCaller(p: Payload, request: FastifyRequest, clientId: string): ConversationCaller {
  return { clientId, mchId: reqStr(p, 'mchId'), platformId: reqStr(p, 'platformId'), language: languageOf(request) };
}
