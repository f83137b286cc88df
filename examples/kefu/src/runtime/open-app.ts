/**
 * The companion-app helpers (spec §1, §4, §7) bound to this page: deep links into the app with
 * the 3 s website fallback and the in-app-browser rules, exposed for host pages and message links
 * as `window.kefuOpenApp.chat(id)`, `.group(link, variant?)` and `.link(url)`. The helpers are
 * there from the start; the actions behind them (`open-app-actions.ts`) come in their own chunk.
 * @module
 */
import { DEFAULT_DEEP_LINKS, DEFAULT_LIMITS, defaultTimers, type I18nKey } from '@kefu-im/sdk';
import type { AppEnvironment, OpenAppHelperEnv, OpenAppWindow } from '@kefu-im/sdk/embed';
import type * as OpenAppActionsModule from './open-app-actions.js';

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

/** The deep-link actions behind the helpers. */
export type OpenAppActions = Pick<typeof OpenAppActionsModule, 'openChat' | 'openGroup' | 'openLink'>;

/** Fetches the actions (their chunk by default; injected in tests). */
export type LoadOpenAppActions = () => Promise<OpenAppActions>;

/** The actions' own chunk. */
export const loadOpenAppActions: LoadOpenAppActions = () => import('./open-app-actions.js');

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
 * Installs `window.kefuOpenApp` and fetches the actions behind it at once. Once they are loaded a
 * helper runs them synchronously, so that a deep link followed from a click keeps the click's user
 * activation (as when the actions were bundled); a call that comes before runs when they arrive.
 * A failed fetch is tried again by the next call (whose own failure is then thrown, unhandled).
 * @param win - the window
 * @param env - returns the environment at call time (current texts)
 * @param load - fetches the actions
 * @returns a disposer that removes it
 */
export function installOpenAppHelpers(win: Window, env: () => OpenAppHelperEnv, load: LoadOpenAppActions = loadOpenAppActions): () => void {
  let actions: OpenAppActions | null = null;
  let loading: Promise<OpenAppActions> | null = null;
  const fetchActions = (): Promise<OpenAppActions> => {
    loading ??= load().then(
      (loaded) => (actions = loaded),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const run = (act: (loaded: OpenAppActions) => unknown): void => {
    if (actions) act(actions);
    else void fetchActions().then(act);
  };
  fetchActions().catch(() => undefined); // the next call tries again
  const helpers: OpenAppHelpers = {
    chat: (id) => run((a) => a.openChat(id, env())),
    group: (link, variant) => run((a) => a.openGroup(link, env(), variant)),
    link: (url) => run((a) => a.openLink(url, env())),
  };
  Object.defineProperty(win, OPEN_APP_GLOBAL, { value: Object.freeze(helpers), configurable: true, writable: true });
  return () => {
    if (Reflect.get(win, OPEN_APP_GLOBAL) === helpers) Reflect.deleteProperty(win, OPEN_APP_GLOBAL);
  };
}

/** What {@link watchAppOpened} needs of the page. */
export interface AppOpenWatchEnv {
  /** The window: its `pagehide` and `blur` mean the app took over. */
  window: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** The document: `visibilitychange` to hidden means the app took over. */
  document: Pick<Document, 'addEventListener' | 'removeEventListener' | 'hidden'>;
  /** Timers (injected in tests). */
  timers: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(id: unknown): void };
  /** How long to wait: the open-app fallback delay (spec §4: 3 000 ms). */
  delay: number;
}

/**
 * Watches whether an app opened after a deep link was followed: if the page is still visible
 * and focused after `delay` ms (no `pagehide`, `blur` or hidden document, the same rule as the
 * website fallback), `onNothingOpened` runs once.
 * @returns a disposer that stops watching
 */
export function watchAppOpened(env: AppOpenWatchEnv, onNothingOpened: () => void): () => void {
  let done = false;
  const stop = (): void => {
    if (done) return;
    done = true;
    env.timers.clearTimeout(timer);
    env.window.removeEventListener('pagehide', stop);
    env.window.removeEventListener('blur', stop);
    env.document.removeEventListener('visibilitychange', onVisibility);
  };
  const onVisibility = (): void => {
    if (env.document.hidden) stop();
  };
  const timer = env.timers.setTimeout(() => {
    const hidden = env.document.hidden;
    stop();
    if (!hidden) onNothingOpened();
  }, env.delay);
  env.window.addEventListener('pagehide', stop);
  env.window.addEventListener('blur', stop);
  env.document.addEventListener('visibilitychange', onVisibility);
  return stop;
}
