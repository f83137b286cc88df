/**
 * The desk's visitor context panel: who the visitor is (name, language, first and last seen),
 * which merchant and platform it talks to, what it arrived with (the entry link's parameters and
 * the page's query, services/arrivals.ts) and the deposit card of the order it arrived with, how
 * many earlier conversations it had with that merchant and the last rating it gave. Read by an agent the visitor is assigned to (protocol
 * §3a: the caller's `actFor` is checked by the route before this is called).
 * @module
 */

import { ApiError, Code } from '../http/envelope.js';
import type { Store } from '../store/types.js';
import { ORDER_PARAM } from './arrivals.js';

/** The most ended conversations counted (more show as this many). */
export const MAX_COUNTED = 1000;

/** A merchant order as the deposit card shows it (the fields of `validateMchOrder`). */
export interface DepositCard {
  userAccount: string;
  userMchId: string;
  mchOrderNo: string;
  amount: string;
  status: string;
}

/** What the desk shows beside a conversation. */
export interface VisitorContext {
  clientId: string;
  name: string;
  language: string;
  firstSeen: number;
  lastSeen: number;
  mchId: string;
  merchantName: string;
  platformId: string;
  platformName: string;
  /** Ended conversations with this merchant (at most {@link MAX_COUNTED}). */
  pastConversations: number;
  /** The score of the newest rated conversation with this merchant, or null. */
  lastRating: number | null;
  /** What the visitor last arrived with at the platform (name to value; empty when nothing was kept). */
  entry: Record<string, string>;
  /** When it arrived with {@link VisitorContext.entry} (ms), or null. */
  arrivedAt: number | null;
  /** The deposit card of the order it arrived with (`cpay`), or null when none or unknown to the merchant. */
  deposit: DepositCard | null;
}

/**
 * The context of `clientId` with a merchant's platform.
 * @throws ApiError 1003 when the visitor is unknown.
 */
export async function visitorContext(store: Store, clientId: string, mchId: string, platformId: string): Promise<VisitorContext> {
  const visitor = await store.chat.visitor(clientId);
  if (!visitor) throw new ApiError(Code.NotFound, 'no such visitor');
  const [merchant, platform, ended, arrival] = await Promise.all([
    store.directory.merchant(mchId),
    store.directory.platform(mchId, platformId),
    store.desk.pastConversations({ mchId, visitor: clientId, offset: 0, size: MAX_COUNTED }),
    store.desk.arrival(clientId, mchId, platformId),
  ]);
  const own = ended.filter((c) => c.clientId === clientId);
  const orderNo = arrival?.params[ORDER_PARAM];
  const order = orderNo === undefined ? undefined : await store.directory.order(mchId, orderNo);
  return {
    clientId,
    name: visitor.name,
    language: visitor.language,
    firstSeen: visitor.createdAt,
    lastSeen: visitor.lastSeen,
    mchId,
    merchantName: merchant?.name ?? '',
    platformId,
    platformName: platform?.name ?? '',
    pastConversations: own.length,
    lastRating: own.find((c) => c.score !== null)?.score ?? null,
    entry: arrival?.params ?? {},
    arrivedAt: arrival?.arrivedAt ?? null,
    deposit: order ? { userAccount: order.userAccount, userMchId: order.userMchId, mchOrderNo: order.orderNo, amount: order.amount, status: order.status } : null,
  };
}
