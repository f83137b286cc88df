/**
 * Live signals in Chromium (unread and attention): the visitor's hidden tab shows `(n) <title>`
 * and a dotted icon while the agent's messages are unread, both cleared once the visitor reads;
 * the desk shows its counts and badges, and, with notifications enabled, raises exactly one
 * notification for a burst of messages while hidden and none while visible.
 *
 * Headless Chromium keeps every page visible, so a hidden page is emulated by an init script:
 * `document.visibilityState`/`hidden` read a switch the test sets (with a `visibilitychange`),
 * and IntersectionObserver callbacks wait while it is hidden, as a real hidden tab renders
 * nothing (read on scroll cannot mark a message read there), and scroll and pointer events stop.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { zh } from '../../src/i18n/locales/zh.js';
import { ZH_APP_TEXTS } from '../../examples/kefu/src/env/app-texts.js';
import { axeSource, collectErrors, DEMO, E2E_TIMEOUT, entryPath, phoneContext, seriousViolations, useE2eEnvironment, type E2eEnvironment } from './harness.js';

let env: E2eEnvironment;
useE2eEnvironment((e) => (env = e));

/** The emulated page visibility (see the module comment); `window.__setHidden(true)` hides the page. */
const HIDDEN_PAGE = () => {
  let hidden = false;
  const waiting: (() => void)[] = [];
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
  // nor does it scroll or get pointer events (a list scrolling to a new message, or the mouse
  // moving over moved content, would otherwise count as the user's activity and show the page)
  for (const type of ['mousemove', 'mousedown', 'keypress', 'scroll', 'touchstart']) {
    window.addEventListener(type, (event) => hidden && event.stopImmediatePropagation(), { capture: true });
  }
  const Real = window.IntersectionObserver;
  window.IntersectionObserver = class extends Real {
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      super((entries, observer) => (hidden ? waiting.push(() => callback(entries, observer)) : callback(entries, observer)), options);
    }
  };
  (window as unknown as { __setHidden: (h: boolean) => void }).__setHidden = (next) => {
    hidden = next;
    document.dispatchEvent(new Event('visibilitychange'));
    if (!next) for (const run of waiting.splice(0)) run();
  };
};

/** A stub `Notification` that records what the page shows (permission granted on request). */
const NOTIFICATIONS = () => {
  const shown: { title: string; body: string }[] = [];
  class StubNotification {
    static permission: NotificationPermission = 'default';
    static requestPermission(): Promise<NotificationPermission> {
      StubNotification.permission = 'granted';
      return Promise.resolve('granted');
    }
    onclick: (() => void) | null = null;
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body ?? '' });
    }
    close(): void {}
  }
  Object.assign(window, { Notification: StubNotification, __notifications: shown });
};

const setHidden = (page: Page, hidden: boolean) => page.evaluate((h) => (window as unknown as { __setHidden: (h: boolean) => void }).__setHidden(h), hidden);
const notificationCount = (page: Page) => page.evaluate(() => (window as unknown as { __notifications: unknown[] }).__notifications.length);
const iconHref = (page: Page) => page.evaluate(() => document.querySelector('link[rel~="icon"]')?.getAttribute('href') ?? '');

/** The colour at the dot of the page's icon (top right), as [r, g, b]. */
function dotColour(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const href = document.querySelector('link[rel~="icon"]')?.getAttribute('href') ?? '';
    const image = new Image();
    image.src = href;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 64;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(image, 0, 0, 64, 64);
    return [...context.getImageData(48, 16, 1, 1).data.slice(0, 3)];
  });
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

async function deskPage(context: BrowserContext): Promise<Page> {
  const agent = await context.newPage();
  await agent.goto(`${env.server.url}/agent`);
  await agent.getByLabel(zh.account).fill(DEMO.agent);
  await agent.getByLabel(zh.password).fill(DEMO.password);
  await agent.getByRole('button', { name: zh.login }).click();
  await agent.getByText(`${zh.online} 1`).waitFor();
  return agent;
}

/** A visitor that asked for a human, accepted by the desk. */
async function servedVisitor(context: BrowserContext, agent: Page): Promise<Page> {
  const visitor = await context.newPage();
  await visitor.goto(`${env.server.url}${entryPath('zh')}`);
  await visitor.getByLabel(zh.inputPlaceholder).waitFor();
  await visitor.getByRole('button', { name: zh.transferToHuman }).click();
  await visitor.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
  await visitor.getByText(zh.waitingForAgent).first().waitFor();
  await agent.getByRole('button', { name: new RegExp(`^${zh.accept}`) }).first().click();
  await visitor.getByText(zh.waitingForAgent).first().waitFor({ state: 'detached' }).catch(() => undefined);
  return visitor;
}

describe('live signals: unread and attention', () => {
  it('the visitor’s hidden tab shows (n) <title> and a dotted icon, both cleared once read', async () => {
    const agentContext = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const visitorContext = await phoneContext(env.browser);
    await visitorContext.addInitScript(HIDDEN_PAGE);
    const agent = await deskPage(agentContext);
    const visitor = await servedVisitor(visitorContext, agent);
    const errors = collectErrors(visitor);
    const title = await visitor.title();
    expect(title).toBe(zh.routeConversation);
    const icon = await iconHref(visitor); // the merchant's icon

    await setHidden(visitor, true);
    await new Promise((r) => setTimeout(r, 300)); // the tracker's debounce
    for (const text of ['第一条未读', '第二条未读']) await send(agent, text);
    await expect.poll(() => visitor.title(), { timeout: 10_000 }).toBe(`(2) ${title}`);
    await expect.poll(() => iconHref(visitor)).toMatch(/^data:image\/png;base64,/);
    const [r, g, b] = await dotColour(visitor);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(120);
    expect(b).toBeLessThan(120);

    await setHidden(visitor, false);
    await expect.poll(() => visitor.title(), { timeout: 10_000 }).toBe(title);
    await expect.poll(() => iconHref(visitor)).toBe(icon);
    await visitor.screenshot({ path: '/tmp/unread-visitor-390.png' });
    expect(errors).toEqual([]);
    await visitorContext.close();
    await agentContext.close();
  }, E2E_TIMEOUT);

  it('the desk: counts in the title and badges; one notification per burst while hidden, none while visible', async () => {
    const agentContext = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    await agentContext.addInitScript(HIDDEN_PAGE);
    await agentContext.addInitScript(NOTIFICATIONS);
    const visitorContext = await phoneContext(env.browser);
    const agent = await deskPage(agentContext);
    const errors = collectErrors(agent);
    await agent.getByRole('button', { name: ZH_APP_TEXTS.enableNotifications }).click();
    await agent.getByLabel(ZH_APP_TEXTS.notificationsOn).waitFor();
    const deskTitle = `${ZH_APP_TEXTS.deskTitle} · ${DEMO.agent}`; // the desk and the agent
    await expect.poll(() => agent.title()).toBe(deskTitle);

    const visitor = await servedVisitor(visitorContext, agent);
    await send(visitor, '可见时的消息');
    await agent.locator('.msg.theirs').filter({ hasText: '可见时的消息' }).waitFor();
    expect(await notificationCount(agent)).toBe(0); // visible: a queued visitor and a message raise nothing

    await setHidden(agent, true);
    await new Promise((r) => setTimeout(r, 300));
    const burst = ['一', '二', '三', '四'].map((n) => `隐藏时的消息${n}`);
    for (const text of burst) await send(visitor, text);
    await expect.poll(() => agent.title(), { timeout: 10_000 }).toBe(`(0 排队 · 4 未读) ${deskTitle}`);
    await new Promise((r) => setTimeout(r, 1_000)); // anything late of the burst would have come by now
    expect(await notificationCount(agent)).toBe(1);
    const [shown] = await agent.evaluate(() => (window as unknown as { __notifications: { title: string; body: string }[] }).__notifications);
    expect(shown?.body).toContain(ZH_APP_TEXTS.newMessagesFrom.replace('{name}', '').trim());
    await agent.screenshot({ path: '/tmp/unread-desk-1280.png' });
    const badge = agent.locator('.session-btn .unread-badge');
    await expect.poll(() => badge.textContent()).toContain('4');

    await setHidden(agent, false);
    await expect.poll(() => agent.title(), { timeout: 10_000 }).toBe(deskTitle);
    expect(await badge.count()).toBe(0);
    expect(await seriousViolations(agent, axeSource())).toEqual([]);
    expect(await notificationCount(agent)).toBe(1);
    expect(errors).toEqual([]);
    await visitorContext.close();
    await agentContext.close();
  }, E2E_TIMEOUT);
});
