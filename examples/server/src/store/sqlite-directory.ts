/**
 * {@link DirectoryRepo} and {@link KeySessionRepo} on better-sqlite3.
 * @module
 */

import type Database from 'better-sqlite3';
import { mapRow } from './rows.js';
import * as rows from './rows-directory.js';
import { insertInto } from './sqlite-params.js';
import type { DirectoryRepo, KeySessionRepo } from './types.js';

/**
 * Creates the key-session repository.
 * @internal
 */
export function sqliteKeySessionRepo(db: Database.Database): KeySessionRepo {
  const q = {
    create: db.prepare<Omit<rows.KeySessionRow, 'bound_to'>>(insertInto('key_sessions', rows.KEY_SESSION_COLUMNS)),
    byRequestKey: db.prepare<[string], rows.KeySessionRow>('SELECT * FROM key_sessions WHERE request_key = ?'),
    bySaltKey: db.prepare<[string], rows.KeySessionRow>('SELECT * FROM key_sessions WHERE salt_key = ?'),
    touch: db.prepare<[number, string]>('UPDATE key_sessions SET last_used = ? WHERE salt_key = ?'),
    deleteUnused: db.prepare<[number, number]>('DELETE FROM key_sessions WHERE last_used < ? OR (bound_to IS NULL AND last_used < ?)'),
  };
  return {
    create: (s) => {
      q.create.run(rows.keySessionRow(s));
    },
    byRequestKey: (requestKey) => mapRow(q.byRequestKey.get(requestKey), rows.toKeySession),
    bySaltKey: (saltKey) => mapRow(q.bySaltKey.get(saltKey), rows.toKeySession),
    touch: (saltKey, now) => {
      q.touch.run(now, saltKey);
    },
    deleteUnusedSince: (before, unboundBefore = before) => q.deleteUnused.run(before, unboundBefore).changes,
  };
}

/** The statements of the directory repository. */
function directoryStatements(db: Database.Database) {
  return {
    putMerchant: db.prepare<rows.MerchantRow>(
      `${insertInto('merchants', rows.MERCHANT_COLUMNS)}
       ON CONFLICT (mch_id) DO UPDATE SET name = excluded.name, kefu_avatar2 = excluded.kefu_avatar2, extra = excluded.extra`,
    ),
    merchant: db.prepare<[string], rows.MerchantRow>('SELECT * FROM merchants WHERE mch_id = ?'),
    putHours: db.prepare<rows.MerchantHoursRow>(
      `${insertInto('merchant_hours', rows.MERCHANT_HOURS_COLUMNS)}
       ON CONFLICT (mch_id) DO UPDATE SET hours = excluded.hours, updated_at = excluded.updated_at`,
    ),
    hours: db.prepare<[string], { hours: string }>('SELECT hours FROM merchant_hours WHERE mch_id = ?'),
    removeHours: db.prepare<[string]>('DELETE FROM merchant_hours WHERE mch_id = ?'),
    putPlatform: db.prepare<rows.PlatformRow>(
      `${insertInto('platforms', rows.PLATFORM_COLUMNS)}
       ON CONFLICT (mch_id, platform_id) DO UPDATE SET name = excluded.name, enabled = excluded.enabled`,
    ),
    platform: db.prepare<[string, string], rows.PlatformRow>('SELECT * FROM platforms WHERE mch_id = ? AND platform_id = ?'),
    firstPlatform: db.prepare<[], rows.PlatformRow>('SELECT * FROM platforms ORDER BY rowid ASC LIMIT 1'),
    putGroup: db.prepare<rows.GroupRow>(
      `${insertInto('groups', rows.GROUP_COLUMNS)}
       ON CONFLICT (group_id) DO UPDATE SET mch_id = excluded.mch_id, name = excluded.name, kind = excluded.kind,
         avatar = excluded.avatar, notice = excluded.notice, open = excluded.open`,
    ),
    group: db.prepare<[string], rows.GroupRow>('SELECT * FROM groups WHERE group_id = ?'),
    addMember: db.prepare<rows.MemberRow>(`${insertInto('group_members', rows.MEMBER_COLUMNS)} ON CONFLICT DO NOTHING`),
    member: db.prepare<[string, string], rows.MemberRow>('SELECT * FROM group_members WHERE group_id = ? AND client_id = ?'),
    members: db.prepare<[string], rows.MemberRow>(
      "SELECT * FROM group_members WHERE group_id = ? ORDER BY role = 'staff' DESC, joined_at ASC, client_id ASC",
    ),
    putCategory: db.prepare<rows.CategoryRow>(
      `${insertInto('faq_categories', rows.CATEGORY_COLUMNS)}
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, sort = excluded.sort, language = excluded.language`,
    ),
    categories: db.prepare<[string, string, string], rows.CategoryRow>(
      'SELECT * FROM faq_categories WHERE mch_id = ? AND platform_id = ? AND language = ? ORDER BY sort, id',
    ),
    putQuestion: db.prepare<rows.QuestionRow>(
      `${insertInto('faq_questions', rows.QUESTION_COLUMNS)}
       ON CONFLICT (id) DO UPDATE SET question = excluded.question, answer = excluded.answer,
         keywords = excluded.keywords, sort = excluded.sort`,
    ),
    question: db.prepare<[string], rows.QuestionRow>('SELECT * FROM faq_questions WHERE id = ?'),
    questions: db.prepare<[string, string], rows.QuestionRow>('SELECT * FROM faq_questions WHERE mch_id = ? AND platform_id = ? ORDER BY sort, id'),
    questionsIn: db.prepare<[string, string, string], rows.QuestionRow>(
      'SELECT * FROM faq_questions WHERE mch_id = ? AND platform_id = ? AND language = ? ORDER BY sort, id',
    ),
    languages: db.prepare<[string, string], { language: string }>(
      'SELECT DISTINCT language FROM faq_questions WHERE mch_id = ? AND platform_id = ? ORDER BY language',
    ),
    putOrder: db.prepare<rows.OrderRow>(
      `${insertInto('orders', rows.ORDER_COLUMNS)}
       ON CONFLICT (mch_id, order_no) DO UPDATE SET user_account = excluded.user_account,
         user_mch_id = excluded.user_mch_id, amount = excluded.amount, status = excluded.status`,
    ),
    order: db.prepare<[string, string], rows.OrderRow>('SELECT * FROM orders WHERE mch_id = ? AND order_no = ?'),
    putEntryLink: db.prepare<[string, string]>(
      'INSERT INTO entry_links (param, raw) VALUES (?, ?) ON CONFLICT (param) DO UPDATE SET raw = excluded.raw',
    ),
    entryLink: db.prepare<[string], { raw: string }>('SELECT raw FROM entry_links WHERE param = ?'),
  };
}

/**
 * Creates the directory repository.
 * @internal
 */
export function sqliteDirectoryRepo(db: Database.Database): DirectoryRepo {
  const q = directoryStatements(db);
  return {
    putMerchant: (m) => {
      q.putMerchant.run(rows.merchantRow(m));
    },
    merchantHours: (mchId) => q.hours.get(mchId)?.hours,
    putMerchantHours: (mchId, hours, now) => {
      if (hours === null) q.removeHours.run(mchId);
      else q.putHours.run(rows.merchantHoursRow(mchId, hours, now));
    },
    merchant: (mchId) => mapRow(q.merchant.get(mchId), rows.toMerchant),
    putPlatform: (p) => {
      q.putPlatform.run(rows.platformRow(p));
    },
    platform: (mchId, platformId) => mapRow(q.platform.get(mchId, platformId), rows.toPlatform),
    firstPlatform: () => mapRow(q.firstPlatform.get(), rows.toPlatform),
    putGroup: (g) => {
      q.putGroup.run(rows.groupRow(g));
    },
    group: (groupId) => mapRow(q.group.get(groupId), rows.toGroup),
    addMember: (m) => {
      q.addMember.run(rows.memberRow(m));
    },
    member: (groupId, clientId) => mapRow(q.member.get(groupId, clientId), rows.toMember),
    members: (groupId) => q.members.all(groupId).map(rows.toMember),
    putCategory: (c) => {
      q.putCategory.run(rows.categoryRow(c));
    },
    categories: (mchId, platformId, language) => q.categories.all(mchId, platformId, language).map(rows.toCategory),
    putQuestion: (x) => {
      q.putQuestion.run(rows.questionRow(x));
    },
    question: (id) => mapRow(q.question.get(id), rows.toQuestion),
    questions: (mchId, platformId, language) =>
      (language === undefined ? q.questions.all(mchId, platformId) : q.questionsIn.all(mchId, platformId, language)).map(rows.toQuestion),
    faqLanguages: (mchId, platformId) => q.languages.all(mchId, platformId).map((r) => r.language),
    putOrder: (o) => {
      q.putOrder.run(rows.orderRow(o));
    },
    order: (mchId, orderNo) => mapRow(q.order.get(mchId, orderNo), rows.toOrder),
    putEntryLink: (param, raw) => {
      q.putEntryLink.run(param, raw);
    },
    entryLink: (param) => q.entryLink.get(param)?.raw,
  };
}
