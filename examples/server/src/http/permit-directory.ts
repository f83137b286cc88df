/**
 * Permit calls about merchants, platforms, orders, groups and entry links.
 * @module
 */

import type { FastifyInstance } from 'fastify';
import { DEFAULT_KEFU_AVATAR } from '../chat/context.js';
import type { HttpDeps } from './deps.js';
import { ApiError, Code, ok } from './envelope.js';
import { forbidden, requireCaller } from './caller.js';
import { boundRoute, encRoute, refuseBanned, requirePlatform } from './permit-common.js';
import { optStr, reqStr } from './validate.js';

const LAYOUT = /^(data|data2|data3):/;

/**
 * `raw` of an entry param (protocol §6): a stored opaque value, or base64url of `data...:...`.
 * @internal
 */
export async function decodeEntryParam(param: string, lookup: (param: string) => Promise<string | undefined>): Promise<string | undefined> {
  const stored = await lookup(param);
  if (stored !== undefined) return stored;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(param)) return undefined;
  const raw = Buffer.from(param, 'base64url').toString('utf8');
  return LAYOUT.test(raw) && !raw.includes('\uFFFD') ? raw : undefined;
}

/** Registers getMerchantById, checkPlatform, validateMchOrder, getGroupInfo, getGroupUserList, decodeParam. */
export function registerDirectoryRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { store } = deps.ctx;

  encRoute(app, deps, 'POST', 'getMerchantById', async (p) => {
    const mchId = reqStr(p, 'mchId');
    const platformId = reqStr(p, 'platformId');
    const platform = await requirePlatform(deps, mchId, platformId);
    const merchant = await store.directory.merchant(mchId);
    if (!merchant) throw new ApiError(Code.NotFound, 'Unknown merchant');
    return {
      ...merchant.extra,
      mchId: merchant.mchId,
      platformId: platform.platformId,
      platformName: platform.name,
      name: merchant.name,
      kefuAvatar2: merchant.kefuAvatar2 || DEFAULT_KEFU_AVATAR,
    };
  });

  encRoute(app, deps, 'GET', 'checkPlatform', async (p) => {
    const mchId = reqStr(p, 'mchId');
    const platformId = reqStr(p, 'platformId');
    const platform = await store.directory.platform(mchId, platformId);
    if (!platform) throw new ApiError(Code.NotFound, 'Unknown merchant or platform');
    return { mchId: platform.mchId, platformId: platform.platformId, name: platform.name, enabled: platform.enabled };
  });

  encRoute(app, deps, 'GET', 'validateMchOrder', async (p) => {
    const mchId = reqStr(p, 'mchId');
    const orderNo = reqStr(p, 'orderNo');
    const order = await store.directory.order(mchId, orderNo);
    if (!order) throw new ApiError(Code.NotFound, 'Unknown merchant order');
    return {
      userAccount: order.userAccount,
      userMchId: order.userMchId,
      mchOrderNo: order.orderNo,
      amount: order.amount,
      status: order.status,
    };
  });

  // without clientId it names no visitor (public group info); with it, it joins that visitor: bound only
  encRoute(app, deps, 'GET', 'getGroupInfo', async (p, request) => {
    const groupId = reqStr(p, 'groupId');
    const named = optStr(p, 'clientId');
    const clientId = named === '' ? '' : await (await requireCaller(request, deps)).actFor(named);
    const group = await store.directory.group(groupId);
    if (!group) throw new ApiError(Code.NotFound, 'Unknown group');
    if (clientId !== '') {
      await refuseBanned(deps, clientId);
      const member = await store.directory.member(groupId, clientId);
      if (!member) {
        if (!group.open) throw new ApiError(Code.NotFound, 'You are not a member of this group');
        const visitor = await store.chat.visitor(clientId);
        await store.directory.addMember({
          groupId,
          clientId,
          name: visitor?.name ?? clientId,
          avatar: visitor?.avatar ?? '',
          role: 'member',
          joinedAt: Date.now(),
        });
      }
    }
    return {
      groupId: group.groupId,
      name: group.name,
      kind: group.kind,
      avatar: group.avatar,
      notice: group.notice,
      memberCount: (await store.directory.members(groupId)).length,
    };
  });

  // members only; other visitors appear by their per-group alias, never by client id (protocol §3a)
  boundRoute(app, deps, 'GET', 'getGroupUserList', async (p, caller) => {
    const groupId = reqStr(p, 'groupId');
    if (!await store.directory.group(groupId)) throw new ApiError(Code.NotFound, 'Unknown group');
    if (caller.role !== 'agent' && !await store.directory.member(groupId, caller.identity)) {
      throw forbidden('Forbidden: only members see who is in this group');
    }
    return (await store.directory.members(groupId)).map((m) => ({
      clientId: deps.ctx.groupAlias(groupId, m.clientId, caller.identity),
      name: m.name,
      avatar: m.avatar,
      role: m.role,
    }));
  });

  app.get('/im/api/permit/decodeParam', async (request) => {
    const query = request.query as { param?: unknown } | undefined;
    const param = typeof query?.param === 'string' ? query.param.trim() : '';
    if (param === '' || param.length > 2048) throw new ApiError(Code.BadRequest, 'param is required');
    const raw = await decodeEntryParam(param, (x) => store.directory.entryLink(x));
    if (raw === undefined) throw new ApiError(Code.NotFound, 'Link is broken');
    return ok(raw);
  });
}
