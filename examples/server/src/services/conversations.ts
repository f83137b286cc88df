/**
 * Conversations: history pages (one-to-one and group), the rating of a session, the robot's
 * answer to a chosen FAQ question, the session update a visitor asks for, and the FAQ reads.
 * Session life (start, robot, queue) stays in {@link Sessions}; matching stays in `chat/robot.ts`.
 * Every call that names a visitor applies the visitor rule ({@link Visitors.requireAllowed}) first.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { pushToVisitor, ROBOT_ID, type ChatContext, type VisitorRef } from '../chat/context.js';
import { groupViewFor } from '../chat/group-view.js';
import { questionsLike, type Suggestion } from '../chat/robot.js';
import type { Sessions, SessionSummary } from '../chat/sessions.js';
import { faqLanguageOf } from '../chat/texts.js';
import { T, toWire, type ReadEntry, type WireMessage } from '../chat/wire.js';
import { ApiError, Code } from '../http/envelope.js';
import type { FaqQuestion, MessageRecord, PageQuery } from '../store/types.js';
import type { Groups } from './groups.js';
import type { Merchants } from './merchants.js';
import type { Visitors } from './visitors.js';

/** Which page of history: `size` rows, backwards from `before`, forwards from `after` or `afterSeq`. */
export type PageWindow = PageQuery;

/** A page of history. */
export interface HistoryPage {
  /** The messages, oldest first. */
  list: WireMessage[];
  /** Whether there is more beyond the page. */
  hasMore: boolean;
}

/** A visitor naming a merchant's conversation, before its stored profile is read. */
export interface ConversationCaller {
  /** Client id. */
  clientId: string;
  /** Merchant. */
  mchId: string;
  /** Platform. */
  platformId: string;
  /** The language to assume when the visitor is not stored yet (the request's). */
  language: string;
}

/** A rating of a session (`markScore`). */
export interface Rating {
  clientId: string;
  mchId: string;
  platformId: string;
  /** The session rated; '' for the visitor's latest. */
  sessionId: string;
  /** 1-5. */
  score: number;
  /** '' for none. */
  remark: string;
}

/** An FAQ category with its questions (`categoryInfo`). */
export interface FaqCategoryView {
  id: string;
  name: string;
  questions: Suggestion[];
}

/** The robot's answer to a chosen question. */
export interface RobotAnswer {
  id: string;
  question: string;
  answer: string;
}

/** The conversation service. */
export class Conversations {
  /**
   * @param ctx - the chat state (store, hub, clock, group aliases)
   * @param sessions - session life
   * @param visitors - the visitor rule and profiles
   * @param merchants - platforms
   * @param groups - group reading rights
   */
  constructor(
    private readonly ctx: ChatContext,
    private readonly sessions: Sessions,
    private readonly visitors: Visitors,
    private readonly merchants: Merchants,
    private readonly groups: Groups,
  ) {}

  /**
   * A page of a visitor's conversation with a merchant's platform.
   * @throws ApiError 2003 when banned; 1003 for an unknown or disabled platform.
   */
  async history(clientId: string, mchId: string, platformId: string, window: PageWindow): Promise<HistoryPage> {
    await this.visitors.requireAllowed(clientId);
    await this.merchants.requirePlatform(mchId, platformId);
    return this.page(window, (q) => this.ctx.store.chat.conversation(clientId, mchId, platformId, q));
  }

  /**
   * A page of a group's history as `clientId` sees it (read marks, other visitors by alias).
   * @throws ApiError 2003 when banned; 1003 when the group is unknown, or closed and it is not a member.
   */
  async groupHistory(groupId: string, clientId: string, window: PageWindow): Promise<HistoryPage> {
    await this.visitors.requireAllowed(clientId);
    await this.groups.requireReadable(groupId, clientId);
    return this.page(window, (q) => this.ctx.store.chat.groupMessages(groupId, q), clientId);
  }

  /**
   * Rates a session once; the agent who served it hears of it at once (session event `rated`).
   * @throws ApiError 2003 (banned), 2001 (blacklisted), 1003 (no such session of this visitor), 2002 (rated already).
   */
  async rate(rating: Rating): Promise<{ sessionId: string; score: number }> {
    const { clientId, mchId, platformId } = rating;
    await this.visitors.requireAllowed(clientId, 'rate');
    const chat = this.ctx.store.chat;
    const session = rating.sessionId === '' ? await chat.latestSession(clientId, mchId, platformId) : await chat.session(rating.sessionId);
    if (!session || session.clientId !== clientId || session.mchId !== mchId || session.platformId !== platformId) {
      throw new ApiError(Code.NotFound, 'There is no conversation to rate');
    }
    const rated = await this.ctx.store.transaction(async (tx) => {
      const fresh = (await tx.chat.session(session.sessionId)) ?? session;
      if (fresh.score !== null) throw new ApiError(Code.AlreadyRated, 'You have commented already');
      fresh.score = rating.score;
      fresh.remark = rating.remark === '' ? null : rating.remark;
      await tx.chat.updateSession(fresh);
      return { sessionId: fresh.sessionId, score: rating.score };
    });
    await this.sessions.rated(rated.sessionId); // the agent serving it sees the rating live
    return rated;
  }

  /**
   * The visitor picks an FAQ question: the question is stored and pushed as the visitor's own
   * message to the robot, then the robot's answer (type 200), in the open session (started when
   * there is none).
   * @throws ApiError 1003 (platform), 2003 (banned), 1003 (a question not of this merchant's platform).
   */
  async ask(caller: ConversationCaller, questionId: string): Promise<RobotAnswer> {
    const v = await this.visitorIn(caller);
    const question = await this.ctx.store.directory.question(questionId);
    if (!question || question.mchId !== v.mchId || question.platformId !== v.platformId) {
      throw new ApiError(Code.NotFound, 'Unknown question');
    }
    const session = await this.sessions.ensureOpen(v);
    await this.visitorText(v, session.sessionId, question.question);
    await pushToVisitor(this.ctx, v, session.sessionId, T.RobotText, question.answer);
    return { id: question.id, question: question.question, answer: question.answer };
  }

  /**
   * The visitor asks where its session stands (`triggerUpdate`): a new session when none is
   * open; else its state and the suggested questions pushed again.
   * @throws ApiError 1003 (platform), 2003 (banned).
   */
  async triggerUpdate(caller: ConversationCaller): Promise<{ session: SessionSummary }> {
    const v = await this.visitorIn(caller);
    const open = await this.sessions.open(v);
    if (!open) return { session: await this.sessions.summary(await this.sessions.start(v)) };
    await this.sessions.pushState(v, open);
    await this.sessions.pushSuggestions(v, open.sessionId);
    return { session: await this.sessions.summary(open) };
  }

  /**
   * The FAQ's categories with their questions, in `language` when the merchant wrote it, else
   * in the first language it wrote.
   * @throws ApiError 1003 for an unknown or disabled platform.
   */
  async faqCategories(mchId: string, platformId: string, language: string): Promise<FaqCategoryView[]> {
    await this.merchants.requirePlatform(mchId, platformId);
    const dir = this.ctx.store.directory;
    const wanted = faqLanguageOf(language);
    const languages = await dir.faqLanguages(mchId, platformId);
    const chosen = languages.includes(wanted) ? wanted : (languages[0] ?? wanted);
    const questions = await dir.questions(mchId, platformId, chosen);
    return (await dir.categories(mchId, platformId, chosen)).map((c) => ({
      id: c.id,
      name: c.name,
      questions: questions.filter((q) => q.categoryId === c.id).map((q) => ({ id: q.id, question: q.question })),
    }));
  }

  /**
   * Up to 20 questions like `keyword` (any language).
   * @throws ApiError 1003 for an unknown or disabled platform.
   */
  async questionsLike(mchId: string, platformId: string, keyword: string): Promise<Suggestion[]> {
    await this.merchants.requirePlatform(mchId, platformId);
    const questions: FaqQuestion[] = await this.ctx.store.directory.questions(mchId, platformId);
    return questionsLike(keyword, questions, 20);
  }

  /** The platform checked, the visitor as stored (or with defaults), then the visitor rule. */
  private async visitorIn(caller: ConversationCaller): Promise<VisitorRef> {
    await this.merchants.requirePlatform(caller.mchId, caller.platformId);
    const v = await this.visitors.ref(caller.clientId, caller.mchId, caller.platformId, caller.language);
    await this.visitors.requireAllowed(caller.clientId);
    return v;
  }

  /** Stores a visitor's text to the robot and pushes it to the visitor's connections. */
  private async visitorText(v: VisitorRef, sessionId: string, text: string): Promise<void> {
    const record: MessageRecord = {
      fp: randomUUID(),
      type: T.Text,
      from: v.clientId,
      to: ROBOT_ID,
      fn: v.name,
      tn: '',
      fa: v.avatar,
      ta: '',
      mchId: v.mchId,
      platformId: v.platformId,
      clientId: v.clientId,
      groupId: null,
      sessionId,
      dataContent: text,
      isRead: 1,
      robot: 0,
      isGroup: 0,
      createTime: this.ctx.clock.next(),
      cm: null,
    };
    await this.ctx.store.chat.insertMessage(record);
    this.ctx.hub.sendTo(v.clientId, toWire(record));
  }

  /** One page (a row more is read to learn whether there is more) with group read lists filled in. */
  private async page(window: PageWindow, fetch: (q: PageQuery) => Promise<MessageRecord[]>, reader?: string): Promise<HistoryPage> {
    const { size } = window;
    const rows = await fetch({ ...window, size: size + 1 });
    const hasMore = rows.length > size;
    const forward = window.afterSeq !== undefined || (window.after !== undefined && window.before === undefined);
    const shown = hasMore ? (forward ? rows.slice(0, size) : rows.slice(rows.length - size)) : rows;
    const groupFps = shown.filter((r) => r.isGroup === 1).map((r) => r.fp);
    const reads = groupFps.length > 0 ? await this.ctx.store.chat.groupReads(groupFps) : new Map<string, ReadEntry[]>();
    const list = shown.map((r) => {
      if (r.isGroup !== 1) return toWire(r);
      const readers = reads.get(r.fp) ?? [];
      const wire = toWire(r, readers);
      if (reader === undefined) return wire;
      // the sender sees whether anyone read it; a member sees whether it read it itself
      const read = r.from === reader ? readers.length > 0 : readers.some((x) => x.clientId === reader);
      wire.isRead = read ? 1 : 0;
      // other visitors appear by their per-group alias (protocol §3a)
      return groupViewFor(wire, reader, this.ctx.groupAlias);
    });
    return { list, hasMore };
  }
}
