/**
 * Permit calls about merchants, platforms, orders, groups and entry links: controllers over
 * {@link Merchants}, {@link Groups} and {@link Visitors}.
 * @module
 */

import type { FastifyInstance } from 'fastify';
import type { HttpDeps } from './deps.js';
import { ApiError, Code, ok } from './envelope.js';
import { requireCaller } from './caller.js';
import { boundRoute, encRoute } from './permit-common.js';
import { optStr, reqStr } from './validate.js';

/** Registers getMerchantById, checkPlatform, validateMchOrder, getGroupInfo, getGroupUserList, decodeParam, getAvailability. */
export function registerDirectoryRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { merchants, groups, visitors, availability } = deps.services;

  encRoute(app, deps, 'POST', 'getMerchantById', async (p) => merchants.profile(reqStr(p, 'mchId'), reqStr(p, 'platformId')));

  encRoute(app, deps, 'GET', 'checkPlatform', async (p) => {
    const platform = await merchants.platform(reqStr(p, 'mchId'), reqStr(p, 'platformId'));
    if (!platform) throw new ApiError(Code.NotFound, 'Unknown merchant or platform');
    return { mchId: platform.mchId, platformId: platform.platformId, name: platform.name, enabled: platform.enabled };
  });

  encRoute(app, deps, 'GET', 'validateMchOrder', async (p) => {
    const order = await merchants.requireOrder(reqStr(p, 'mchId'), reqStr(p, 'orderNo'));
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
    const group = await groups.require(groupId);
    if (clientId !== '') {
      await visitors.requireAllowed(clientId);
      await groups.admitVisitor(group, clientId);
    }
    return groups.info(group);
  });

  // members only; other visitors appear by their per-group alias, never by client id (protocol §3a)
  boundRoute(app, deps, 'GET', 'getGroupUserList', async (p, caller) =>
    groups.membersFor(reqStr(p, 'groupId'), { identity: caller.identity, role: caller.role, merchants: await caller.merchants() }),
  );

  app.get('/im/api/permit/decodeParam', async (request) => {
    const query = request.query as { param?: unknown } | undefined;
    const param = typeof query?.param === 'string' ? query.param.trim() : '';
    if (param === '' || param.length > 2048) throw new ApiError(Code.BadRequest, 'param is required');
    return ok(await merchants.entryRaw(param));
  });

  // what type 320 says (docs/protocol.md), for a client that asks before or between signals; names no visitor
  app.get('/im/api/permit/getAvailability', async (request) => {
    const query = request.query as { mchId?: unknown } | undefined;
    const mchId = typeof query?.mchId === 'string' ? query.mchId.trim() : '';
    if (mchId === '' || mchId.length > 128) throw new ApiError(Code.BadRequest, 'mchId is required');
    return ok(await availability.of(mchId));
  });
}
