/**
 * Opening the companion mobile app through a deep link (spec §4 "Opening the mobile app", §5,
 * §8 "Other").
 * @module
 */
import type { DeepLinkOptions } from '../options.js';
import { Disposables, type Disposer, type ListenerTarget, type TimerProvider } from '../timers.js';
import { chatLink, groupLink, openLinkUrl, type AppEnvironment } from './deep-links.js';
import { embeddingOrigin, type OriginList } from './embedding-origin.js';
import { isIOSUserAgent, isMessagingAppBrowser, isMobileUserAgent } from './user-agent.js';

/** Anything with `postMessage` (a window, a parent window). */
export interface PostMessageTarget {
  /** Like `Window.postMessage`. */
  postMessage(message: unknown, targetOrigin: string): void;
}

/** The parts of `window` that open-app uses. A real `Window` fits. */
export interface OpenAppWindow extends ListenerTarget {
  /** Where the deep link and the website fallback are navigated to. */
  location: {
    /** The page address; setting it navigates. */
    href: string;
    /** The origins of the framing pages, nearest first (Chromium, Safari). */
    readonly ancestorOrigins?: OriginList | null;
  };
  /** The parent window; the window itself when not framed. */
  readonly parent?: PostMessageTarget | null;
  /** The document, whose `hidden` tells whether the app took over the page. */
  readonly document?:
    | (ListenerTarget & {
        /** True while the page is hidden (another app or tab in front). */
        readonly hidden?: boolean;
        /** In a frame, the address of the page that loaded it. */
        readonly referrer?: string;
      })
    | null;
  /** Used to alert when `env.alert` is not given. */
  alert?(message?: string): void;
}

/** Texts open-app shows; the three `enter*` texts default to the spec's Chinese. */
export interface OpenAppTexts {
  /** Shown inside a messaging app's in-app browser (i18n key `openInBrowser`). */
  openInBrowser: string;
  /** Blank id for {@link openChat} (default '请输入ID号'). */
  enterIdNumber?: string;
  /** Blank group link for {@link openGroup} (default '请输入群链接'). */
  enterGroupLink?: string;
  /** Blank link for {@link openLink} (default '请输入链接'). */
  enterLink?: string;
}

/** The environment of {@link openApp}: everything it touches is injected. */
export interface OpenAppEnv {
  /** The window to navigate. */
  window: OpenAppWindow;
  /** Timers for the website fallback. */
  timers: TimerProvider;
  /** `navigator.userAgent`. */
  userAgent: string;
  /** Delay before falling back to the website, ms (spec §9: 3 000). */
  fallbackDelay: number;
  /** The product's public website (spec §4); `''` disables the fallback. */
  website: string;
  /** A user-agent fragment of the product's own in-app browser (no fallback there). */
  inAppUserAgent: string;
  /** Shows a text to the user (default `window.alert`). */
  alert?: (text: string) => void;
  /** The texts to show. */
  texts: OpenAppTexts;
  /**
   * Target origin of the `openApp` message posted to a parent frame on iOS. Default: the
   * embedding page's origin as {@link embeddingOrigin} detects it; never `*` by default, since the
   * message carries the link the user opens: when the origin is unknown the frame navigates itself
   * instead.
   */
  parentOrigin?: string;
}

/** The environment of the checked helpers: {@link OpenAppEnv} plus the app schemes. */
export interface OpenAppHelperEnv extends OpenAppEnv {
  /** The app schemes the deep links are built with. */
  deepLinks: Pick<DeepLinkOptions, 'scheme' | 'testScheme' | 'uatScheme'>;
}

/** The message posted to the parent frame on iOS instead of navigating (spec §4). */
export interface OpenAppMessage {
  /** Always `openApp`. */
  type: 'openApp';
  /** The deep link the parent should open. */
  url: string;
}

/** The spec's Chinese missing-input texts (spec §5). */
const MISSING_INPUT = { enterIdNumber: '请输入ID号', enterGroupLink: '请输入群链接', enterLink: '请输入链接' } as const;

const noop: Disposer = () => undefined;

function say(env: OpenAppEnv, text: string): void {
  if (typeof env.alert === 'function') return env.alert(text);
  const alert = env.window?.alert;
  if (typeof alert === 'function') alert.call(env.window, text);
}

function isFramed(win: OpenAppWindow): boolean {
  try {
    const parent = win.parent;
    return parent !== null && parent !== undefined && (parent as unknown) !== win;
  } catch {
    return false;
  }
}

function checkEnv(env: OpenAppEnv): void {
  if (typeof env !== 'object' || env === null) throw new TypeError('openApp: env is required');
  if (typeof env.window !== 'object' || env.window === null || typeof env.window.location !== 'object') {
    throw new TypeError('openApp: env.window must be a window with a location');
  }
  if (typeof env.timers !== 'object' || env.timers === null) throw new TypeError('openApp: env.timers is required');
  if (typeof env.fallbackDelay !== 'number' || !(env.fallbackDelay >= 0) || !Number.isFinite(env.fallbackDelay)) {
    throw new RangeError(`openApp: env.fallbackDelay must be a number of ms >= 0, got ${String(env.fallbackDelay)}`);
  }
}

/**
 * Opens the app through a deep link (spec §4):
 *
 * 1. inside a messaging app's in-app browser (WeChat, QQ, Weibo, DingTalk, Alipay...), alerts
 *    `texts.openInBrowser` and does not navigate (spec §8);
 * 2. framed in another page on iOS, posts `{ type: 'openApp', url }` to the parent instead of
 *    navigating, targeted at the parent's origin (`parentOrigin`, else detected by
 *    {@link embeddingOrigin}); when that origin is unknown it never posts to `*` (the url may name
 *    a chat or a group) but navigates its own frame as in step 3;
 * 3. otherwise navigates to `url`; on a mobile browser, if the page is still visible after
 *    `fallbackDelay` ms (no `visibilitychange` to hidden, `pagehide` or `blur`), it goes to the
 *    `website`, except inside the product's own in-app browser (user agent containing
 *    `inAppUserAgent`, which also skips step 1).
 * @param url - the deep link
 * @param env - window, timers, user agent and texts
 * @returns a disposer that cancels a pending fallback (and its listeners)
 * @throws TypeError for a blank url or a missing window/timers; RangeError for a bad delay
 */
export function openApp(url: string, env: OpenAppEnv): Disposer {
  if (typeof url !== 'string' || url.trim() === '') throw new TypeError('openApp: url must be a non-empty string');
  checkEnv(env);
  const ua = typeof env.userAgent === 'string' ? env.userAgent : '';
  const ownApp = typeof env.inAppUserAgent === 'string' && env.inAppUserAgent !== '' && ua.includes(env.inAppUserAgent);
  const win = env.window;
  if (!ownApp && isMessagingAppBrowser(ua)) {
    say(env, env.texts?.openInBrowser ?? '');
    return noop;
  }
  const parentOrigin = env.parentOrigin || embeddingOrigin(win);
  if (isIOSUserAgent(ua) && isFramed(win) && win.parent && parentOrigin) {
    const message: OpenAppMessage = { type: 'openApp', url };
    win.parent.postMessage(message, parentOrigin);
    return noop;
  }
  win.location.href = url;
  if (ownApp || !isMobileUserAgent(ua) || !env.website) return noop;

  const d = new Disposables(env.timers);
  const doc = win.document ?? null;
  const appTookOver = (): void => d.dispose();
  d.listen(win, 'pagehide', appTookOver);
  d.listen(win, 'blur', appTookOver);
  if (doc) {
    d.listen(doc, 'visibilitychange', () => {
      if (doc.hidden) appTookOver();
    });
  }
  d.timeout(() => {
    d.dispose();
    if (!doc?.hidden) win.location.href = env.website;
  }, env.fallbackDelay);
  return () => d.dispose();
}

function isBlank(input: unknown): boolean {
  if (typeof input === 'number') return !Number.isFinite(input);
  return typeof input !== 'string' || input.trim() === '';
}

/**
 * Opens the one-to-one chat with `identify` in the app; alerts `texts.enterIdNumber`
 * ('请输入ID号') when it is blank (spec §5).
 * @param identify - the user id
 * @param env - see {@link openApp}, plus the app schemes
 * @returns see {@link openApp}
 */
export function openChat(identify: string, env: OpenAppHelperEnv): Disposer {
  checkEnv(env);
  if (isBlank(identify)) {
    say(env, env.texts?.enterIdNumber ?? MISSING_INPUT.enterIdNumber);
    return noop;
  }
  return openApp(chatLink(env.deepLinks, identify), env);
}

/**
 * Opens a group's chat page in the app; alerts `texts.enterGroupLink` ('请输入群链接') when the
 * link is blank (spec §5).
 * @param qrUrl - the group link
 * @param env - see {@link openApp}, plus the app schemes
 * @param variant - which app build: production (default), uat or test
 * @returns see {@link openApp}
 */
export function openGroup(qrUrl: string, env: OpenAppHelperEnv, variant: AppEnvironment = 'production'): Disposer {
  checkEnv(env);
  if (isBlank(qrUrl)) {
    say(env, env.texts?.enterGroupLink ?? MISSING_INPUT.enterGroupLink);
    return noop;
  }
  return openApp(groupLink(env.deepLinks, qrUrl, variant), env);
}

/**
 * Opens a given link in the app; alerts `texts.enterLink` ('请输入链接') when it is blank
 * (spec §5).
 * @param link - the link to open
 * @param env - see {@link openApp}, plus the app schemes
 * @returns see {@link openApp}
 */
export function openLink(link: string, env: OpenAppHelperEnv): Disposer {
  checkEnv(env);
  if (isBlank(link)) {
    say(env, env.texts?.enterLink ?? MISSING_INPUT.enterLink);
    return noop;
  }
  return openApp(openLinkUrl(env.deepLinks, link), env);
}
