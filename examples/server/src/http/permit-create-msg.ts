/**
 * `createMsg` (enc): complaints (type 400) and left messages (type 401), each stored in its own
 * table, once per `fp` (a resent one answers the stored one).
 * @module
 */

import type { FastifyInstance } from 'fastify';
import { validFp } from '../chat/messaging.js';
import { T } from '../chat/wire.js';
import type { HttpDeps } from './deps.js';
import { ApiError, Code } from './envelope.js';
import { boundRoute } from './permit-common.js';
import { asPayload, optStr, reqInt, reqStr, reqTime, type Payload } from './validate.js';

/** Complaint limits (spec §5 and §9). */
export const COMPLAINT_LIMITS = { images: 5, videos: 1 } as const;

const URL_LIKE = /^(https?:\/\/|\/)[^\s]{1,2000}$/;

function content(p: Payload): Payload {
  const raw = p['dataContent'];
  if (typeof raw !== 'string') throw new ApiError(Code.BadRequest, 'dataContent must be a JSON string');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError(Code.BadRequest, 'dataContent is not valid JSON');
  }
  return asPayload(parsed, 'dataContent');
}

function urls(value: unknown, key: string, max: number): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > max) throw new ApiError(Code.BadRequest, `At most ${max} ${key} allowed`);
  return list.map((item) => {
    if (typeof item !== 'string' || !URL_LIKE.test(item.trim())) {
      throw new ApiError(Code.BadRequest, `${key} must hold uploaded file URLs`);
    }
    return item.trim();
  });
}

/** Registers `POST /im/api/permit/createMsg`. */
export function registerCreateMsg(app: FastifyInstance, deps: HttpDeps): void {
  const { visitors, records } = deps.services;
  boundRoute(app, deps, 'POST', 'createMsg', async (p, caller) => {
    const type = reqInt(p, 'type', 0, 100_000);
    const from = await caller.actFor(reqStr(p, 'from'), reqStr(p, 'mchId', 64));
    const fp = p['fp'];
    if (!validFp(fp)) throw new ApiError(Code.BadRequest, 'fp must be a message id (8-100 letters, digits, - _ . :)');
    await visitors.requireAllowed(from);
    const mchId = reqStr(p, 'mchId', 64);
    const platformId = optStr(p, 'platformId', 64);
    const header = { fp, clientId: from, mchId, platformId };
    if (type === T.Complaint) {
      const c = content(p);
      const images = urls(c['images'], 'images', COMPLAINT_LIMITS.images);
      const video = urls(c['video'], 'video', COMPLAINT_LIMITS.videos)[0] ?? null;
      const stored = await records.complain({
        ...header,
        account: reqStr(c, 'account', 64),
        description: reqStr(c, 'description', 2000),
        occurredAt: reqTime(c, 'occurredAt'),
        images,
        video,
      });
      const data = { account: stored.account, description: stored.description, occurredAt: stored.occurredAt, images: stored.images, ...(stored.video ? { video: stored.video } : {}) };
      return { type, from: stored.clientId, to: 'system', fp: stored.fp, mchId: stored.mchId, platformId: stored.platformId, createTime: stored.createdAt, dataContent: JSON.stringify(data) };
    }
    if (type === T.LeaveMessage) {
      const c = content(p);
      const stored = await records.leaveMessage({
        ...header,
        contact: reqStr(c, 'contact', 128),
        content: reqStr(c, 'content', 2000),
        name: optStr(c, 'name', 64),
      });
      const data = { contact: stored.contact, content: stored.content, ...(stored.name ? { name: stored.name } : {}) };
      return { type, from: stored.clientId, to: 'system', fp: stored.fp, mchId: stored.mchId, platformId: stored.platformId, createTime: stored.createdAt, dataContent: JSON.stringify(data) };
    }
    throw new ApiError(Code.BadRequest, 'createMsg takes complaints (type 400) and left messages (type 401); send chat messages on the socket');
  });
}
