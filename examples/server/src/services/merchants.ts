/**
 * Merchants and what hangs off them: platforms (and whether visitors may use one), merchant
 * orders (the deposit card) and entry links (protocol §6).
 * @module
 */

import { DEFAULT_KEFU_AVATAR } from '../chat/context.js';
import { ApiError, Code } from '../http/envelope.js';
import type { Merchant, MerchantOrder, Platform, Store } from '../store/types.js';

const LAYOUT = /^(data|data2|data3):/;

/** What `getMerchantById` shows: the merchant's extra fields, then its names and avatar. */
export type MerchantProfile = Record<string, unknown> & {
  mchId: string;
  platformId: string;
  platformName: string;
  name: string;
  kefuAvatar2: string;
  /** Whether the merchant's agents see a visitor's draft as it is typed (protocol §5a; the visitor page says so). */
  sneakPeek: boolean;
};

/**
 * `raw` of an entry param (protocol §6): a stored opaque value, or base64url of `data...:...`.
 * @internal
 */
export async function decodeEntryParam(param: string, lookup: (param: string) => Promise<string | undefined>): Promise<string | undefined> {
  const stored = await lookup(param);
  if (stored !== undefined) return stored;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(param)) return undefined;
  const raw = Buffer.from(param, 'base64url').toString('utf8');
  return LAYOUT.test(raw) && !raw.includes('\uFFFD') ? raw : undefined;
}

/** The merchant service. */
export class Merchants {
  /**
   * @param store - storage
   * @param sneakPeek - whether a merchant has sneak peek on (`services/typing.ts`); off by default
   */
  constructor(
    private readonly store: Store,
    private readonly sneakPeek: (merchant: Merchant) => boolean = () => false,
  ) {}

  /**
   * The merchant.
   * @throws ApiError 1003 when unknown.
   */
  async requireMerchant(mchId: string): Promise<Merchant> {
    const merchant = await this.store.directory.merchant(mchId);
    if (!merchant) throw new ApiError(Code.NotFound, 'Unknown merchant');
    return merchant;
  }

  /** The first platform stored, enabled or not (where a visitor that names none is placed), if any. */
  firstPlatform(): Promise<Platform | undefined> {
    return this.store.directory.firstPlatform();
  }

  /** The platform, enabled or not, if any. */
  platform(mchId: string, platformId: string): Promise<Platform | undefined> {
    return this.store.directory.platform(mchId, platformId);
  }

  /**
   * The merchant's platform, open to visitors.
   * @throws ApiError 1003 when the merchant or the platform is unknown, or the platform is disabled.
   */
  async requirePlatform(mchId: string, platformId: string): Promise<Platform> {
    const platform = await this.platform(mchId, platformId);
    if (!platform || !(await this.store.directory.merchant(mchId))) {
      throw new ApiError(Code.NotFound, 'Unknown merchant or platform');
    }
    if (!platform.enabled) throw new ApiError(Code.NotFound, 'This platform is not enabled');
    return platform;
  }

  /**
   * What `getMerchantById` shows.
   * @throws ApiError 1003 as {@link Merchants.requirePlatform}.
   */
  async profile(mchId: string, platformId: string): Promise<MerchantProfile> {
    const platform = await this.requirePlatform(mchId, platformId);
    const merchant = await this.requireMerchant(mchId);
    return {
      ...merchant.extra,
      mchId: merchant.mchId,
      platformId: platform.platformId,
      platformName: platform.name,
      name: merchant.name,
      kefuAvatar2: merchant.kefuAvatar2 || DEFAULT_KEFU_AVATAR,
      sneakPeek: this.sneakPeek(merchant),
    };
  }

  /**
   * A merchant order.
   * @throws ApiError 1003 when unknown.
   */
  async requireOrder(mchId: string, orderNo: string): Promise<MerchantOrder> {
    const order = await this.store.directory.order(mchId, orderNo);
    if (!order) throw new ApiError(Code.NotFound, 'Unknown merchant order');
    return order;
  }

  /**
   * The `raw` value of an entry param ({@link decodeEntryParam}).
   * @throws ApiError 1003 when it names nothing.
   */
  async entryRaw(param: string): Promise<string> {
    const raw = await decodeEntryParam(param, (x) => this.store.directory.entryLink(x));
    if (raw === undefined) throw new ApiError(Code.NotFound, 'Link is broken');
    return raw;
  }
}
