/**
 * `@kefu-im/sdk/format`: what a UI needs to show a message, kept out of the headless client's
 * start-up: its display tokens (text, the 99 `face[name]` emoji, links whose `href` passed
 * {@link isSafeUrl}; never HTML), its times (`HH:mm:ss` today, the full date otherwise), the
 * parsers of its content (file, session event, suggestions, refusal, agent queue) and marking it
 * read once it scrolls into view ({@link observeReadOnScroll}).
 * @packageDocumentation
 */
export { EMOJI_NAMES, EMOJI_SIZE, emojiIndex, emojiToken, parseEmoji } from './messages/emoji.js';
export type { EmojiName, EmojiToken, EmojiTokenItem, TextToken } from './messages/emoji.js';
export { isSafeUrl, linkify, messageTokens } from './messages/linkify.js';
export type { ContentToken, LinkToken, LinkTokenItem } from './messages/linkify.js';
export { formatDateTime, formatReceiptTime } from './messages/time.js';
export {
  isChatType,
  messageTimeMs,
  parseAgentQueue,
  parseFileContent,
  parseRefusal,
  parseSessionEvent,
  parseSuggestions,
} from './messages/content.js';
export type { Refusal } from './messages/content.js';
export { reduceSessionEvent } from './session-events.js';
export { observeReadOnScroll, shouldMarkReadOnScroll } from './receipts/read-on-scroll.js';
export type {
  IntersectionEntryLike,
  IntersectionObserverConstructorLike,
  IntersectionObserverLike,
  ReadOnScrollOptions,
} from './receipts/read-on-scroll.js';
