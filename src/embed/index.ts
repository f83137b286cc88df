/**
 * Embedding: deep links into the mobile app, opening the app, the launch message, inbound
 * message origin checks and the global jump functions.
 * @module
 */
export { chatLink, groupLink, openLinkUrl } from './deep-links.js';
export type { AppEnvironment } from './deep-links.js';
export { openApp, openChat, openGroup, openLink } from './open-app.js';
export type { OpenAppEnv, OpenAppHelperEnv, OpenAppMessage, OpenAppTexts, OpenAppWindow, PostMessageTarget } from './open-app.js';
export { isIOSUserAgent, isMessagingAppBrowser, isMobileUserAgent } from './user-agent.js';
export { listenForMessages, postLaunch } from './launch.js';
export type { LaunchMessage, LaunchWindow, MessageListenerOptions } from './launch.js';
export { DEFAULT_JUMP_FUNCTION_NAMES, installJumpFunctions } from './jump.js';
export type { JumpFunctionNames, JumpHandlers } from './jump.js';
