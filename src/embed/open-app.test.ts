// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { defaultTimers } from '../timers.js';
import { openApp, openChat, openGroup, openLink, type OpenAppHelperEnv, type OpenAppWindow } from './open-app.js';

const ANDROID = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36';
const WECHAT = `${ANDROID} MicroMessenger/8.0.40`;
const QQ = `${IPHONE} QQ/8.9.80`;
const START = 'https://kefu.example/kefu/abc';
const WEBSITE = 'https://kefu-im.dev';

/** A window double: EventTarget-backed, with a document whose `hidden` the test sets. */
interface FakeWindow extends OpenAppWindow {
  location: { href: string };
  document: EventTarget & { hidden: boolean };
  addEventListener: Mock<(type: string, listener: (event: Event) => void) => void>;
  removeEventListener: Mock<(type: string, listener: (event: Event) => void) => void>;
  dispatchEvent(e: Event): boolean;
  alert: Mock<(text?: string) => void>;
  /** Its own postMessage (unused by open-app). */
  postMessage: Mock<(message: unknown, targetOrigin: string) => void>;
  /** The parent's postMessage when framed. */
  parentPost: Mock<(message: unknown, targetOrigin: string) => void>;
}

function fakeWindow(framed = false, referrer = ''): FakeWindow {
  const target = new EventTarget();
  const doc = Object.assign(new EventTarget(), { hidden: false, referrer });
  const parentPost = vi.fn<(message: unknown, targetOrigin: string) => void>();
  const win: FakeWindow = {
    postMessage: vi.fn(),
    addEventListener: vi.fn(target.addEventListener.bind(target)),
    removeEventListener: vi.fn(target.removeEventListener.bind(target)),
    dispatchEvent: target.dispatchEvent.bind(target),
    location: { href: START },
    document: doc,
    alert: vi.fn<(text?: string) => void>(),
    parentPost,
    get parent() {
      return framed ? { postMessage: parentPost } : win;
    },
  };
  return win;
}

function envFor(win: FakeWindow, userAgent: string, alert = vi.fn<(text: string) => void>()): OpenAppHelperEnv & { alert: Mock<(text: string) => void> } {
  return {
    window: win,
    timers: defaultTimers,
    userAgent,
    fallbackDelay: 3000,
    website: WEBSITE,
    inAppUserAgent: 'KefuIM',
    alert,
    texts: { openInBrowser: '请在浏览器中打开' },
    deepLinks: { scheme: 'kefuapp', testScheme: 'kefuapptest', uatScheme: 'kefuappuat' },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('On a mobile browser, if the app has not taken over the page after 3 seconds, the page redirects to the public website (spec §4)', () => {
  it('navigates to the deep link, then to the website after 3 000 ms', () => {
    const win = fakeWindow();
    openApp('kefuapp://chat?identify=1', envFor(win, ANDROID));
    expect(win.location.href).toBe('kefuapp://chat?identify=1');
    vi.advanceTimersByTime(2999);
    expect(win.location.href).toBe('kefuapp://chat?identify=1');
    vi.advanceTimersByTime(1);
    expect(win.location.href).toBe(WEBSITE);
    expect(vi.getTimerCount()).toBe(0);
    expect(win.removeEventListener).toHaveBeenCalledTimes(2);
  });

  it('does not redirect when the page got hidden (the app took over)', () => {
    const win = fakeWindow();
    openApp('kefuapp://x', envFor(win, ANDROID));
    vi.advanceTimersByTime(1000);
    win.document.hidden = true;
    win.document.dispatchEvent(new Event('visibilitychange'));
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(win.location.href).toBe('kefuapp://x');
  });

  it('does not redirect after pagehide or blur', () => {
    for (const type of ['pagehide', 'blur']) {
      const win = fakeWindow();
      openApp('kefuapp://x', envFor(win, IPHONE));
      win.dispatchEvent(new Event(type));
      vi.advanceTimersByTime(3000);
      expect(win.location.href).toBe('kefuapp://x');
    }
  });

  it('does not redirect when the document is hidden at the deadline', () => {
    const win = fakeWindow();
    openApp('kefuapp://x', envFor(win, ANDROID));
    win.document.hidden = true;
    vi.advanceTimersByTime(3000);
    expect(win.location.href).toBe('kefuapp://x');
  });

  it('the returned disposer cancels the pending fallback and its listeners', () => {
    const win = fakeWindow();
    const dispose = openApp('kefuapp://x', envFor(win, ANDROID));
    dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(win.removeEventListener).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(3000);
    expect(win.location.href).toBe('kefuapp://x');
  });

  it('a desktop browser navigates without a fallback', () => {
    const win = fakeWindow();
    openApp('kefuapp://x', envFor(win, DESKTOP));
    expect(win.location.href).toBe('kefuapp://x');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('The redirect is skipped inside the product\'s own in-app browser (spec §4)', () => {
  it('navigates without scheduling the fallback', () => {
    const win = fakeWindow();
    openApp('kefuapp://x', envFor(win, `${ANDROID} KefuIM/2.1`));
    expect(win.location.href).toBe('kefuapp://x');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3000);
    expect(win.location.href).toBe('kefuapp://x');
  });
});

describe('When framed inside another page on iOS, the page posts an openApp message with the url to the parent instead of navigating (spec §4)', () => {
  it("posts { type: 'openApp', url } to the embedding page's origin, read from document.referrer", () => {
    const win = fakeWindow(true, 'https://shop.example/cart?item=1');
    openApp('kefuapp://x', envFor(win, IPHONE));
    expect(win.parentPost).toHaveBeenCalledWith({ type: 'openApp', url: 'kefuapp://x' }, 'https://shop.example');
    expect(win.location.href).toBe(START);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('prefers location.ancestorOrigins over the referrer', () => {
    const win = fakeWindow(true, 'https://old.example/');
    Object.assign(win.location, { ancestorOrigins: { length: 1, 0: 'https://m.shop.example' } });
    openApp('kefuapp://x', envFor(win, IPHONE));
    expect(win.parentPost).toHaveBeenCalledWith({ type: 'openApp', url: 'kefuapp://x' }, 'https://m.shop.example');
  });

  it('never posts the link to * : with the parent origin unknown it navigates its own frame', () => {
    for (const referrer of ['', 'file:///tmp/page.html', 'not a url']) {
      const win = fakeWindow(true, referrer);
      openApp('kefuapp://x', envFor(win, IPHONE));
      expect(win.parentPost, referrer).not.toHaveBeenCalled();
      expect(win.location.href, referrer).toBe('kefuapp://x');
    }
  });

  it('uses the configured parent origin', () => {
    const win = fakeWindow(true);
    openApp('kefuapp://x', { ...envFor(win, IPHONE), parentOrigin: 'https://host.example' });
    expect(win.parentPost).toHaveBeenCalledWith({ type: 'openApp', url: 'kefuapp://x' }, 'https://host.example');
  });

  it('framed on Android it navigates its own frame', () => {
    const win = fakeWindow(true);
    openApp('kefuapp://x', envFor(win, ANDROID));
    expect(win.parentPost).not.toHaveBeenCalled();
    expect(win.location.href).toBe('kefuapp://x');
  });
});

describe('Opened inside a messaging-app in-app browser, the app-opening helpers alert the user to open the page in a browser (spec §8)', () => {
  it('alerts openInBrowser in WeChat and QQ and does not navigate', () => {
    for (const ua of [WECHAT, QQ]) {
      const win = fakeWindow();
      const env = envFor(win, ua);
      openChat('1', env);
      expect(env.alert).toHaveBeenCalledWith('请在浏览器中打开');
      expect(win.location.href).toBe(START);
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it('falls back to window.alert when no alert is given', () => {
    const win = fakeWindow();
    const { alert: _unused, ...env } = envFor(win, WECHAT);
    openApp('kefuapp://x', env);
    expect(win.alert).toHaveBeenCalledWith('请在浏览器中打开');
  });
});

describe('Three helpers check for a missing input and alert in Chinese (spec §5)', () => {
  it.each([
    ['openChat asks for the ID number', (env: OpenAppHelperEnv) => openChat('  ', env), '请输入ID号'],
    ['openGroup asks for the group link', (env: OpenAppHelperEnv) => openGroup('', env), '请输入群链接'],
    ['openLink asks for the link', (env: OpenAppHelperEnv) => openLink(undefined as unknown as string, env), '请输入链接'],
  ])('%s', (_name, call, text) => {
    const win = fakeWindow();
    const env = envFor(win, ANDROID);
    call(env);
    expect(env.alert).toHaveBeenCalledWith(text);
    expect(win.location.href).toBe(START);
  });

  it('takes the texts from env.texts (the current language)', () => {
    const win = fakeWindow();
    const env = envFor(win, ANDROID);
    env.texts = { openInBrowser: 'Open in a browser', enterIdNumber: 'Enter the ID', enterGroupLink: 'Enter the group link', enterLink: 'Enter the link' };
    openChat('', env);
    openGroup('', env);
    openLink('', env);
    expect(env.alert.mock.calls).toEqual([['Enter the ID'], ['Enter the group link'], ['Enter the link']]);
  });

  it('with input, each opens its deep link', () => {
    const win = fakeWindow();
    const env = envFor(win, DESKTOP);
    openChat('42', env);
    expect(win.location.href).toBe('kefuapp://chat?identify=42');
    openGroup('https://g.example/1', env, 'test');
    expect(win.location.href).toBe('kefuapptest://group?qrUrl=https%3A%2F%2Fg.example%2F1');
    openLink('https://a.example', env);
    expect(win.location.href).toBe('kefuapp://open?url=https%3A%2F%2Fa.example');
    expect(env.alert).not.toHaveBeenCalled();
  });
});

describe('openApp: bad input gets a clear error', () => {
  it('refuses a blank url, a missing window and a bad delay', () => {
    const win = fakeWindow();
    expect(() => openApp(' ', envFor(win, ANDROID))).toThrow(/url must be a non-empty string/);
    expect(() => openApp('kefuapp://x', { ...envFor(win, ANDROID), window: null as unknown as OpenAppWindow })).toThrow(/env.window/);
    expect(() => openApp('kefuapp://x', { ...envFor(win, ANDROID), fallbackDelay: -1 })).toThrow(/fallbackDelay/);
    expect(win.location.href).toBe(START);
  });
});

describe('openApp works with the real window', () => {
  it('alerts through window.alert of a real (happy-dom) window in a messaging app', () => {
    const alert = vi.fn();
    Object.defineProperty(window, 'alert', { value: alert, configurable: true, writable: true });
    const { alert: _unused, ...env } = envFor(fakeWindow(), WECHAT);
    openApp('kefuapp://x', { ...env, window });
    Reflect.deleteProperty(window, 'alert');
    expect(alert).toHaveBeenCalledWith('请在浏览器中打开');
  });
});
