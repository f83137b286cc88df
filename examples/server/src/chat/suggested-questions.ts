/**
 * The suggested questions (type 201) of the robot: the first questions of the merchant's FAQ in
 * the visitor's language, stored with the conversation when the robot offers them (session start,
 * a question it did not understand), or sent live as the current state (a reloaded page, a
 * visitor who changed language: history holds suggestions as history, not as what to show now).
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { FaqQuestion } from '../store/types.js';
import { pushToVisitor, ROBOT_ID, robotIdentity, type ChatContext, type VisitorRef } from './context.js';
import { suggestions, type Suggestion } from './robot.js';
import { faqLanguageOf } from './texts.js';
import { T, type WireMessage } from './wire.js';

/** The robot's suggested questions for a visitor. */
export class SuggestedQuestions {
  /** @param ctx - the chat services' shared state */
  constructor(private readonly ctx: ChatContext) {}

  /** The FAQ in the visitor's language, or in any language the merchant wrote. */
  async faq(v: VisitorRef): Promise<FaqQuestion[]> {
    const dir = this.ctx.store.directory;
    const wanted = faqLanguageOf(v.language);
    const own = await dir.questions(v.mchId, v.platformId, wanted);
    if (own.length > 0) return own;
    const first = (await dir.faqLanguages(v.mchId, v.platformId))[0];
    return first === undefined ? [] : dir.questions(v.mchId, v.platformId, first);
  }

  /** Stores and pushes the suggested questions in the visitor's language; returns them. */
  async push(v: VisitorRef, sessionId: string | null): Promise<Suggestion[]> {
    const list = suggestions(await this.faq(v));
    await pushToVisitor(this.ctx, v, sessionId, T.Suggestions, JSON.stringify(list));
    return list;
  }

  /** The suggested questions in the visitor's language as a live message (not stored). */
  async live(v: VisitorRef): Promise<WireMessage> {
    const robot = await robotIdentity(this.ctx, v.mchId, v.language);
    const list = suggestions(await this.faq(v));
    return { type: T.Suggestions, from: ROBOT_ID, to: v.clientId, fn: robot.name, fa: robot.avatar, fp: randomUUID(), createTime: Date.now(), robot: 1, dataContent: JSON.stringify(list) };
  }
}
