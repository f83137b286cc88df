/**
 * The entry-link parameters (spec §3 "Entry-link parameters", protocol §6).
 *
 * A chat link is `/kefu/<param>` where `<param>` is `base64url(raw)` (see
 * {@link decodeEntryLinkParam}) or an opaque value that the server turns into `raw`
 * (`GET /im/api/permit/decodeParam`). {@link decodeEntryParams} then reads `raw`.
 * @module
 */
import { base64UrlDecode, base64UrlEncode } from './crypto/encoding.js';

/** The fields decoded from an entry link. A value is a number when its segment looked numeric. */
export interface EntryParams {
  /** Merchant id (segment 3). */
  mchId: string | number;
  /** Agent id (segment 5, layouts `data` and `data3` only). */
  kefuId: string | number;
  /** Platform id (segment 4). */
  platformId: string | number;
  /** Interface language (segment 6 of `data3`); `'no'` means none. */
  language: string | number;
  /** Group id (segment 9 of `data3`); `'0'` or `0` means none. */
  groupId: string | number;
}

/** The layouts chosen by segment 1. */
export type EntryLayout = 'data' | 'data2' | 'data3';

/** Default language when the link names none. */
export const DEFAULT_ENTRY_LANGUAGE = 'no';
/** Default group id when the link names none. */
export const DEFAULT_ENTRY_GROUP_ID = '0';

/** A finite decimal number: optional sign, digits with an optional fraction (no exponent, no hex). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Converts one segment: a segment that is a finite decimal number becomes a number (`'1001'` ->
 * `1001`, `'-2.5'` -> `-2.5`); anything else stays a string (`'abc'`, `''`, `'1e3'`, `'0x10'`).
 * @param segment - one colon-separated segment
 * @returns the number or the unchanged string
 */
export function toEntryValue(segment: string): string | number {
  if (!DECIMAL.test(segment)) return segment;
  const n = Number(segment);
  return Number.isFinite(n) ? n : segment;
}

/** A segment counts as missing when it is absent or empty. */
function present(v: string | number | undefined): v is string | number {
  return v !== undefined && v !== '';
}

/**
 * Decodes the raw entry string into {@link EntryParams}. The rules, in order:
 *
 * 1. Empty input (`''`) gives all-empty values: every field is `''`.
 * 2. The string is split on `:`. A segment that is a finite decimal number becomes a number
 *    (see `toEntryValue`); other segments stay strings.
 * 3. Segment 1 chooses the layout: `data`, `data2` or `data3`. Any other layout reads no segment:
 *    every id is `''` and the defaults apply.
 * 4. Segment 3 is the merchant id and segment 4 the platform id (all three layouts).
 * 5. Segment 5 is the agent id (`kefuId`) in layouts `data` and `data3` only; in `data2` it is
 *    `''` whatever segment 5 holds.
 * 6. In `data3`, segment 6 is the language; `'null'` or `0` (also `'0'`, which becomes `0`) mean
 *    none, which gives the default.
 * 7. In `data3`, segment 9 is the group id; `'null'` or `'data3'` mean the number `0`.
 * 8. Defaults: language `'no'`, group id `'0'` (a string), and `''` for a missing id. A segment
 *    that is absent (too few segments) or empty counts as missing; this never throws.
 *
 * @example
 * ```ts
 * decodeEntryParams('data3:x:1001:2:77:en:a:b:9');
 * // { mchId: 1001, platformId: 2, kefuId: 77, language: 'en', groupId: 9 }
 * ```
 * @param raw - the raw entry string (e.g. `data3:x:1001:2:77:en:a:b:9`)
 * @returns the decoded parameters
 */
export function decodeEntryParams(raw: string): EntryParams {
  if (typeof raw !== 'string' || raw === '') {
    return { mchId: '', kefuId: '', platformId: '', language: '', groupId: '' };
  }
  const segs = raw.split(':').map(toEntryValue);
  const result: EntryParams = {
    mchId: '',
    kefuId: '',
    platformId: '',
    language: DEFAULT_ENTRY_LANGUAGE,
    groupId: DEFAULT_ENTRY_GROUP_ID,
  };
  const layout = raw.split(':')[0];
  if (layout !== 'data' && layout !== 'data2' && layout !== 'data3') return result;
  const [, , mchId, platformId, kefuId, language, , , groupId] = segs;
  if (present(mchId)) result.mchId = mchId;
  if (present(platformId)) result.platformId = platformId;
  if (layout === 'data2') return result;
  if (present(kefuId)) result.kefuId = kefuId;
  if (layout === 'data') return result;
  if (present(language) && language !== 'null' && language !== 0) result.language = language;
  if (present(groupId)) result.groupId = groupId === 'null' || groupId === 'data3' ? 0 : groupId;
  return result;
}

/**
 * Turns the `<param>` of `/kefu/<param>` into the raw entry string: base64url (with or without
 * padding) of the UTF-8 raw text.
 * @param param - the path segment
 * @returns the raw entry string
 * @throws Error `Invalid base64url string: ...` when `param` is not base64url text
 */
export function decodeEntryLinkParam(param: string): string {
  return base64UrlDecode(param);
}

/**
 * Builds the `<param>` of `/kefu/<param>` from a raw entry string: base64url without padding.
 * @param raw - the raw entry string (e.g. `data3:x:1001:2:77`)
 * @returns the path segment
 */
export function encodeEntryLinkParam(raw: string): string {
  return base64UrlEncode(raw);
}
