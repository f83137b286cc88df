/**
 * User-facing failure messages in the caller's language (the SDK sends `Accept-Language` and shows
 * the server's message as it is, spec §8). Codes without an entry keep their English message.
 * @module
 */
import { Code } from './envelope.js';

type Lang = 'zh' | 'zh-Hant' | 'en';

const MESSAGES: Readonly<Record<number, Record<Lang, string>>> = {
  [Code.Blacklisted]: {
    zh: '您已被拉黑，无法使用评价功能',
    'zh-Hant': '您已被拉黑，無法使用評價功能',
    en: 'You have been blacklisted and cannot use the review function',
  },
  [Code.AlreadyRated]: { zh: '您已经评价过了', 'zh-Hant': '您已經評價過了', en: 'You have commented already' },
  [Code.Banned]: {
    zh: '您已被禁止访问，请联系管理员',
    'zh-Hant': '您已被禁止訪問，請聯繫管理員',
    en: 'Access denied: please contact the administrator',
  },
  [Code.TooFrequent]: { zh: '请求频繁，请稍后再试', 'zh-Hant': '請求頻繁，請稍後再試', en: 'Requests too frequent, please try again later' },
  // a key session the server no longer knows (its TTL passed): the visitor reads what to do
  [Code.BadSalt]: { zh: '会话已过期，请刷新页面', 'zh-Hant': '會話已過期，請重新整理頁面', en: 'Your session has expired, please reload the page' },
};

/** The language to answer in, from an `Accept-Language` value (first tag wins). */
export function languageOf(acceptLanguage: string | undefined): Lang {
  const tag = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  if (tag === 'zh-hant' || tag === 'zh-tw' || tag === 'zh-hk' || tag === 'zh-mo') return 'zh-Hant';
  if (tag === 'zh' || tag.startsWith('zh-')) return 'zh';
  return 'en';
}

/**
 * The message for `code` in the caller's language, or `fallback` when the code has no entry.
 * @param code - the envelope code
 * @param acceptLanguage - the request's `Accept-Language`
 * @param fallback - the message to keep otherwise
 */
export function localizedMessage(code: number, acceptLanguage: string | undefined, fallback: string): string {
  return MESSAGES[code]?.[languageOf(acceptLanguage)] ?? fallback;
}
