/**
 * `@kefu-im/sdk/embed`: helpers for the page that hosts the chat: entry links
 * (`decodeEntryParams`), deep links into the mobile app, opening the app, the launch message,
 * inbound message origin checks, the global jump functions, and the layout, key and scroll rules
 * of spec §9.
 * @module
 */
export {
  decodeEntryLinkParam,
  decodeEntryParams,
  DEFAULT_ENTRY_GROUP_ID,
  DEFAULT_ENTRY_LANGUAGE,
  encodeEntryLinkParam,
} from '../entry-link.js';
export type { EntryLayout, EntryParams } from '../entry-link.js';
export { chatLink, groupLink, openLinkUrl } from './deep-links.js';
export type { AppEnvironment } from './deep-links.js';
export { openApp, openChat, openGroup, openLink } from './open-app.js';
export type { OpenAppEnv, OpenAppHelperEnv, OpenAppMessage, OpenAppTexts, OpenAppWindow, PostMessageTarget } from './open-app.js';
export { isIOSUserAgent, isMessagingAppBrowser, isMobileUserAgent } from './user-agent.js';
export { listenForMessages, postLaunch } from './launch.js';
export type { LaunchMessage, LaunchOptions, LaunchWindow, MessageListenerOptions } from './launch.js';
export { embeddingOrigin } from './embedding-origin.js';
export type { EmbeddingDocument, EmbeddingLocation, EmbeddingWindow, OriginList } from './embedding-origin.js';
export { DEFAULT_JUMP_FUNCTION_NAMES, installJumpFunctions } from './jump.js';
export type { JumpFunctionNames, JumpHandlers } from './jump.js';
// Page layout, keys and scrolling (spec §9)
export { applyLayout, HAIRLINE_CLASS, LAYOUT_RULES, rootFontSize, usesHairlines } from '../dom/layout.js';
export type { LayoutRootElement, LayoutWindow } from '../dom/layout.js';
export { isCharacterKey, NON_CHARACTER_KEYS } from '../dom/keys.js';
export { distanceFromBottom, scrollToBottom } from '../dom/scroll.js';
export type { ScrollContainer, ScrollToBottomOptions, ScrollToBottomResult } from '../dom/scroll.js';

