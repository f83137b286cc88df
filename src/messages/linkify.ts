/**
 * Clickable links and the display tokens of a message (spec §3: "Messages of type 100 or 200 have
 * links made clickable").
 *
 * Nothing here ever returns HTML. A renderer turns `text` tokens into text nodes, `emoji` tokens
 * into images and `link` tokens into anchors whose `href` has passed {@link isSafeUrl}, so that a
 * message can never inject markup or a `javascript:` link.
 * @module
 */
import { emojiIndex, parseEmoji, type EmojiTokenItem, type TextToken } from './emoji.js';
import { MessageType, type ChatMessage } from './types.js';

/** A clickable link: `text` is the literal text found, `href` the safe address it opens. */
export interface LinkTokenItem {
  /** Discriminant. */
  type: 'link';
  /** The literal text of the link as it appears in the message. */
  text: string;
  /** The address to open: an `http:` or `https:` URL that passed {@link isSafeUrl}. */
  href: string;
}

/** A token of {@link linkify}. */
export type LinkToken = TextToken | LinkTokenItem;

/** A token of {@link messageTokens}: text, an emoji or a link. */
export type ContentToken = TextToken | EmojiTokenItem | LinkTokenItem;

/** C0 controls, DEL, C1 controls, whitespace and invisible format characters. */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff\\]/;

/**
 * Whether a URL may be used as a link target: an absolute `http:` or `https:` URL, written with
 * the scheme and `//` literally at its start (so `javascript:`, `data:`, `vbscript:`, `//host`,
 * `http:\\host` and `/path` are refused), parseable by `URL`, with a host, without user
 * credentials (`http://good.com@evil.com` is a phishing trick) and without control, whitespace,
 * invisible or backslash characters.
 */
export function isSafeUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length === 0 || url.length > 2048) return false;
  if (!/^https?:\/\/[^/]/i.test(url) || UNSAFE_CHARS.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') return false;
  return true;
}

/**
 * URL candidates: `http(s)://` plus an optional IPv6 host, or `www.` not glued to a word before
 * it. URL characters are the ASCII ones RFC 3986 allows, minus quotes and brackets (so that
 * `http://a.com/">` and a following `face[name]` end the link); CJK text ends a link too.
 */
const CANDIDATE =
  /https?:\/\/(?:\[[0-9a-f:.]+\])?[a-z0-9\-._~:/?#@!$&()*+,;=%]*|(?<![a-z0-9@.\-_/])www\.[a-z0-9\-._~:/?#@!$&()*+,;=%]+/gi;

/** Punctuation that ends a sentence rather than a URL. */
const TRAILING = '.,;:!?*';

/** Trims trailing punctuation, keeping a `)` that closes a `(` inside the URL (`/wiki/A_(b)`). */
function trimTrailing(candidate: string): string {
  let s = candidate;
  while (s.length > 0) {
    const last = s[s.length - 1] ?? '';
    if (TRAILING.includes(last) || (last === ')' && count(s, ')') > count(s, '('))) s = s.slice(0, -1);
    else break;
  }
  return s;
}

/** Occurrences of a character. */
function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

/** `face[name]` with a known name: a link never swallows the `face` of a following emoji token. */
const FACE_AT = /^face\[([^[\]\r\n]{1,8})\]/;

/** The end of a candidate found at `start`, with punctuation and a glued-on emoji's `face` removed. */
function candidateText(text: string, start: number, raw: string): string {
  let candidate = trimTrailing(raw);
  if (candidate.endsWith('face')) {
    const emoji = FACE_AT.exec(text.slice(start + candidate.length - 4));
    if (emoji && emojiIndex(emoji[1] ?? '') >= 0) candidate = trimTrailing(candidate.slice(0, -4));
  }
  return candidate;
}

/** A `www.` address needs a dot-separated host such as `www.example.com`. */
function hrefOf(candidate: string): string | undefined {
  const isWww = /^www\./i.test(candidate);
  const href = isWww ? `https://${candidate}` : candidate;
  if (!isSafeUrl(href)) return undefined;
  if (isWww && !/^www\.[a-z0-9-]+\.[a-z0-9-]/i.test(candidate)) return undefined;
  return href;
}

/**
 * Finds `http(s)://` and `www.` addresses in plain text. Trailing sentence punctuation is not part
 * of a link, `www.` links open as `https://`, and only addresses that pass {@link isSafeUrl}
 * become links. Joining the tokens' `text` gives back the input exactly; nothing is ever returned
 * as HTML.
 * @example linkify('see www.a.com.') // [text 'see ', link 'www.a.com' -> https://www.a.com, text '.']
 */
export function linkify(text: string): LinkToken[] {
  if (typeof text !== 'string' || text === '') return [];
  const out: LinkToken[] = [];
  let pending = '';
  let last = 0;
  for (const m of text.matchAll(CANDIDATE)) {
    const candidate = candidateText(text, m.index, m[0]);
    const href = hrefOf(candidate);
    if (href === undefined) continue;
    pending += text.slice(last, m.index);
    if (pending !== '') out.push({ type: 'text', text: pending });
    pending = '';
    out.push({ type: 'link', text: candidate, href });
    last = m.index + candidate.length;
  }
  pending += text.slice(last);
  if (pending !== '') out.push({ type: 'text', text: pending });
  return out;
}

/**
 * The display tokens of a message. For text types 100 and 200 (spec §3) links become `link`
 * tokens and `face[name]` tokens outside links become `emoji` tokens (emoji inside links are not
 * parsed); for every other type the whole `dataContent` is one `text` token (or none when empty).
 */
export function messageTokens(message: Pick<ChatMessage, 'type' | 'dataContent'>): ContentToken[] {
  const content = typeof message?.dataContent === 'string' ? message.dataContent : '';
  if (content === '') return [];
  if (message.type !== MessageType.Text && message.type !== MessageType.RobotText) {
    return [{ type: 'text', text: content }];
  }
  const out: ContentToken[] = [];
  for (const token of linkify(content)) {
    if (token.type === 'link') {
      out.push(token);
      continue;
    }
    for (const piece of parseEmoji(token.text)) {
      const prev = out[out.length - 1];
      if (piece.type === 'text' && prev?.type === 'text') prev.text += piece.text;
      else out.push(piece);
    }
  }
  return out;
}
