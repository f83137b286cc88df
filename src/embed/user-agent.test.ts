import { describe, expect, it } from 'vitest';
import { isIOSUserAgent, isMessagingAppBrowser, isMobileUserAgent } from './user-agent.js';

const ANDROID = 'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36';

describe('Messaging-app in-app browsers are recognised (spec §8: they get the open-in-browser alert)', () => {
  it.each([
    ['WeChat', `${ANDROID} MicroMessenger/8.0.40`],
    ['WeCom', `${ANDROID} wxwork/4.1`],
    ['QQ', `${IPHONE} QQ/8.9.80`],
    ['Weibo', `${IPHONE} Weibo (iPhone14,2__weibo__13.9.1)`],
    ['DingTalk', `${ANDROID} DingTalk/7.0.40`],
    ['Alipay', `${ANDROID} AlipayClient/10.5.0`],
  ])('%s', (_name, ua) => {
    expect(isMessagingAppBrowser(ua)).toBe(true);
  });

  it('plain browsers, including the QQ Browser app, are not messaging apps', () => {
    expect(isMessagingAppBrowser(ANDROID)).toBe(false);
    expect(isMessagingAppBrowser(`${ANDROID} MQQBrowser/13.4`)).toBe(false);
    expect(isMessagingAppBrowser(DESKTOP)).toBe(false);
  });
});

describe('Mobile and iOS detection (spec §4: the fallback is for mobile browsers, the framed post for iOS)', () => {
  it('tells mobile from desktop and iOS from Android', () => {
    expect([isMobileUserAgent(ANDROID), isMobileUserAgent(IPHONE), isMobileUserAgent(DESKTOP)]).toEqual([true, true, false]);
    expect([isIOSUserAgent(ANDROID), isIOSUserAgent(IPHONE), isIOSUserAgent(DESKTOP)]).toEqual([false, true, false]);
  });

  it('treats a non-string user agent as neither', () => {
    expect(isMobileUserAgent(undefined as unknown as string)).toBe(false);
    expect(isMessagingAppBrowser(null as unknown as string)).toBe(false);
  });
});
