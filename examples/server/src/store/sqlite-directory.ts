/**
 * {@link DirectoryRepo} and {@link KeySessionRepo} on better-sqlite3.
 * @module
 */

import type Database from 'better-sqlite3';
import type {
  DirectoryRepo,
  FaqCategory,
  FaqQuestion,
  Group,
  GroupMember,
  KeySession,
  KeySessionRepo,
  Merchant,
  MerchantOrder,
} from './types.js';

interface KeyRow {
  salt_key: string;
  request_key: string;
  aes_key: string;
  token: string;
  created_at: number;
  last_used: number;
  bound_to?: string | null;
}

function toKeySession(row: KeyRow): KeySession {
  return {
    saltKey: row.salt_key,
    requestKey: row.request_key,
    aesKey: row.aes_key,
    token: row.token,
    createdAt: row.created_at,
    lastUsed: row.last_used,
    boundTo: row.bound_to ?? null,
  };
}

/**
 * Creates the key-session repository.
 * @internal
 */
export function sqliteKeySessionRepo(db: Database.Database): KeySessionRepo {
  const q = {
    create: db.prepare<KeyRow>(
      `INSERT INTO key_sessions (salt_key, request_key, aes_key, token, created_at, last_used)
       VALUES (@salt_key, @request_key, @aes_key, @token, @created_at, @last_used)`,
    ),
    byRequestKey: db.prepare<[string], KeyRow>('SELECT * FROM key_sessions WHERE request_key = ?'),
    bySaltKey: db.prepare<[string], KeyRow>('SELECT * FROM key_sessions WHERE salt_key = ?'),
    touch: db.prepare<[number, string]>('UPDATE key_sessions SET last_used = ? WHERE salt_key = ?'),
    deleteUnused: db.prepare<[number]>('DELETE FROM key_sessions WHERE last_used < ?'),
  };
  return {
    create: (s) => {
      q.create.run({
        salt_key: s.saltKey,
        request_key: s.requestKey,
        aes_key: s.aesKey,
        token: s.token,
        created_at: s.createdAt,
        last_used: s.lastUsed,
      });
    },
    byRequestKey: (rk) => {
      const row = q.byRequestKey.get(rk);
      return row ? toKeySession(row) : undefined;
    },
    bySaltKey: (salt) => {
      const row = q.bySaltKey.get(salt);
      return row ? toKeySession(row) : undefined;
    },
    touch: (salt, now) => {
      q.touch.run(now, salt);
    },
    deleteUnusedSince: (before) => q.deleteUnused.run(before).changes,
  };
}

interface MerchantRow {
  mch_id: string;
  name: string;
  kefu_avatar2: string;
  extra: string;
}
interface PlatformRow {
  mch_id: string;
  platform_id: string;
  name: string;
  enabled: number;
}
interface GroupRow {
  group_id: string;
  mch_id: string;
  name: string;
  kind: string;
  avatar: string;
  notice: string;
  open: number;
}
interface MemberRow {
  group_id: string;
  client_id: string;
  name: string;
  avatar: string;
  role: string;
  joined_at: number;
}
interface CategoryRow {
  id: string;
  mch_id: string;
  platform_id: string;
  language: string;
  name: string;
  sort: number;
}
interface QuestionRow {
  id: string;
  category_id: string;
  mch_id: string;
  platform_id: string;
  language: string;
  question: string;
  answer: string;
  keywords: string;
  sort: number;
}
interface OrderRow {
  mch_id: string;
  order_no: string;
  user_account: string;
  user_mch_id: string;
  amount: string;
  status: string;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const toGroup = (r: GroupRow): Group => ({
  groupId: r.group_id,
  mchId: r.mch_id,
  name: r.name,
  kind: r.kind === 'channel' ? 'channel' : 'group',
  avatar: r.avatar,
  notice: r.notice,
  open: r.open === 1,
});
const toMember = (r: MemberRow): GroupMember => ({
  groupId: r.group_id,
  clientId: r.client_id,
  name: r.name,
  avatar: r.avatar,
  role: r.role === 'staff' ? 'staff' : 'member',
  joinedAt: r.joined_at,
});
const toCategory = (r: CategoryRow): FaqCategory => ({
  id: r.id,
  mchId: r.mch_id,
  platformId: r.platform_id,
  language: r.language,
  name: r.name,
  sort: r.sort,
});
const toQuestion = (r: QuestionRow): FaqQuestion => ({
  id: r.id,
  categoryId: r.category_id,
  mchId: r.mch_id,
  platformId: r.platform_id,
  language: r.language,
  question: r.question,
  answer: r.answer,
  keywords: r.keywords,
  sort: r.sort,
});
const toOrder = (r: OrderRow): MerchantOrder => ({
  mchId: r.mch_id,
  orderNo: r.order_no,
  userAccount: r.user_account,
  userMchId: r.user_mch_id,
  amount: r.amount,
  status: r.status,
});

/**
 * Creates the directory repository.
 * @internal
 */
export function sqliteDirectoryRepo(db: Database.Database): DirectoryRepo {
  const q = {
    putMerchant: db.prepare<MerchantRow>(
      `INSERT INTO merchants (mch_id, name, kefu_avatar2, extra) VALUES (@mch_id, @name, @kefu_avatar2, @extra)
       ON CONFLICT (mch_id) DO UPDATE SET name = excluded.name, kefu_avatar2 = excluded.kefu_avatar2, extra = excluded.extra`,
    ),
    merchant: db.prepare<[string], MerchantRow>('SELECT * FROM merchants WHERE mch_id = ?'),
    putPlatform: db.prepare<PlatformRow>(
      `INSERT INTO platforms (mch_id, platform_id, name, enabled) VALUES (@mch_id, @platform_id, @name, @enabled)
       ON CONFLICT (mch_id, platform_id) DO UPDATE SET name = excluded.name, enabled = excluded.enabled`,
    ),
    platform: db.prepare<[string, string], PlatformRow>('SELECT * FROM platforms WHERE mch_id = ? AND platform_id = ?'),
    firstPlatform: db.prepare<[], PlatformRow>('SELECT * FROM platforms ORDER BY rowid ASC LIMIT 1'),
    putGroup: db.prepare<GroupRow>(
      `INSERT INTO groups (group_id, mch_id, name, kind, avatar, notice, open)
       VALUES (@group_id, @mch_id, @name, @kind, @avatar, @notice, @open)
       ON CONFLICT (group_id) DO UPDATE SET mch_id = excluded.mch_id, name = excluded.name, kind = excluded.kind,
         avatar = excluded.avatar, notice = excluded.notice, open = excluded.open`,
    ),
    group: db.prepare<[string], GroupRow>('SELECT * FROM groups WHERE group_id = ?'),
    addMember: db.prepare<MemberRow>(
      `INSERT INTO group_members (group_id, client_id, name, avatar, role, joined_at)
       VALUES (@group_id, @client_id, @name, @avatar, @role, @joined_at) ON CONFLICT DO NOTHING`,
    ),
    member: db.prepare<[string, string], MemberRow>('SELECT * FROM group_members WHERE group_id = ? AND client_id = ?'),
    members: db.prepare<[string], MemberRow>(
      "SELECT * FROM group_members WHERE group_id = ? ORDER BY role = 'staff' DESC, joined_at ASC",
    ),
    putCategory: db.prepare<CategoryRow>(
      `INSERT INTO faq_categories (id, mch_id, platform_id, language, name, sort)
       VALUES (@id, @mch_id, @platform_id, @language, @name, @sort)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, sort = excluded.sort, language = excluded.language`,
    ),
    categories: db.prepare<[string, string, string], CategoryRow>(
      'SELECT * FROM faq_categories WHERE mch_id = ? AND platform_id = ? AND language = ? ORDER BY sort, id',
    ),
    putQuestion: db.prepare<QuestionRow>(
      `INSERT INTO faq_questions (id, category_id, mch_id, platform_id, language, question, answer, keywords, sort)
       VALUES (@id, @category_id, @mch_id, @platform_id, @language, @question, @answer, @keywords, @sort)
       ON CONFLICT (id) DO UPDATE SET question = excluded.question, answer = excluded.answer,
         keywords = excluded.keywords, sort = excluded.sort`,
    ),
    question: db.prepare<[string], QuestionRow>('SELECT * FROM faq_questions WHERE id = ?'),
    questions: db.prepare<[string, string], QuestionRow>(
      'SELECT * FROM faq_questions WHERE mch_id = ? AND platform_id = ? ORDER BY sort, id',
    ),
    questionsIn: db.prepare<[string, string, string], QuestionRow>(
      'SELECT * FROM faq_questions WHERE mch_id = ? AND platform_id = ? AND language = ? ORDER BY sort, id',
    ),
    languages: db.prepare<[string, string], { language: string }>(
      'SELECT DISTINCT language FROM faq_questions WHERE mch_id = ? AND platform_id = ? ORDER BY language',
    ),
    putOrder: db.prepare<OrderRow>(
      `INSERT INTO orders (mch_id, order_no, user_account, user_mch_id, amount, status)
       VALUES (@mch_id, @order_no, @user_account, @user_mch_id, @amount, @status)
       ON CONFLICT (mch_id, order_no) DO UPDATE SET user_account = excluded.user_account,
         user_mch_id = excluded.user_mch_id, amount = excluded.amount, status = excluded.status`,
    ),
    order: db.prepare<[string, string], OrderRow>('SELECT * FROM orders WHERE mch_id = ? AND order_no = ?'),
    putEntryLink: db.prepare<[string, string]>(
      'INSERT INTO entry_links (param, raw) VALUES (?, ?) ON CONFLICT (param) DO UPDATE SET raw = excluded.raw',
    ),
    entryLink: db.prepare<[string], { raw: string }>('SELECT raw FROM entry_links WHERE param = ?'),
  };

  return {
    putMerchant: (m: Merchant) => {
      q.putMerchant.run({ mch_id: m.mchId, name: m.name, kefu_avatar2: m.kefuAvatar2, extra: JSON.stringify(m.extra) });
    },
    merchant: (mchId) => {
      const r = q.merchant.get(mchId);
      return r ? { mchId: r.mch_id, name: r.name, kefuAvatar2: r.kefu_avatar2, extra: parseObject(r.extra) } : undefined;
    },
    putPlatform: (p) => {
      q.putPlatform.run({ mch_id: p.mchId, platform_id: p.platformId, name: p.name, enabled: p.enabled ? 1 : 0 });
    },
    platform: (mchId, platformId) => {
      const r = q.platform.get(mchId, platformId);
      return r ? { mchId: r.mch_id, platformId: r.platform_id, name: r.name, enabled: r.enabled === 1 } : undefined;
    },
    firstPlatform: () => {
      const r = q.firstPlatform.get();
      return r ? { mchId: r.mch_id, platformId: r.platform_id, name: r.name, enabled: r.enabled === 1 } : undefined;
    },
    putGroup: (g) => {
      q.putGroup.run({
        group_id: g.groupId,
        mch_id: g.mchId,
        name: g.name,
        kind: g.kind,
        avatar: g.avatar,
        notice: g.notice,
        open: g.open ? 1 : 0,
      });
    },
    group: (id) => {
      const r = q.group.get(id);
      return r ? toGroup(r) : undefined;
    },
    addMember: (m) => {
      q.addMember.run({
        group_id: m.groupId,
        client_id: m.clientId,
        name: m.name,
        avatar: m.avatar,
        role: m.role,
        joined_at: m.joinedAt,
      });
    },
    member: (groupId, clientId) => {
      const r = q.member.get(groupId, clientId);
      return r ? toMember(r) : undefined;
    },
    members: (groupId) => q.members.all(groupId).map(toMember),
    putCategory: (c) => {
      q.putCategory.run({
        id: c.id,
        mch_id: c.mchId,
        platform_id: c.platformId,
        language: c.language,
        name: c.name,
        sort: c.sort,
      });
    },
    categories: (mchId, platformId, language) => q.categories.all(mchId, platformId, language).map(toCategory),
    putQuestion: (x) => {
      q.putQuestion.run({
        id: x.id,
        category_id: x.categoryId,
        mch_id: x.mchId,
        platform_id: x.platformId,
        language: x.language,
        question: x.question,
        answer: x.answer,
        keywords: x.keywords,
        sort: x.sort,
      });
    },
    question: (id) => {
      const r = q.question.get(id);
      return r ? toQuestion(r) : undefined;
    },
    questions: (mchId, platformId, language) =>
      (language === undefined ? q.questions.all(mchId, platformId) : q.questionsIn.all(mchId, platformId, language)).map(
        toQuestion,
      ),
    faqLanguages: (mchId, platformId) => q.languages.all(mchId, platformId).map((r) => r.language),
    putOrder: (o) => {
      q.putOrder.run({
        mch_id: o.mchId,
        order_no: o.orderNo,
        user_account: o.userAccount,
        user_mch_id: o.userMchId,
        amount: o.amount,
        status: o.status,
      });
    },
    order: (mchId, orderNo) => {
      const r = q.order.get(mchId, orderNo);
      return r ? toOrder(r) : undefined;
    },
    putEntryLink: (param, raw) => {
      q.putEntryLink.run(param, raw);
    },
    entryLink: (param) => q.entryLink.get(param)?.raw,
  };
}
