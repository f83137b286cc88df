/**
 * {@link DirectoryRepo} and {@link KeySessionRepo} on PostgreSQL, with the same answers as
 * `sqlite-directory.ts`. Every statement is parameterised.
 * @module
 */

import { insertInto } from './pg-params.js';
import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import { mapRow, rowValues } from './rows.js';
import {
  CATEGORY_COLUMNS,
  categoryRow,
  GROUP_COLUMNS,
  groupRow,
  KEY_SESSION_COLUMNS,
  keySessionRow,
  MEMBER_COLUMNS,
  memberRow,
  MERCHANT_COLUMNS,
  merchantRow,
  ORDER_COLUMNS,
  orderRow,
  PLATFORM_COLUMNS,
  platformRow,
  QUESTION_COLUMNS,
  questionRow,
  toCategory,
  toGroup,
  toKeySession,
  toMember,
  toMerchant,
  toOrder,
  toPlatform,
  toQuestion,
  type CategoryRow,
  type GroupRow,
  type KeySessionRow,
  type MemberRow,
  type MerchantRow,
  type OrderRow,
  type PlatformRow,
  type QuestionRow,
} from './rows-directory.js';
import type { Async, DirectoryRepo, KeySessionRepo } from './types.js';

/**
 * Creates the key-session repository over a queryable.
 * @internal
 */
export function pgKeySessionRepo(db: Queryable): Async<KeySessionRepo> {
  return {
    create: async (s) => {
      await db.query(insertInto('key_sessions', KEY_SESSION_COLUMNS), rowValues(keySessionRow(s), KEY_SESSION_COLUMNS));
    },
    byRequestKey: async (requestKey) =>
      mapRow(await firstRow<KeySessionRow>(db, 'SELECT * FROM key_sessions WHERE request_key = $1', [requestKey]), toKeySession),
    bySaltKey: async (saltKey) => mapRow(await firstRow<KeySessionRow>(db, 'SELECT * FROM key_sessions WHERE salt_key = $1', [saltKey]), toKeySession),
    touch: async (saltKey, now) => {
      await db.query('UPDATE key_sessions SET last_used = $1 WHERE salt_key = $2', [now, saltKey]);
    },
    deleteUnusedSince: (before) => changedRows(db, 'DELETE FROM key_sessions WHERE last_used < $1', [before]),
  };
}

/** The FAQ methods of {@link DirectoryRepo}. */
type FaqMethods = Pick<Async<DirectoryRepo>, 'putCategory' | 'categories' | 'putQuestion' | 'question' | 'questions' | 'faqLanguages'>;

function pgFaqMethods(db: Queryable): FaqMethods {
  const questionsOf = 'SELECT * FROM faq_questions WHERE mch_id = $1 AND platform_id = $2';
  return {
    putCategory: async (c) => {
      await db.query(
        `${insertInto('faq_categories', CATEGORY_COLUMNS)}
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, sort = EXCLUDED.sort, language = EXCLUDED.language`,
        rowValues(categoryRow(c), CATEGORY_COLUMNS),
      );
    },
    categories: async (mchId, platformId, language) =>
      (
        await allRows<CategoryRow>(
          db,
          'SELECT * FROM faq_categories WHERE mch_id = $1 AND platform_id = $2 AND language = $3 ORDER BY sort, id',
          [mchId, platformId, language],
        )
      ).map(toCategory),
    putQuestion: async (x) => {
      await db.query(
        `${insertInto('faq_questions', QUESTION_COLUMNS)}
         ON CONFLICT (id) DO UPDATE SET question = EXCLUDED.question, answer = EXCLUDED.answer,
           keywords = EXCLUDED.keywords, sort = EXCLUDED.sort`,
        rowValues(questionRow(x), QUESTION_COLUMNS),
      );
    },
    question: async (id) => mapRow(await firstRow<QuestionRow>(db, 'SELECT * FROM faq_questions WHERE id = $1', [id]), toQuestion),
    questions: async (mchId, platformId, language) => {
      const rows =
        language === undefined
          ? await allRows<QuestionRow>(db, `${questionsOf} ORDER BY sort, id`, [mchId, platformId])
          : await allRows<QuestionRow>(db, `${questionsOf} AND language = $3 ORDER BY sort, id`, [mchId, platformId, language]);
      return rows.map(toQuestion);
    },
    faqLanguages: async (mchId, platformId) =>
      (
        await allRows<{ language: string }>(
          db,
          'SELECT DISTINCT language FROM faq_questions WHERE mch_id = $1 AND platform_id = $2 ORDER BY language',
          [mchId, platformId],
        )
      ).map((r) => r.language),
  };
}

/**
 * Creates the directory repository over a queryable.
 * @internal
 */
export function pgDirectoryRepo(db: Queryable): Async<DirectoryRepo> {
  return {
    putMerchant: async (m) => {
      await db.query(
        `${insertInto('merchants', MERCHANT_COLUMNS)}
         ON CONFLICT (mch_id) DO UPDATE SET name = EXCLUDED.name, kefu_avatar2 = EXCLUDED.kefu_avatar2, extra = EXCLUDED.extra`,
        rowValues(merchantRow(m), MERCHANT_COLUMNS),
      );
    },
    merchant: async (mchId) => mapRow(await firstRow<MerchantRow>(db, 'SELECT * FROM merchants WHERE mch_id = $1', [mchId]), toMerchant),
    putPlatform: async (p) => {
      await db.query(
        `${insertInto('platforms', PLATFORM_COLUMNS)}
         ON CONFLICT (mch_id, platform_id) DO UPDATE SET name = EXCLUDED.name, enabled = EXCLUDED.enabled`,
        rowValues(platformRow(p), PLATFORM_COLUMNS),
      );
    },
    platform: async (mchId, platformId) =>
      mapRow(await firstRow<PlatformRow>(db, 'SELECT * FROM platforms WHERE mch_id = $1 AND platform_id = $2', [mchId, platformId]), toPlatform),
    firstPlatform: async () => mapRow(await firstRow<PlatformRow>(db, 'SELECT * FROM platforms ORDER BY row_order ASC LIMIT 1'), toPlatform),
    putGroup: async (g) => {
      await db.query(
        `${insertInto('groups', GROUP_COLUMNS)}
         ON CONFLICT (group_id) DO UPDATE SET mch_id = EXCLUDED.mch_id, name = EXCLUDED.name, kind = EXCLUDED.kind,
           avatar = EXCLUDED.avatar, notice = EXCLUDED.notice, open = EXCLUDED.open`,
        rowValues(groupRow(g), GROUP_COLUMNS),
      );
    },
    group: async (groupId) => mapRow(await firstRow<GroupRow>(db, 'SELECT * FROM groups WHERE group_id = $1', [groupId]), toGroup),
    addMember: async (m) => {
      await db.query(`${insertInto('group_members', MEMBER_COLUMNS)} ON CONFLICT DO NOTHING`, rowValues(memberRow(m), MEMBER_COLUMNS));
    },
    member: async (groupId, clientId) =>
      mapRow(await firstRow<MemberRow>(db, 'SELECT * FROM group_members WHERE group_id = $1 AND client_id = $2', [groupId, clientId]), toMember),
    members: async (groupId) =>
      (
        await allRows<MemberRow>(
          db,
          `SELECT * FROM group_members WHERE group_id = $1 ORDER BY role = 'staff' DESC, joined_at ASC, client_id COLLATE "C" ASC`,
          [groupId],
        )
      ).map(toMember),
    ...pgFaqMethods(db),
    putOrder: async (o) => {
      await db.query(
        `${insertInto('orders', ORDER_COLUMNS)}
         ON CONFLICT (mch_id, order_no) DO UPDATE SET user_account = EXCLUDED.user_account,
           user_mch_id = EXCLUDED.user_mch_id, amount = EXCLUDED.amount, status = EXCLUDED.status`,
        rowValues(orderRow(o), ORDER_COLUMNS),
      );
    },
    order: async (mchId, orderNo) =>
      mapRow(await firstRow<OrderRow>(db, 'SELECT * FROM orders WHERE mch_id = $1 AND order_no = $2', [mchId, orderNo]), toOrder),
    putEntryLink: async (param, raw) => {
      await db.query('INSERT INTO entry_links (param, raw) VALUES ($1, $2) ON CONFLICT (param) DO UPDATE SET raw = EXCLUDED.raw', [param, raw]);
    },
    entryLink: async (param) => (await firstRow<{ raw: string }>(db, 'SELECT raw FROM entry_links WHERE param = $1', [param]))?.raw,
  };
}
