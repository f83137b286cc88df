/**
 * The companion-app helpers (spec §1, §4, §7) bound to this page: deep links into the app with
 * the 3 s website fallback and the in-app-browser rules, exposed for host pages and message links
 * as `window.kefuOpenApp.chat(id)`, `.group(link, variant?)` and `.link(url)`.
 * @module
 */
import { DEFAULT_DEEP_LINKS, DEFAULT_LIMITS, defaultTimers, type I18nKey } from '@kefu-im/sdk';
import { openChat, openGroup, openLink, type AppEnvironment, type OpenAppHelperEnv, type OpenAppWindow } from '@kefu-im/sdk/embed';

/** The helpers installed on the window. */
export interface OpenAppHelpers {
  /** Opens the one-to-one chat with `id` in the app. */
  chat(id: string): void;
  /** Opens a group link in the app (production, uat or test build). */
  group(link: string, variant?: AppEnvironment): void;
  /** Opens a link in the app. */
  link(url: string): void;
}

/** The global name of the helpers. */
export const OPEN_APP_GLOBAL = 'kefuOpenApp';

/**
 * The environment of the open-app helpers for this page.
 * @param win - the window
 * @param t - the current texts
 */
export function openAppEnv(win: OpenAppWindow & { navigator?: { userAgent?: string } }, t: (key: I18nKey) => string): OpenAppHelperEnv {
  return {
    window: win,
    timers: defaultTimers,
    userAgent: win.navigator?.userAgent ?? '',
    fallbackDelay: DEFAULT_LIMITS.openAppFallbackDelay,
    website: DEFAULT_DEEP_LINKS.website,
    inAppUserAgent: DEFAULT_DEEP_LINKS.inAppUserAgent,
    deepLinks: DEFAULT_DEEP_LINKS,
    texts: { openInBrowser: t('openInBrowser'), enterIdNumber: t('enterIdNumber'), enterGroupLink: t('enterGroupLink'), enterLink: t('enterLink') },
  };
}

/**
 * Installs `window.kefuOpenApp`.
 * @param win - the window
 * @param env - returns the environment at call time (current texts)
 * @returns a disposer that removes it
 */
export function installOpenAppHelpers(win: Window, env: () => OpenAppHelperEnv): () => void {
  const helpers: OpenAppHelpers = {
    chat: (id) => void openChat(id, env()),
    group: (link, variant) => void openGroup(link, env(), variant),
    link: (url) => void openLink(url, env()),
  };
  Object.defineProperty(win, OPEN_APP_GLOBAL, { value: Object.freeze(helpers), configurable: true, writable: true });
  return () => {
    if (Reflect.get(win, OPEN_APP_GLOBAL) === helpers) Reflect.deleteProperty(win, OPEN_APP_GLOBAL);
  };
}
