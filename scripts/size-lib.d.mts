/** Sizes in bytes, min+gzip. */
export interface BundleSizes {
  /** The entry and everything it imports statically. */
  initial: number;
  /** Every chunk loaded by a dynamic import. */
  lazy: number;
  /** How many lazy chunks. */
  lazyChunks: number;
  /** The largest lazy chunk. */
  largestLazy: number;
  /** initial + lazy. */
  total: number;
}
/** Budget of the SDK's initial bundle, bytes min+gzip. */
export const SDK_BUDGET_BYTES: number;
/** Bundles an entry (or stdin source) for browsers and measures it. */
export function measureBundle(opts?: { entry?: string; external?: string[]; stdin?: string }): Promise<BundleSizes>;
/** Measures a built entry of the SDK: `index` or `embed`. */
export function measureSdkSize(name?: string): Promise<BundleSizes>;
