/**
 * {@link DirectoryRepo} and {@link KeySessionRepo} on better-sqlite3.
 * @module
 */

import type Database from 'better-sqlite3';
import { mapRow } from './rows.js';
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
import { insertInto } from './sqlite-params.js';
import type { DirectoryRepo, KeySessionRepo } from './types.js';

/**
 * Creates the key-session repository.
 * @internal
 */
export function sqliteKeySessionRepo(db: Database.Database): KeySessionRepo {
  const q = {
    create: db.prepare<Omit<KeySessionRow, 'bound_to'>>(insertInto('key_sessions', KEY_SESSION_COLUMNS)),
    byRequestKey: db.prepare<[string], KeySessionRow>('SELECT * FROM key_sessions WHERE request_key = ?'),
    bySaltKey: db.prepare<[string], KeySessionRow>('SELECT * FROM key_sessions WHERE salt_key = ?'),
    touch: db.prepare<[number, string]>('UPDATE key_sessions SET last_used = ? WHERE salt_key = ?'),
    deleteUnused: db.prepare<[number]>('DELETE FROM key_sessions WHERE last_used < ?'),
  };
  return {
    create: (s) => {
      q.create.run(keySessionRow(s));
    },
    byRequestKey: (requestKey) => mapRow(q.byRequestKey.get(requestKey), toKeySession),
    bySaltKey: (saltKey) => mapRow(q.bySaltKey.get(saltKey), toKeySession),
    touch: (saltKey, now) => {
      q.touch.run(now, saltKey);
    },
    deleteUnusedSince: (before) => q.deleteUnused.run(before).changes,
  };
}

/** The statements of the directory repository. */
function directoryStatements(db: Database.Database) {
  return {
    putMerchant: db.prepare<MerchantRow>(
      `${insertInto('merchants', MERCHANT_COLUMNS)}
       ON CONFLICT (mch_id) DO UPDATE SET name = excluded.name, kefu_avatar2 = excluded.kefu_avatar2, extra = excluded.extra`,
    ),
    merchant: db.prepare<[string], MerchantRow>('SELECT * FROM merchants WHERE mch_id = ?'),
    putPlatform: db.prepare<PlatformRow>(
      `${insertInto('platforms', PLATFORM_COLUMNS)}
       ON CONFLICT (mch_id, platform_id) DO UPDATE SET name = excluded.name, enabled = excluded.enabled`,
    ),
    platform: db.prepare<[string, string], PlatformRow>('SELECT * FROM platforms WHERE mch_id = ? AND platform_id = ?'),
    firstPlatform: db.prepare<[], PlatformRow>('SELECT * FROM platforms ORDER BY rowid ASC LIMIT 1'),
    putGroup: db.prepare<GroupRow>(
      `${insertInto('groups', GROUP_COLUMNS)}
       ON CONFLICT (group_id) DO UPDATE SET mch_id = excluded.mch_id, name = excluded.name, kind = excluded.kind,
         avatar = excluded.avatar, notice = excluded.notice, open = excluded.open`,
    ),
    group: db.prepare<[string], GroupRow>('SELECT * FROM groups WHERE group_id = ?'),
    addMember: db.prepare<MemberRow>(`${insertInto('group_members', MEMBER_COLUMNS)} ON CONFLICT DO NOTHING`),
    member: db.prepare<[string, string], MemberRow>('SELECT * FROM group_members WHERE group_id = ? AND client_id = ?'),
    members: db.prepare<[string], MemberRow>(
      "SELECT * FROM group_members WHERE group_id = ? ORDER BY role = 'staff' DESC, joined_at ASC, client_id ASC",
    ),
    putCategory: db.prepare<CategoryRow>(
      `${insertInto('faq_categories', CATEGORY_COLUMNS)}
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, sort = excluded.sort, language = excluded.language`,
    ),
    categories: db.prepare<[string, string, string], CategoryRow>(
      'SELECT * FROM faq_categories WHERE mch_id = ? AND platform_id = ? AND language = ? ORDER BY sort, id',
    ),
    putQuestion: db.prepare<QuestionRow>(
      `${insertInto('faq_questions', QUESTION_COLUMNS)}
       ON CONFLICT (id) DO UPDATE SET question = excluded.question, answer = excluded.answer,
         keywords = excluded.keywords, sort = excluded.sort`,
    ),
    question: db.prepare<[string], QuestionRow>('SELECT * FROM faq_questions WHERE id = ?'),
    questions: db.prepare<[string, string], QuestionRow>('SELECT * FROM faq_questions WHERE mch_id = ? AND platform_id = ? ORDER BY sort, id'),
    questionsIn: db.prepare<[string, string, string], QuestionRow>(
      'SELECT * FROM faq_questions WHERE mch_id = ? AND platform_id = ? AND language = ? ORDER BY sort, id',
    ),
    languages: db.prepare<[string, string], { language: string }>(
      'SELECT DISTINCT language FROM faq_questions WHERE mch_id = ? AND platform_id = ? ORDER BY language',
    ),
    putOrder: db.prepare<OrderRow>(
      `${insertInto('orders', ORDER_COLUMNS)}
       ON CONFLICT (mch_id, order_no) DO UPDATE SET user_account = excluded.user_account,
         user_mch_id = excluded.user_mch_id, amount = excluded.amount, status = excluded.status`,
    ),
    order: db.prepare<[string, string], OrderRow>('SELECT * FROM orders WHERE mch_id = ? AND order_no = ?'),
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
      q.putMerchant.run(merchantRow(m));
    },
    merchant: (mchId) => mapRow(q.merchant.get(mchId), toMerchant),
    putPlatform: (p) => {
      q.putPlatform.run(platformRow(p));
    },
    platform: (mchId, platformId) => mapRow(q.platform.get(mchId, platformId), toPlatform),
    firstPlatform: () => mapRow(q.firstPlatform.get(), toPlatform),
    putGroup: (g) => {
      q.putGroup.run(groupRow(g));
    },
    group: (groupId) => mapRow(q.group.get(groupId), toGroup),
    addMember: (m) => {
      q.addMember.run(memberRow(m));
    },
    member: (groupId, clientId) => mapRow(q.member.get(groupId, clientId), toMember),
    members: (groupId) => q.members.all(groupId).map(toMember),
    putCategory: (c) => {
      q.putCategory.run(categoryRow(c));
    },
    categories: (mchId, platformId, language) => q.categories.all(mchId, platformId, language).map(toCategory),
    putQuestion: (x) => {
      q.putQuestion.run(questionRow(x));
    },
    question: (id) => mapRow(q.question.get(id), toQuestion),
    questions: (mchId, platformId, language) =>
      (language === undefined ? q.questions.all(mchId, platformId) : q.questionsIn.all(mchId, platformId, language)).map(toQuestion),
    faqLanguages: (mchId, platformId) => q.languages.all(mchId, platformId).map((r) => r.language),
    putOrder: (o) => {
      q.putOrder.run(orderRow(o));
    },
    order: (mchId, orderNo) => mapRow(q.order.get(mchId, orderNo), toOrder),
    putEntryLink: (param, raw) => {
      q.putEntryLink.run(param, raw);
    },
    entryLink: (param) => q.entryLink.get(param)?.raw,
  };
}
