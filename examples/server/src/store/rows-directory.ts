/**
 * The rows of key sessions and of the directory (merchants, platforms, groups and members, FAQ,
 * orders), written once for both stores: row types, mappers both ways and column lists (see
 * `rows.ts` for the conventions).
 * @module
 */

import { flagValue, isSet, type ColumnsOf, type Flag } from './rows.js';
import type { FaqCategory, FaqQuestion, Group, GroupMember, KeySession, Merchant, MerchantOrder, Platform } from './types.js';

/** A row of `key_sessions`. */
export interface KeySessionRow {
  salt_key: string;
  request_key: string;
  aes_key: string;
  token: string;
  created_at: number;
  last_used: number;
  bound_to: string | null;
}

/** The columns a new (unbound) key session is written with. */
export const KEY_SESSION_COLUMNS = ['salt_key', 'request_key', 'aes_key', 'token', 'created_at', 'last_used'] as const satisfies ColumnsOf<KeySessionRow>;

/** A key session from its row. */
export const toKeySession = (row: KeySessionRow): KeySession => ({
  saltKey: row.salt_key,
  requestKey: row.request_key,
  aesKey: row.aes_key,
  token: row.token,
  createdAt: row.created_at,
  lastUsed: row.last_used,
  boundTo: row.bound_to ?? null,
});

/** The row of a new key session (unbound). */
export const keySessionRow = (s: Omit<KeySession, 'boundTo'>): Omit<KeySessionRow, 'bound_to'> => ({
  salt_key: s.saltKey,
  request_key: s.requestKey,
  aes_key: s.aesKey,
  token: s.token,
  created_at: s.createdAt,
  last_used: s.lastUsed,
});

/** A row of `merchants` (`extra` is JSON text). */
export interface MerchantRow {
  mch_id: string;
  name: string;
  kefu_avatar2: string;
  extra: string;
}

/** The columns a merchant is written with. */
export const MERCHANT_COLUMNS = ['mch_id', 'name', 'kefu_avatar2', 'extra'] as const satisfies ColumnsOf<MerchantRow>;

/** The merchant's extra fields: a JSON object, or `{}` for anything else. */
function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A merchant from its row. */
export const toMerchant = (r: MerchantRow): Merchant => ({ mchId: r.mch_id, name: r.name, kefuAvatar2: r.kefu_avatar2, extra: parseObject(r.extra) });

/** The row of a merchant. */
export const merchantRow = (m: Merchant): MerchantRow => ({ mch_id: m.mchId, name: m.name, kefu_avatar2: m.kefuAvatar2, extra: JSON.stringify(m.extra) });

/** A row of `merchant_hours` (`hours` is JSON text). */
export interface MerchantHoursRow {
  mch_id: string;
  hours: string;
  updated_at: number;
}

/** The columns merchant hours are written with. */
export const MERCHANT_HOURS_COLUMNS = ['mch_id', 'hours', 'updated_at'] as const satisfies ColumnsOf<MerchantHoursRow>;

/** The row of a merchant's hours. */
export const merchantHoursRow = (mchId: string, hours: string, now: number): MerchantHoursRow => ({ mch_id: mchId, hours, updated_at: now });

/** A row of `platforms`. */
export interface PlatformRow {
  mch_id: string;
  platform_id: string;
  name: string;
  enabled: Flag;
}

/** The columns a platform is written with. */
export const PLATFORM_COLUMNS = ['mch_id', 'platform_id', 'name', 'enabled'] as const satisfies ColumnsOf<PlatformRow>;

/** A platform from its row. */
export const toPlatform = (r: PlatformRow): Platform => ({ mchId: r.mch_id, platformId: r.platform_id, name: r.name, enabled: isSet(r.enabled) });

/** The row of a platform. */
export const platformRow = (p: Platform): PlatformRow => ({ mch_id: p.mchId, platform_id: p.platformId, name: p.name, enabled: flagValue(p.enabled) });

/** A row of `groups`. */
export interface GroupRow {
  group_id: string;
  mch_id: string;
  name: string;
  kind: string;
  avatar: string;
  notice: string;
  open: Flag;
}

/** The columns a group is written with. */
export const GROUP_COLUMNS = ['group_id', 'mch_id', 'name', 'kind', 'avatar', 'notice', 'open'] as const satisfies ColumnsOf<GroupRow>;

/** A group from its row (an unknown kind reads as `group`). */
export const toGroup = (r: GroupRow): Group => ({
  groupId: r.group_id,
  mchId: r.mch_id,
  name: r.name,
  kind: r.kind === 'channel' ? 'channel' : 'group',
  avatar: r.avatar,
  notice: r.notice,
  open: isSet(r.open),
});

/** The row of a group. */
export const groupRow = (g: Group): GroupRow => ({
  group_id: g.groupId,
  mch_id: g.mchId,
  name: g.name,
  kind: g.kind,
  avatar: g.avatar,
  notice: g.notice,
  open: flagValue(g.open),
});

/** A row of `group_members`. */
export interface MemberRow {
  group_id: string;
  client_id: string;
  name: string;
  avatar: string;
  role: string;
  joined_at: number;
}

/** The columns a group member is written with. */
export const MEMBER_COLUMNS = ['group_id', 'client_id', 'name', 'avatar', 'role', 'joined_at'] as const satisfies ColumnsOf<MemberRow>;

/** A group member from its row (an unknown role reads as `member`). */
export const toMember = (r: MemberRow): GroupMember => ({
  groupId: r.group_id,
  clientId: r.client_id,
  name: r.name,
  avatar: r.avatar,
  role: r.role === 'staff' ? 'staff' : 'member',
  joinedAt: r.joined_at,
});

/** The row of a group member. */
export const memberRow = (m: GroupMember): MemberRow => ({
  group_id: m.groupId,
  client_id: m.clientId,
  name: m.name,
  avatar: m.avatar,
  role: m.role,
  joined_at: m.joinedAt,
});

/** A row of `faq_categories`. */
export interface CategoryRow {
  id: string;
  mch_id: string;
  platform_id: string;
  language: string;
  name: string;
  sort: number;
}

/** The columns an FAQ category is written with. */
export const CATEGORY_COLUMNS = ['id', 'mch_id', 'platform_id', 'language', 'name', 'sort'] as const satisfies ColumnsOf<CategoryRow>;

/** An FAQ category from its row. */
export const toCategory = (r: CategoryRow): FaqCategory => ({
  id: r.id,
  mchId: r.mch_id,
  platformId: r.platform_id,
  language: r.language,
  name: r.name,
  sort: r.sort,
});

/** The row of an FAQ category. */
export const categoryRow = (c: FaqCategory): CategoryRow => ({
  id: c.id,
  mch_id: c.mchId,
  platform_id: c.platformId,
  language: c.language,
  name: c.name,
  sort: c.sort,
});

/** A row of `faq_questions`. */
export interface QuestionRow {
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

/** The columns an FAQ question is written with. */
export const QUESTION_COLUMNS = ['id', 'category_id', 'mch_id', 'platform_id', 'language', 'question', 'answer', 'keywords', 'sort'] as const satisfies ColumnsOf<QuestionRow>;

/** An FAQ question from its row. */
export const toQuestion = (r: QuestionRow): FaqQuestion => ({
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

/** The row of an FAQ question. */
export const questionRow = (q: FaqQuestion): QuestionRow => ({
  id: q.id,
  category_id: q.categoryId,
  mch_id: q.mchId,
  platform_id: q.platformId,
  language: q.language,
  question: q.question,
  answer: q.answer,
  keywords: q.keywords,
  sort: q.sort,
});

/** A row of `orders`. */
export interface OrderRow {
  mch_id: string;
  order_no: string;
  user_account: string;
  user_mch_id: string;
  amount: string;
  status: string;
}

/** The columns an order is written with. */
export const ORDER_COLUMNS = ['mch_id', 'order_no', 'user_account', 'user_mch_id', 'amount', 'status'] as const satisfies ColumnsOf<OrderRow>;

/** A merchant order from its row. */
export const toOrder = (r: OrderRow): MerchantOrder => ({
  mchId: r.mch_id,
  orderNo: r.order_no,
  userAccount: r.user_account,
  userMchId: r.user_mch_id,
  amount: r.amount,
  status: r.status,
});

/** The row of a merchant order. */
export const orderRow = (o: MerchantOrder): OrderRow => ({
  mch_id: o.mchId,
  order_no: o.orderNo,
  user_account: o.userAccount,
  user_mch_id: o.userMchId,
  amount: o.amount,
  status: o.status,
});
