/**
 * Helpers shared by the permit routes: (enc) route registration and visitor look-ups.
 * @module
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_VISITOR_AVATAR, type VisitorRef } from '../chat/context.js';
import { type ReadEntry, type WireMessage, toWire } from '../chat/wire.js';
import type { MessageRecord, Platform } from '../store/types.js';
import type { HttpDeps } from './deps.js';
import { groupViewFor } from '../chat/group-view.js';
import { callerOf, type Caller } from './caller.js';
import { decodeEnc, languageOf, requireSession } from './enc.js';
import { ApiError, Code, ok } from './envelope.js';
import { optInt, type Payload } from './validate.js';

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
      const session = await requireSession(request, deps.ctx.store, deps.ctx.config.keySessionTtlMs);
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
      const session = await requireSession(request, deps.ctx.store, deps.ctx.config.keySessionTtlMs);
      const payload = decodeEnc(dataOf(request), session);
      return ok(await handler(payload, callerOf(deps, session), request));
    },
  });
}

function dataOf(request: FastifyRequest): unknown {
  const source = request.method === 'GET' ? request.query : request.body;
  return typeof source === 'object' && source !== null ? (source as { data?: unknown }).data : undefined;
}

/**
 * The merchant's platform.
 * @throws ApiError 1003 when unknown or disabled.
 */
export async function requirePlatform(deps: HttpDeps, mchId: string, platformId: string): Promise<Platform> {
  const platform = await deps.ctx.store.directory.platform(mchId, platformId);
  if (!platform || !(await deps.ctx.store.directory.merchant(mchId))) {
    throw new ApiError(Code.NotFound, 'Unknown merchant or platform');
  }
  if (!platform.enabled) throw new ApiError(Code.NotFound, 'This platform is not enabled');
  return platform;
}

/**
 * Refuses a banned visitor.
 * @throws ApiError 2003.
 */
export async function refuseBanned(deps: HttpDeps, clientId: string): Promise<void> {
  if ((await deps.ctx.store.chat.visitor(clientId))?.banned) {
    throw new ApiError(Code.Banned, 'Access denied: please contact the administrator');
  }
}

/** A visitor in a merchant's conversation, from storage or with defaults. */
export async function visitorRef(deps: HttpDeps, request: FastifyRequest, clientId: string, mchId: string, platformId: string): Promise<VisitorRef> {
  await requirePlatform(deps, mchId, platformId);
  const known = await deps.ctx.store.chat.visitor(clientId);
  const language = known?.language ?? languageOf(request);
  return {
    clientId,
    name: known?.name ?? `${language.startsWith('zh') ? '访客' : 'Visitor '}${clientId.slice(0, 4)}`,
    avatar: known?.avatar ?? DEFAULT_VISITOR_AVATAR,
    mchId,
    platformId,
    language,
  };
}

/** A page of history: `{ list, hasMore }` with group read lists filled in. */
export async function page(
  deps: HttpDeps,
  p: Payload,
  fetch: (q: { before?: number; after?: number; afterSeq?: number; size: number }) => Promise<MessageRecord[]>,
  reader?: string,
): Promise<{ list: WireMessage[]; hasMore: boolean }> {
  const size = optInt(p, 'size', 1, 100) ?? 20;
  const before = optInt(p, 'before', 0, Number.MAX_SAFE_INTEGER);
  const after = optInt(p, 'after', 0, Number.MAX_SAFE_INTEGER);
  const afterSeq = optInt(p, 'afterSeq', 0, Number.MAX_SAFE_INTEGER);
  const window = afterSeq !== undefined ? { afterSeq } : { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) };
  const rows = await fetch({ ...window, size: size + 1 });
  const hasMore = rows.length > size;
  const forward = afterSeq !== undefined || (after !== undefined && before === undefined);
  const shown = hasMore ? (forward ? rows.slice(0, size) : rows.slice(rows.length - size)) : rows;
  const groupFps = shown.filter((r) => r.isGroup === 1).map((r) => r.fp);
  const reads = groupFps.length > 0 ? await deps.ctx.store.chat.groupReads(groupFps) : new Map<string, ReadEntry[]>();
  const list = shown.map((r) => {
    if (r.isGroup !== 1) return toWire(r);
    const readers = reads.get(r.fp) ?? [];
    const wire = toWire(r, readers);
    if (reader === undefined) return wire;
    // the sender sees whether anyone read it; a member sees whether it read it itself
    const read = r.from === reader ? readers.length > 0 : readers.some((x) => x.clientId === reader);
    wire.isRead = read ? 1 : 0;
    // other visitors appear by their per-group alias (protocol §3a)
    return groupViewFor(wire, reader, deps.ctx.groupAlias);
  });
  return { list, hasMore };
}
