/**
 * UX and accessibility of issue 13, tried in a real browser as a new visitor would: the loading
 * placeholder, the language switcher (remembered), the translate action only where it helps (a
 * LibreTranslate-compatible provider stands in), a search hit scrolled to and highlighted, the
 * search box focused, read marks of robot-answered texts, "no more messages" in the list, the
 * suggestion chips showing that they scroll, open-in-app telling when nothing opened, the sender
 * of one's own messages for screen readers, the composer before its tools in the tab order, and
 * (issue 22) the transcript downloaded from the chat menu by keyboard.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zh } from '../../src/i18n/index.js';
import { loadCatalogue } from '../../src/i18n/i18n.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_TEXT_TRANSLATIONS } from '../../examples/kefu/src/env/app-text-translations.js';
import { appText } from '../../examples/kefu/src/env/app-texts.js';
import { axeSource, DEMO, E2E_TIMEOUT, entryPath, phoneContext, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

/** A LibreTranslate-compatible provider: answers every text with "[<target>] <text>". */
const translations: { q: string; target: string }[] = [];
const translator: Server = createHttpServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    const { q, target } = JSON.parse(body || '{}') as { q?: string; target?: string };
    translations.push({ q: q ?? '', target: target ?? '' });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ translatedText: `[${target ?? ''}] ${q ?? ''}`, detectedLanguage: { language: 'zh', confidence: 90 } }));
  });
});
await new Promise<void>((resolve) => translator.listen(0, '127.0.0.1', resolve));
const translateUrl = `http://127.0.0.1:${(translator.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => translator.close(() => resolve())));

let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env), {
  rate: { httpMax: 1_000, httpWindowMs: 60_000, socketMax: 100, socketWindowMs: 2_000 },
  translateUrl,
});

const enTexts = await loadCatalogue('en');

async function openChat(page: Page, path = entryPath('zh')): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('navigation').getByRole('button').first().waitFor();
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });
}

/** Stores `count` robot texts ("历史消息 1" oldest ... ) in a visitor's conversation, one minute apart. */
async function seedHistory(clientId: string, count: number): Promise<void> {
  const start = Date.now() - count * 60_000;
  for (let i = 1; i <= count; i++) {
    await server.store.chat.insertMessage({
      fp: randomUUID(), type: 200, from: 'robot', to: clientId, fn: '', tn: '', fa: '', ta: '', mchId: DEMO.mchId, platformId: DEMO.platformId,
      clientId, groupId: null, sessionId: null, dataContent: `历史消息 ${i}`, isRead: 0, robot: 1, isGroup: 0, createTime: start + i * 60_000, cm: null,
    });
  }
}

describe('a loading placeholder instead of a blank page', () => {
  it('shows it until the script runs, without inline script or inline style', async () => {
    const html = await (await fetch(`${server.url}${entryPath('zh')}`)).text();
    expect(html).toContain('class="boot"');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(`${server.url}${entryPath('zh')}`);
    await page.getByRole('status').getByText('加载中').waitFor();
    expect(await page.locator('.boot-spinner').isVisible()).toBe(true);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('the language switcher (ten languages, remembered) and the translate action where it helps', () => {
  it('switches to English, keeps it after a reload over the link, and offers translation of Chinese texts only then', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await page.getByRole('navigation').getByRole('button').first().click();
    const answer = page.locator('.msg.theirs').filter({ has: page.locator('.badge-robot') }).last();
    await answer.waitFor();
    // Chinese interface, Chinese text: nothing to translate.
    expect(await page.getByRole('button', { name: zh.translate }).count()).toBe(0);

    await page.getByRole('button', { name: appText('zh', 'more'), exact: true }).click();
    await page.getByRole('menuitem', { name: appText('zh', 'language') }).click();
    const dialog = page.getByRole('dialog', { name: appText('zh', 'language') });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: zh.close }).count()).toBe(1);
    expect(await dialog.getByRole('listitem').getByRole('button').count()).toBe(10);
    const current = dialog.getByRole('button', { name: '简体中文' });
    expect(await current.getAttribute('aria-current')).toBe('true');
    expect(await current.evaluate((el) => el === document.activeElement)).toBe(true);
    await dialog.getByRole('button', { name: 'English' }).click();
    await page.getByLabel(enTexts.inputPlaceholder).waitFor();

    const translate = answer.getByRole('button', { name: enTexts.translate });
    await translate.click();
    await answer.locator('.translation').getByText(/^\[en\] /).waitFor();
    expect(translations.at(-1)?.target).toBe('en');

    // issue 13: the app's own English labels load on demand, yet before the first paint: every
    // label the menu button ever shows after the reload is English (no flash of Chinese), even
    // when their chunk is the last file to arrive
    await page.route('**/assets/app-text-translations-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.addInitScript(() => {
      const seen: string[] = [];
      Reflect.set(window, '__moreLabels', seen);
      new MutationObserver(() => {
        const label = document.querySelector('button[aria-haspopup="menu"]')?.getAttribute('aria-label');
        if (label && seen.at(-1) !== label) seen.push(label);
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    await page.reload();
    await page.getByLabel(enTexts.inputPlaceholder).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.evaluate(() => Reflect.get(window, '__moreLabels') as string[])).toEqual([APP_TEXT_TRANSLATIONS.en.more]);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('search: the box is focused, a hit is scrolled to and highlighted', () => {
  it('reveals an older message of the loaded history', async () => {
    const clientId = `e2e-search-${randomUUID()}`;
    await seedHistory(clientId, 18);
    const context = await phoneContext(browser);
    await context.addInitScript((id) => localStorage.setItem('uuid', id), clientId);
    const page = await context.newPage();
    await openChat(page);
    await page.locator('.msg').filter({ hasText: '历史消息 18' }).waitFor();
    await page.getByRole('button', { name: zh.searchPlaceholder }).click();
    const search = page.getByRole('dialog', { name: zh.searchPlaceholder });
    await expect.poll(() => search.getByRole('searchbox').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('历史消息 2');
    await search.locator('.result-btn').filter({ has: page.locator('.result-text', { hasText: /^历史消息 2$/ }) }).click();
    await search.waitFor({ state: 'detached' });
    const hit = page.locator('.msg.flash').filter({ has: page.locator('.bubble', { hasText: /^历史消息 2$/ }) });
    await hit.waitFor();
    const inView = await hit.evaluate((row) => {
      const list = row.closest('.vlist')?.getBoundingClientRect();
      const box = row.getBoundingClientRect();
      return !!list && box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
    });
    expect(inView).toBe(true);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('rows: read marks for robot-answered texts, "You" for screen readers, "no more messages" in the list', () => {
  it('marks typed and asked texts alike as read by the robot; names the sender; the end of history scrolls with the rows', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await send(page, '你好机器人');
    const typed = page.locator('.msg.mine').filter({ hasText: '你好机器人' });
    await typed.locator('.read-mark.is-read').waitFor();
    await page.getByRole('navigation', { name: zh.suggestedQuestions }).getByRole('button').first().click();
    await expect.poll(() => page.locator('.msg.mine .read-mark').count()).toBe(2);
    await expect.poll(() => page.locator('.msg.mine .read-mark.is-read').count()).toBe(2);
    // The own message's sender is spoken.
    expect(await typed.locator('.msg-meta .visually-hidden').textContent()).toBe(appText('zh', 'you'));
    // "No more messages" is a row inside the scrolled list, not a bar above it.
    await page.locator('.vlist .history-start').getByText(zh.noMoreMessages).waitFor();
    expect(await page.locator('.list-top').count()).toBe(0);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('suggestion chips show that they scroll; open-in-app tells when nothing opened; tab order', () => {
  it('fades the chips with an arrow that scrolls on', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    const nav = page.getByRole('navigation', { name: zh.suggestedQuestions });
    await nav.getByRole('button').first().waitFor();
    const more = nav.getByRole('button', { name: appText('zh', 'moreSuggestions') });
    await more.waitFor();
    expect(await page.locator('.suggestions.has-more').count()).toBe(1);
    await more.click();
    await expect.poll(() => page.locator('.suggestions-scroll').evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await context.close();
  }, E2E_TIMEOUT);

  it('says the app did not open after the 3 s rule', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await page.getByRole('button', { name: appText('zh', 'more'), exact: true }).click();
    await page.getByRole('menuitem', { name: appText('zh', 'openApp') }).click();
    const told = page.locator('.toasts .toast').filter({ hasText: appText('zh', 'openAppFailed') });
    await page.waitForTimeout(2_000);
    expect(await told.count()).toBe(0);
    await told.waitFor({ timeout: 5_000 });
    await context.close();
  }, E2E_TIMEOUT);

  it('puts the text box before the tools', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await page.getByLabel(zh.inputPlaceholder).focus();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe(zh.send);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe(zh.emoji);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('axe: the new menu and dialogs have no serious or critical issue', () => {
  it('checks the open menu, the FAQ, the language and the deposit dialogs', async () => {
    const axe = axeSource();
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await page.getByRole('button', { name: appText('zh', 'more'), exact: true }).click();
    await page.getByRole('menu').waitFor();
    expect(await seriousViolations(page, axe)).toEqual([]);
    for (const name of [appText('zh', 'faqTitle'), appText('zh', 'language'), zh.depositCard]) {
      if (!(await page.getByRole('menu').isVisible())) await page.getByRole('button', { name: appText('zh', 'more'), exact: true }).click();
      await page.getByRole('menuitem', { name }).click();
      const dialog = page.getByRole('dialog', { name });
      await dialog.waitFor();
      if (name === appText('zh', 'faqTitle')) await dialog.locator('.faq-category').first().waitFor();
      expect(await seriousViolations(page, axe), name).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    await context.close();
  }, E2E_TIMEOUT);
});

describe('issue 22: the visitor downloads the transcript of the conversation from the chat menu', () => {
  it('by keyboard: a text file of the whole history (older pages too), times in the visitor\'s zone and language, who said what; text never HTML', async () => {
    const clientId = `e2e-transcript-${randomUUID()}`;
    await seedHistory(clientId, 130); // more than the list loads at first, more than one history page of 100
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    await context.addInitScript((id) => localStorage.setItem('uuid', id), clientId);
    const page = await context.newPage();
    await openChat(page);
    await page.locator('.msg').filter({ hasText: '历史消息 130' }).waitFor();
    const markup = '<img src=x onerror="window.__xss=1"> **粗体** face[微笑]';
    await send(page, markup);
    await page.locator('.msg.mine').filter({ hasText: '<img src=x' }).locator('.read-mark').waitFor();

    const more = page.getByRole('button', { name: appText('zh', 'more'), exact: true });
    await more.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    const label = appText('zh', 'downloadTranscript');
    for (let i = 0; i < 12 && (await focusedName(page)) !== label; i++) await page.keyboard.press('ArrowDown');
    expect(await focusedName(page)).toBe(label);
    await page.screenshot({ path: '/tmp/kefu-transcript-menu.png' });
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^chat-transcript-Demo-Shop-\d{8}-\d{4}\.txt$/);
    const file = readFileSync(await download.path(), 'utf8');
    await page.locator('.toasts .toast').filter({ hasText: appText('zh', 'transcriptDownloaded') }).waitFor();

    const lines = file.replace(/^\ufeff/, '').split('\n');
    expect(lines[0]).toBe(appText('zh', 'transcriptTitle', { title: '示例商城 Demo Shop' }));
    expect(lines[1]).toMatch(/^导出时间：\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    const first = (await server.store.chat.conversation(clientId, DEMO.mchId, DEMO.platformId, { after: 0, size: 1 }))[0];
    const zone = new Intl.DateTimeFormat('zh', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone: 'Asia/Shanghai' });
    expect(first?.dataContent).toBe('历史消息 1');
    expect(lines).toContain(`[${zone.format(first?.createTime ?? 0)}] ${zh.robot}: 历史消息 1`);
    for (const n of [2, 31, 100, 130]) expect(lines.some((l) => l.endsWith(`${zh.robot}: 历史消息 ${n}`)), `历史消息 ${n}`).toBe(true);
    expect(lines.some((l) => l.endsWith(`] ${appText('zh', 'you')}: <img src=x onerror="window.__xss=1"> **粗体** [微笑]`))).toBe(true);
    // the text stayed text: nothing of it ran or became an element
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await context.close();
  }, E2E_TIMEOUT);
});
