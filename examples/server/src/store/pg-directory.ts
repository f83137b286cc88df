/**
 * {@link DirectoryRepo} and {@link KeySessionRepo} on PostgreSQL, with the same answers as
 * `sqlite-directory.ts`. Every statement is parameterised.
 * @module
 */

import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import type {
  Async,
  DirectoryRepo,
  FaqCategory,
  FaqQuestion,
  Group,
  GroupMember,
  KeySession,
  KeySessionRepo,
  MerchantOrder,
  Platform,
} from './types.js';

interface KeyRow {
  salt_key: string;
  request_key: string;
  aes_key: string;
  token: string;
  created_at: number;
  last_used: number;
  bound_to: string | null;
}

const toKeySession = (row: KeyRow): KeySession => ({
  saltKey: row.salt_key,
  requestKey: row.request_key,
  aesKey: row.aes_key,
  token: row.token,
  createdAt: row.created_at,
  lastUsed: row.last_used,
  boundTo: row.bound_to,
});

/**
 * Creates the key-session repository over a queryable.
 * @internal
 */
export function pgKeySessionRepo(db: Queryable): Async<KeySessionRepo> {
  return {
    create: async (s) => {
      await db.query(
        `INSERT INTO key_sessions (salt_key, request_key, aes_key, token, created_at, last_used)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [s.saltKey, s.requestKey, s.aesKey, s.token, s.createdAt, s.lastUsed],
      );
    },
    byRequestKey: async (requestKey) => {
      const row = await firstRow<KeyRow>(db, 'SELECT * FROM key_sessions WHERE request_key = $1', [requestKey]);
      return row ? toKeySession(row) : undefined;
    },
    bySaltKey: async (saltKey) => {
      const row = await firstRow<KeyRow>(db, 'SELECT * FROM key_sessions WHERE salt_key = $1', [saltKey]);
      return row ? toKeySession(row) : undefined;
    },
    touch: async (saltKey, now) => {
      await db.query('UPDATE key_sessions SET last_used = $1 WHERE salt_key = $2', [now, saltKey]);
    },
    deleteUnusedSince: (before) => changedRows(db, 'DELETE FROM key_sessions WHERE last_used < $1', [before]),
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
  enabled: boolean;
}
interface GroupRow {
  group_id: string;
  mch_id: string;
  name: string;
  kind: string;
  avatar: string;
  notice: string;
  open: boolean;
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

/** The merchant's extra fields: a JSON object, or `{}` for anything else. */
function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const toPlatform = (r: PlatformRow): Platform => ({ mchId: r.mch_id, platformId: r.platform_id, name: r.name, enabled: r.enabled });
const toGroup = (r: GroupRow): Group => ({
  groupId: r.group_id,
  mchId: r.mch_id,
  name: r.name,
  kind: r.kind === 'channel' ? 'channel' : 'group',
  avatar: r.avatar,
  notice: r.notice,
  open: r.open,
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
 * Creates the directory repository over a queryable.
 * @internal
 */
export function pgDirectoryRepo(db: Queryable): Async<DirectoryRepo> {
  return {
    putMerchant: async (m) => {
      await db.query(
        `INSERT INTO merchants (mch_id, name, kefu_avatar2, extra) VALUES ($1, $2, $3, $4)
         ON CONFLICT (mch_id) DO UPDATE SET name = EXCLUDED.name, kefu_avatar2 = EXCLUDED.kefu_avatar2, extra = EXCLUDED.extra`,
        [m.mchId, m.name, m.kefuAvatar2, JSON.stringify(m.extra)],
      );
    },
    merchant: async (mchId) => {
      const r = await firstRow<MerchantRow>(db, 'SELECT * FROM merchants WHERE mch_id = $1', [mchId]);
      return r ? { mchId: r.mch_id, name: r.name, kefuAvatar2: r.kefu_avatar2, extra: parseObject(r.extra) } : undefined;
    },
    putPlatform: async (p) => {
      await db.query(
        `INSERT INTO platforms (mch_id, platform_id, name, enabled) VALUES ($1, $2, $3, $4)
         ON CONFLICT (mch_id, platform_id) DO UPDATE SET name = EXCLUDED.name, enabled = EXCLUDED.enabled`,
        [p.mchId, p.platformId, p.name, p.enabled],
      );
    },
    platform: async (mchId, platformId) => {
      const r = await firstRow<PlatformRow>(db, 'SELECT * FROM platforms WHERE mch_id = $1 AND platform_id = $2', [mchId, platformId]);
      return r ? toPlatform(r) : undefined;
    },
    firstPlatform: async () => {
      const r = await firstRow<PlatformRow>(db, 'SELECT * FROM platforms ORDER BY row_order ASC LIMIT 1');
      return r ? toPlatform(r) : undefined;
    },
    putGroup: async (g) => {
      await db.query(
        `INSERT INTO groups (group_id, mch_id, name, kind, avatar, notice, open) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (group_id) DO UPDATE SET mch_id = EXCLUDED.mch_id, name = EXCLUDED.name, kind = EXCLUDED.kind,
           avatar = EXCLUDED.avatar, notice = EXCLUDED.notice, open = EXCLUDED.open`,
        [g.groupId, g.mchId, g.name, g.kind, g.avatar, g.notice, g.open],
      );
    },
    group: async (groupId) => {
      const r = await firstRow<GroupRow>(db, 'SELECT * FROM groups WHERE group_id = $1', [groupId]);
      return r ? toGroup(r) : undefined;
    },
    addMember: async (m) => {
      await db.query(
        `INSERT INTO group_members (group_id, client_id, name, avatar, role, joined_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT DO NOTHING`,
        [m.groupId, m.clientId, m.name, m.avatar, m.role, m.joinedAt],
      );
    },
    member: async (groupId, clientId) => {
      const r = await firstRow<MemberRow>(db, 'SELECT * FROM group_members WHERE group_id = $1 AND client_id = $2', [groupId, clientId]);
      return r ? toMember(r) : undefined;
    },
    members: async (groupId) =>
      (
        await allRows<MemberRow>(db, "SELECT * FROM group_members WHERE group_id = $1 ORDER BY role = 'staff' DESC, joined_at ASC", [groupId])
      ).map(toMember),
    putCategory: async (c) => {
      await db.query(
        `INSERT INTO faq_categories (id, mch_id, platform_id, language, name, sort) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, sort = EXCLUDED.sort, language = EXCLUDED.language`,
        [c.id, c.mchId, c.platformId, c.language, c.name, c.sort],
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
        `INSERT INTO faq_questions (id, category_id, mch_id, platform_id, language, question, answer, keywords, sort)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (id) DO UPDATE SET question = EXCLUDED.question, answer = EXCLUDED.answer,
           keywords = EXCLUDED.keywords, sort = EXCLUDED.sort`,
        [x.id, x.categoryId, x.mchId, x.platformId, x.language, x.question, x.answer, x.keywords, x.sort],
      );
    },
    question: async (id) => {
      const r = await firstRow<QuestionRow>(db, 'SELECT * FROM faq_questions WHERE id = $1', [id]);
      return r ? toQuestion(r) : undefined;
    },
    questions: async (mchId, platformId, language) => {
      const rows =
        language === undefined
          ? await allRows<QuestionRow>(db, 'SELECT * FROM faq_questions WHERE mch_id = $1 AND platform_id = $2 ORDER BY sort, id', [mchId, platformId])
          : await allRows<QuestionRow>(
              db,
              'SELECT * FROM faq_questions WHERE mch_id = $1 AND platform_id = $2 AND language = $3 ORDER BY sort, id',
              [mchId, platformId, language],
            );
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
    putOrder: async (o) => {
      await db.query(
        `INSERT INTO orders (mch_id, order_no, user_account, user_mch_id, amount, status) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (mch_id, order_no) DO UPDATE SET user_account = EXCLUDED.user_account,
           user_mch_id = EXCLUDED.user_mch_id, amount = EXCLUDED.amount, status = EXCLUDED.status`,
        [o.mchId, o.orderNo, o.userAccount, o.userMchId, o.amount, o.status],
      );
    },
    order: async (mchId, orderNo) => {
      const r = await firstRow<OrderRow>(db, 'SELECT * FROM orders WHERE mch_id = $1 AND order_no = $2', [mchId, orderNo]);
      return r ? toOrder(r) : undefined;
    },
    putEntryLink: async (param, raw) => {
      await db.query('INSERT INTO entry_links (param, raw) VALUES ($1, $2) ON CONFLICT (param) DO UPDATE SET raw = EXCLUDED.raw', [param, raw]);
    },
    entryLink: async (param) => (await firstRow<{ raw: string }>(db, 'SELECT raw FROM entry_links WHERE param = $1', [param]))?.raw,
  };
}
