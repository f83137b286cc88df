/**
 * User-agent tests used when opening the mobile app (spec §4 "Opening the mobile app", §8).
 * @module
 */

/**
 * In-app browsers of messaging and social apps, which block custom-scheme links: WeChat and
 * WeCom (`MicroMessenger`, `wxwork`), QQ (`QQ/`, not the QQ Browser), Weibo, DingTalk, Alipay,
 * Facebook, Instagram, LINE.
 */
const MESSAGING_APPS = [/MicroMessenger/i, /wxwork/i, /\bQQ\//, /Weibo/i, /DingTalk/i, /AlipayClient/i, /FBAN|FBAV/, /Instagram/, /\bLine\//];

/**
 * Whether the page runs in a messaging app's in-app browser (spec §8: the user is told to open
 * the page in a browser instead).
 * @param userAgent - `navigator.userAgent`
 */
export function isMessagingAppBrowser(userAgent: string): boolean {
  return typeof userAgent === 'string' && MESSAGING_APPS.some((re) => re.test(userAgent));
}

/**
 * Whether the user agent is iOS (iPhone, iPad, iPod). iPadOS in desktop mode reports a Mac user
 * agent and is not detected.
 * @param userAgent - `navigator.userAgent`
 */
export function isIOSUserAgent(userAgent: string): boolean {
  return typeof userAgent === 'string' && /iPhone|iPad|iPod/i.test(userAgent);
}

/**
 * Whether the user agent is a mobile browser (spec §4: only there does open-app fall back to the
 * website).
 * @param userAgent - `navigator.userAgent`
 */
export function isMobileUserAgent(userAgent: string): boolean {
  return typeof userAgent === 'string' && /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|OpenHarmony/i.test(userAgent);
}
