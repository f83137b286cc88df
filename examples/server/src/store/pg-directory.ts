/**
 * {@link DirectoryRepo} and {@link KeySessionRepo} on PostgreSQL, with the same answers as
 * `sqlite-directory.ts`. Every statement is parameterised.
 * @module
 */

import { insertInto } from './pg-params.js';
import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import { mapRow, rowValues } from './rows.js';
import * as rows from './rows-directory.js';
import type { Async, DirectoryRepo, KeySessionRepo } from './types.js';

/**
 * Creates the key-session repository over a queryable.
 * @internal
 */
export function pgKeySessionRepo(db: Queryable): Async<KeySessionRepo> {
  return {
    create: async (s) => {
      await db.query(insertInto('key_sessions', rows.KEY_SESSION_COLUMNS), rowValues(rows.keySessionRow(s), rows.KEY_SESSION_COLUMNS));
    },
    byRequestKey: async (requestKey) =>
      mapRow(await firstRow<rows.KeySessionRow>(db, 'SELECT * FROM key_sessions WHERE request_key = $1', [requestKey]), rows.toKeySession),
    bySaltKey: async (saltKey) => mapRow(await firstRow<rows.KeySessionRow>(db, 'SELECT * FROM key_sessions WHERE salt_key = $1', [saltKey]), rows.toKeySession),
    touch: async (saltKey, now) => {
      await db.query('UPDATE key_sessions SET last_used = $1 WHERE salt_key = $2', [now, saltKey]);
    },
    deleteUnusedSince: (before, unboundBefore = before) =>
      changedRows(db, 'DELETE FROM key_sessions WHERE last_used < $1 OR (bound_to IS NULL AND last_used < $2)', [before, unboundBefore]),
  };
}

/** The FAQ methods of {@link DirectoryRepo}. */
type FaqMethods = Pick<Async<DirectoryRepo>, 'putCategory' | 'categories' | 'putQuestion' | 'question' | 'questions' | 'faqLanguages'>;

/** FAQ categories and questions on `db`. */
function pgFaqMethods(db: Queryable): FaqMethods {
  const questionsOf = 'SELECT * FROM faq_questions WHERE mch_id = $1 AND platform_id = $2';
  return {
    putCategory: async (c) => {
      await db.query(
        `${insertInto('faq_categories', rows.CATEGORY_COLUMNS)}
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, sort = EXCLUDED.sort, language = EXCLUDED.language`,
        rowValues(rows.categoryRow(c), rows.CATEGORY_COLUMNS),
      );
    },
    categories: async (mchId, platformId, language) =>
      (
        await allRows<rows.CategoryRow>(
          db,
          'SELECT * FROM faq_categories WHERE mch_id = $1 AND platform_id = $2 AND language = $3 ORDER BY sort, id',
          [mchId, platformId, language],
        )
      ).map(rows.toCategory),
    putQuestion: async (x) => {
      await db.query(
        `${insertInto('faq_questions', rows.QUESTION_COLUMNS)}
         ON CONFLICT (id) DO UPDATE SET question = EXCLUDED.question, answer = EXCLUDED.answer,
           keywords = EXCLUDED.keywords, sort = EXCLUDED.sort`,
        rowValues(rows.questionRow(x), rows.QUESTION_COLUMNS),
      );
    },
    question: async (id) => mapRow(await firstRow<rows.QuestionRow>(db, 'SELECT * FROM faq_questions WHERE id = $1', [id]), rows.toQuestion),
    questions: async (mchId, platformId, language) => {
      const found =
        language === undefined
          ? await allRows<rows.QuestionRow>(db, `${questionsOf} ORDER BY sort, id`, [mchId, platformId])
          : await allRows<rows.QuestionRow>(db, `${questionsOf} AND language = $3 ORDER BY sort, id`, [mchId, platformId, language]);
      return found.map(rows.toQuestion);
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
        `${insertInto('merchants', rows.MERCHANT_COLUMNS)}
         ON CONFLICT (mch_id) DO UPDATE SET name = EXCLUDED.name, kefu_avatar2 = EXCLUDED.kefu_avatar2, extra = EXCLUDED.extra`,
        rowValues(rows.merchantRow(m), rows.MERCHANT_COLUMNS),
      );
    },
    merchantHours: async (mchId) => (await firstRow<{ hours: string }>(db, 'SELECT hours FROM merchant_hours WHERE mch_id = $1', [mchId]))?.hours,
    putMerchantHours: async (mchId, hours, now) => {
      if (hours === null) await db.query('DELETE FROM merchant_hours WHERE mch_id = $1', [mchId]);
      else {
        await db.query(
          `${insertInto('merchant_hours', rows.MERCHANT_HOURS_COLUMNS)}
           ON CONFLICT (mch_id) DO UPDATE SET hours = EXCLUDED.hours, updated_at = EXCLUDED.updated_at`,
          rowValues(rows.merchantHoursRow(mchId, hours, now), rows.MERCHANT_HOURS_COLUMNS),
        );
      }
    },
    merchant: async (mchId) => mapRow(await firstRow<rows.MerchantRow>(db, 'SELECT * FROM merchants WHERE mch_id = $1', [mchId]), rows.toMerchant),
    putPlatform: async (p) => {
      await db.query(
        `${insertInto('platforms', rows.PLATFORM_COLUMNS)}
         ON CONFLICT (mch_id, platform_id) DO UPDATE SET name = EXCLUDED.name, enabled = EXCLUDED.enabled`,
        rowValues(rows.platformRow(p), rows.PLATFORM_COLUMNS),
      );
    },
    platform: async (mchId, platformId) =>
      mapRow(await firstRow<rows.PlatformRow>(db, 'SELECT * FROM platforms WHERE mch_id = $1 AND platform_id = $2', [mchId, platformId]), rows.toPlatform),
    firstPlatform: async () => mapRow(await firstRow<rows.PlatformRow>(db, 'SELECT * FROM platforms ORDER BY row_order ASC LIMIT 1'), rows.toPlatform),
    putGroup: async (g) => {
      await db.query(
        `${insertInto('groups', rows.GROUP_COLUMNS)}
         ON CONFLICT (group_id) DO UPDATE SET mch_id = EXCLUDED.mch_id, name = EXCLUDED.name, kind = EXCLUDED.kind,
           avatar = EXCLUDED.avatar, notice = EXCLUDED.notice, open = EXCLUDED.open`,
        rowValues(rows.groupRow(g), rows.GROUP_COLUMNS),
      );
    },
    group: async (groupId) => mapRow(await firstRow<rows.GroupRow>(db, 'SELECT * FROM groups WHERE group_id = $1', [groupId]), rows.toGroup),
    addMember: async (m) => {
      await db.query(`${insertInto('group_members', rows.MEMBER_COLUMNS)} ON CONFLICT DO NOTHING`, rowValues(rows.memberRow(m), rows.MEMBER_COLUMNS));
    },
    member: async (groupId, clientId) =>
      mapRow(await firstRow<rows.MemberRow>(db, 'SELECT * FROM group_members WHERE group_id = $1 AND client_id = $2', [groupId, clientId]), rows.toMember),
    members: async (groupId) =>
      (
        await allRows<rows.MemberRow>(
          db,
          `SELECT * FROM group_members WHERE group_id = $1 ORDER BY role = 'staff' DESC, joined_at ASC, client_id COLLATE "C" ASC`,
          [groupId],
        )
      ).map(rows.toMember),
    ...pgFaqMethods(db),
    putOrder: async (o) => {
      await db.query(
        `${insertInto('orders', rows.ORDER_COLUMNS)}
         ON CONFLICT (mch_id, order_no) DO UPDATE SET user_account = EXCLUDED.user_account,
           user_mch_id = EXCLUDED.user_mch_id, amount = EXCLUDED.amount, status = EXCLUDED.status`,
        rowValues(rows.orderRow(o), rows.ORDER_COLUMNS),
      );
    },
    order: async (mchId, orderNo) =>
      mapRow(await firstRow<rows.OrderRow>(db, 'SELECT * FROM orders WHERE mch_id = $1 AND order_no = $2', [mchId, orderNo]), rows.toOrder),
    putEntryLink: async (param, raw) => {
      await db.query('INSERT INTO entry_links (param, raw) VALUES ($1, $2) ON CONFLICT (param) DO UPDATE SET raw = EXCLUDED.raw', [param, raw]);
    },
    entryLink: async (param) => (await firstRow<{ raw: string }>(db, 'SELECT raw FROM entry_links WHERE param = $1', [param]))?.raw,
  };
}
