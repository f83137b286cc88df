/**
 * Custom-scheme deep links into the companion mobile app (spec §7 "Cross-window and deep links").
 *
 * | link | opens |
 * |---|---|
 * | `<scheme>://chat?identify=<id>` | the one-to-one chat page with the user `<id>` |
 * | `<scheme>://group?qrUrl=<url>` | the group chat page of a group link (`testScheme`, `uatScheme` for those builds) |
 * | `<scheme>://open?url=<url>` | the given link, opened directly in the app |
 *
 * Values are trimmed and `encodeURIComponent`-encoded.
 * @module
 */
import type { DeepLinkOptions } from '../options.js';

/** Which app build a group link targets (spec §7: test, uat and default production schemes). */
export type AppEnvironment = 'production' | 'uat' | 'test';

const SCHEME = /^[a-z][a-z0-9+.-]*$/i;

function schemeOf(opts: Pick<DeepLinkOptions, 'scheme' | 'testScheme' | 'uatScheme'>, env: AppEnvironment): string {
  if (typeof opts !== 'object' || opts === null) throw new TypeError('Deep links: options with the app schemes are required');
  let scheme: unknown;
  if (env === 'production') scheme = opts.scheme;
  else if (env === 'uat') scheme = opts.uatScheme;
  else if (env === 'test') scheme = opts.testScheme;
  else throw new RangeError(`Deep links: environment must be production, uat or test, got ${String(env)}`);
  if (typeof scheme !== 'string' || !SCHEME.test(scheme)) {
    throw new TypeError(`Deep links: the ${env} scheme ${JSON.stringify(scheme)} is not a valid URL scheme`);
  }
  return scheme;
}

function value(input: unknown, name: string): string {
  const text = typeof input === 'number' && Number.isFinite(input) ? String(input) : input;
  if (typeof text !== 'string' || text.trim() === '') throw new TypeError(`Deep links: ${name} must be a non-empty string`);
  return encodeURIComponent(text.trim());
}

/**
 * The link that opens the one-to-one chat page in the app: `<scheme>://chat?identify=<identify>`.
 * @param opts - the app schemes
 * @param identify - the id of the user to chat with
 * @throws TypeError for a blank id or an invalid scheme
 */
export function chatLink(opts: Pick<DeepLinkOptions, 'scheme' | 'testScheme' | 'uatScheme'>, identify: string): string {
  return `${schemeOf(opts, 'production')}://chat?identify=${value(identify, 'identify')}`;
}

/**
 * The link that opens a group's chat page in the app: `<scheme>://group?qrUrl=<qrUrl>`, with the
 * test or UAT scheme for those builds.
 * @param opts - the app schemes
 * @param qrUrl - the group link (the URL a group QR code holds)
 * @param env - which app build (default production)
 * @throws TypeError for a blank link or an invalid scheme; RangeError for an unknown environment
 */
export function groupLink(
  opts: Pick<DeepLinkOptions, 'scheme' | 'testScheme' | 'uatScheme'>,
  qrUrl: string,
  env: AppEnvironment = 'production',
): string {
  const scheme = schemeOf(opts, env);
  return `${scheme}://group?qrUrl=${value(qrUrl, 'qrUrl')}`;
}

/**
 * The link that makes the app open a given link directly: `<scheme>://open?url=<url>`.
 * @param opts - the app schemes
 * @param url - the link to open
 * @throws TypeError for a blank link or an invalid scheme
 */
export function openLinkUrl(opts: Pick<DeepLinkOptions, 'scheme' | 'testScheme' | 'uatScheme'>, url: string): string {
  return `${schemeOf(opts, 'production')}://open?url=${value(url, 'url')}`;
}
