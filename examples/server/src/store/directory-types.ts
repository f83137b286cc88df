/**
 * The directory's storage shapes: merchants, platforms, groups and their members, FAQ, orders and
 * entry links, kept out of `types.ts` for size (re-exported there).
 * @module
 */

/** A merchant. */
export interface Merchant {
  /** Merchant id. */
  mchId: string;
  /** Display name. */
  name: string;
  /** Service avatar (URL or data: URL). */
  kefuAvatar2: string;
  /** Further fields returned by getMerchantById as they are. */
  extra: Record<string, unknown>;
}

/** A merchant's platform. */
export interface Platform {
  /** Merchant id. */
  mchId: string;
  /** Platform id. */
  platformId: string;
  /** Display name. */
  name: string;
  /** Whether visitors may use it. */
  enabled: boolean;
}

/** A group or channel. */
export interface Group {
  groupId: string;
  mchId: string;
  name: string;
  /** A channel is a broadcast group: only staff post. */
  kind: 'group' | 'channel';
  avatar: string;
  notice: string;
  /** Visitors join on first contact. */
  open: boolean;
}

/** A member of a group. */
export interface GroupMember {
  groupId: string;
  clientId: string;
  name: string;
  avatar: string;
  role: 'member' | 'staff';
  joinedAt: number;
}

/** An FAQ category. */
export interface FaqCategory {
  id: string;
  mchId: string;
  platformId: string;
  language: string;
  name: string;
  sort: number;
}

/** An FAQ question with its answer. */
export interface FaqQuestion {
  id: string;
  categoryId: string;
  mchId: string;
  platformId: string;
  language: string;
  question: string;
  answer: string;
  /** Comma-separated extra words that match it. */
  keywords: string;
  sort: number;
}

/** A merchant order (the deposit card's data). */
export interface MerchantOrder {
  mchId: string;
  orderNo: string;
  userAccount: string;
  userMchId: string;
  amount: string;
  status: string;
}

/** Merchants, platforms, groups, FAQ, orders, entry links. */
export interface DirectoryRepo {
  putMerchant(merchant: Merchant): void;
  merchant(mchId: string): Merchant | undefined;
  putPlatform(platform: Platform): void;
  platform(mchId: string, platformId: string): Platform | undefined;
  firstPlatform(): Platform | undefined;
  putGroup(group: Group): void;
  group(groupId: string): Group | undefined;
  /** Adds a member; an existing member is kept as it is. */
  addMember(member: GroupMember): void;
  member(groupId: string, clientId: string): GroupMember | undefined;
  /** The members of a group: staff first, then by joining time, then by client id (byte order). */
  members(groupId: string): GroupMember[];
  putCategory(category: FaqCategory): void;
  categories(mchId: string, platformId: string, language: string): FaqCategory[];
  putQuestion(question: FaqQuestion): void;
  question(id: string): FaqQuestion | undefined;
  /** Questions of a merchant's platform; all languages when `language` is undefined. */
  questions(mchId: string, platformId: string, language?: string): FaqQuestion[];
  /** The languages the merchant's FAQ is written in. */
  faqLanguages(mchId: string, platformId: string): string[];
  putOrder(order: MerchantOrder): void;
  order(mchId: string, orderNo: string): MerchantOrder | undefined;
  putEntryLink(param: string, raw: string): void;
  entryLink(param: string): string | undefined;
  /** A merchant's business hours as JSON text (`services/business-hours.ts` reads it), if set. */
  merchantHours(mchId: string): string | undefined;
  /** Sets (JSON text) or, with null, removes a merchant's business hours. */
  putMerchantHours(mchId: string, hours: string | null, now: number): void;
}
