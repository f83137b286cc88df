/**
 * Permit calls about conversations: history, group history, rating, createMsg (complaints and
 * left messages), the robot's questions and triggerUpdate (docs/protocol.md §3).
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pushToVisitor } from '../chat/context.js';
import { questionsLike } from '../chat/robot.js';
import { faqLanguageOf } from '../chat/texts.js';
import { T, toWire } from '../chat/wire.js';
import type { MessageRecord } from '../store/types.js';
import type { HttpDeps } from './deps.js';
import { languageOf } from './enc.js';
import { ApiError, Code } from './envelope.js';
import { boundRoute, encRoute, page, refuseBanned, requirePlatform, visitorRef } from './permit-common.js';
import { registerCreateMsg } from './permit-create-msg.js';
import { optStr, reqInt, reqStr } from './validate.js';

/** Registers findMsgForCus, clientGroupMsgList, markScore, createMsg, question, questionLike, triggerUpdate, categoryInfo. */
export function registerChatRoutes(app: FastifyInstance, deps: HttpDeps): void {
  const { store } = deps.ctx;

  boundRoute(app, deps, 'POST', 'findMsgForCus', async (p, caller) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'));
    const mchId = reqStr(p, 'mchId');
    const platformId = reqStr(p, 'platformId');
    await refuseBanned(deps, clientId);
    await requirePlatform(deps, mchId, platformId);
    return page(deps, p, (q) => store.chat.conversation(clientId, mchId, platformId, q));
  });

  boundRoute(app, deps, 'POST', 'clientGroupMsgList', async (p, caller) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'));
    const groupId = reqStr(p, 'groupId');
    await refuseBanned(deps, clientId);
    const group = await store.directory.group(groupId);
    if (!group) throw new ApiError(Code.NotFound, 'Unknown group');
    if (!(await store.directory.member(groupId, clientId)) && !group.open) {
      throw new ApiError(Code.NotFound, 'You are not a member of this group');
    }
    return page(deps, p, (q) => store.chat.groupMessages(groupId, q), clientId);
  });

  boundRoute(app, deps, 'POST', 'markScore', async (p, caller) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'));
    const mchId = reqStr(p, 'mchId');
    const platformId = reqStr(p, 'platformId');
    const score = reqInt(p, 'score', 1, 5);
    const remark = optStr(p, 'remark', 500);
    const sessionId = optStr(p, 'sessionId');
    const visitor = await store.chat.visitor(clientId);
    if (visitor?.banned) throw new ApiError(Code.Banned, 'Access denied: please contact the administrator');
    if (visitor?.blacklisted) {
      throw new ApiError(Code.Blacklisted, 'You have been blacklisted and cannot use the review function');
    }
    const session = sessionId === '' ? await store.chat.latestSession(clientId, mchId, platformId) : await store.chat.session(sessionId);
    if (!session || session.clientId !== clientId || session.mchId !== mchId || session.platformId !== platformId) {
      throw new ApiError(Code.NotFound, 'There is no conversation to rate');
    }
    const rated = await store.transaction(async (tx) => {
      const fresh = (await tx.chat.session(session.sessionId)) ?? session;
      if (fresh.score !== null) throw new ApiError(Code.AlreadyRated, 'You have commented already');
      fresh.score = score;
      fresh.remark = remark === '' ? null : remark;
      await tx.chat.updateSession(fresh);
      return { sessionId: fresh.sessionId, score };
    });
    await deps.sessions.rated(rated.sessionId); // the agent sees the rating (desk issue)
    return rated;
  });

  registerCreateMsg(app, deps);

  encRoute(app, deps, 'POST', 'asConfig/categoryInfo', async (p, request) => {
    const mchId = reqStr(p, 'mchId');
    const platformId = reqStr(p, 'platformId');
    await requirePlatform(deps, mchId, platformId);
    const wanted = faqLanguageOf(languageOf(request));
    const languages = await store.directory.faqLanguages(mchId, platformId);
    const language = languages.includes(wanted) ? wanted : (languages[0] ?? wanted);
    const questions = await store.directory.questions(mchId, platformId, language);
    return (await store.directory.categories(mchId, platformId, language)).map((c) => ({
      id: c.id,
      name: c.name,
      questions: questions.filter((q) => q.categoryId === c.id).map((q) => ({ id: q.id, question: q.question })),
    }));
  });

  boundRoute(app, deps, 'POST', 'question', async (p, caller, request) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'));
    const v = await visitorRef(deps, request, clientId, reqStr(p, 'mchId'), reqStr(p, 'platformId'));
    await refuseBanned(deps, clientId);
    const question = await store.directory.question(reqStr(p, 'questionId'));
    if (!question || question.mchId !== v.mchId || question.platformId !== v.platformId) {
      throw new ApiError(Code.NotFound, 'Unknown question');
    }
    const session = await deps.sessions.ensureOpen(v);
    const record: MessageRecord = {
      fp: randomUUID(),
      type: T.Text,
      from: clientId,
      to: 'robot',
      fn: v.name,
      tn: '',
      fa: v.avatar,
      ta: '',
      mchId: v.mchId,
      platformId: v.platformId,
      clientId,
      groupId: null,
      sessionId: session.sessionId,
      dataContent: question.question,
      isRead: 1,
      robot: 0,
      isGroup: 0,
      createTime: deps.ctx.clock.next(),
      cm: null,
    };
    await store.chat.insertMessage(record);
    deps.ctx.hub.sendTo(clientId, toWire(record));
    await pushToVisitor(deps.ctx, v, session.sessionId, T.RobotText, question.answer);
    return { id: question.id, question: question.question, answer: question.answer };
  });

  encRoute(app, deps, 'POST', 'questionLike', async (p) => {
    const mchId = reqStr(p, 'mchId');
    const platformId = reqStr(p, 'platformId');
    await requirePlatform(deps, mchId, platformId);
    const keyword = optStr(p, 'keyword', 200);
    return questionsLike(keyword, await store.directory.questions(mchId, platformId), 20);
  });

  boundRoute(app, deps, 'POST', 'triggerUpdate', async (p, caller, request) => {
    const clientId = await caller.actFor(reqStr(p, 'clientId'));
    const v = await visitorRef(deps, request, clientId, reqStr(p, 'mchId'), reqStr(p, 'platformId'));
    await refuseBanned(deps, clientId);
    const open = await deps.sessions.open(v);
    if (!open) return { session: await deps.sessions.summary(await deps.sessions.start(v)) };
    await deps.sessions.pushState(v, open);
    await deps.sessions.pushSuggestions(v, open.sessionId);
    return { session: await deps.sessions.summary(open) };
  });
}
