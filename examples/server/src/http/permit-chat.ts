/**
 * Permit calls about conversations: history, group history, rating, createMsg (complaints and
 * left messages), the robot's questions and triggerUpdate (docs/protocol.md §3). Controllers:
 * they read the payload, check who calls, and call {@link Conversations}.
 * @module
 */

import type { FastifyInstance } from 'fastify';
import type { Conversations } from '../services/conversations.js';
import type { HttpDeps } from './deps.js';
import { languageOf } from './enc.js';
import { boundRoute, conversationCaller, encRoute, pageWindowOf } from './permit-common.js';
import { registerCreateMsg } from './permit-create-msg.js';
import { optStr, reqInt, reqStr } from './validate.js';

/** Registers findMsgForCus, clientGroupMsgList, markScore, createMsg, question, questionLike, triggerUpdate, categoryInfo. */
export function registerChatRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const conversations: Conversations = deps.services.conversations;

  boundRoute(app, deps, 'POST', 'findMsgForCus', async (p, caller) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'), reqStr(p, 'mchId'));
    return conversations.history(clientId, reqStr(p, 'mchId'), reqStr(p, 'platformId'), pageWindowOf(p));
  });

  boundRoute(app, deps, 'POST', 'clientGroupMsgList', async (p, caller) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'));
    return conversations.groupHistory(reqStr(p, 'groupId'), clientId, pageWindowOf(p));
  });

  boundRoute(app, deps, 'POST', 'markScore', async (p, caller) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'), reqStr(p, 'mchId'));
    return conversations.rate({
      clientId,
      mchId: reqStr(p, 'mchId'),
      platformId: reqStr(p, 'platformId'),
      score: reqInt(p, 'score', 1, 5),
      remark: optStr(p, 'remark', 500),
      sessionId: optStr(p, 'sessionId'),
    });
  });

  registerCreateMsg(app, deps);

  encRoute(app, deps, 'POST', 'asConfig/categoryInfo', async (p, request) =>
    conversations.faqCategories(reqStr(p, 'mchId'), reqStr(p, 'platformId'), languageOf(request)),
  );

  boundRoute(app, deps, 'POST', 'question', async (p, caller, request) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'), reqStr(p, 'mchId'));
    const visitor = conversationCaller(p, request, clientId);
    return conversations.ask(visitor, reqStr(p, 'questionId'));
  });

  encRoute(app, deps, 'POST', 'questionLike', async (p) => {
    const mchId = reqStr(p, 'mchId');
    const platformId = reqStr(p, 'platformId');
    return conversations.questionsLike(mchId, platformId, optStr(p, 'keyword', 200));
  });

  boundRoute(app, deps, 'POST', 'triggerUpdate', async (p, caller, request) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'), reqStr(p, 'mchId'));
    return conversations.triggerUpdate(conversationCaller(p, request, clientId));
  });
}
