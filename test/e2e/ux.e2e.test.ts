/**
 * UX and accessibility of issue 13, tried in a real browser as a new visitor would: the loading
 * placeholder, the language switcher (remembered), the translate action only where it helps (a
 * LibreTranslate-compatible provider stands in), a search hit scrolled to and highlighted, the
 * search box focused, read marks of robot-answered texts, "no more messages" in the list, the
 * suggestion chips showing that they scroll, open-in-app telling when nothing opened, the sender
 * of one's own messages for screen readers, and the composer before its tools in the tab order;
 * (issue 22) the transcript downloaded from the chat menu by keyboard.
 * Issue 23: one language at a time (the welcome, the suggested questions, the robot's queue and
 * busy texts and the emoji names follow a switch to English), the suggested questions with the
 * welcome (also after a reload), the list staying where the reader was through a language switch
 * and the end of the conversation, and search (matches marked, a hit in older history loaded,
 * scrolled to and highlighted).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zh } from '../../src/i18n/locales/zh.js';
import { loadCatalogue } from '../../src/i18n/i18n.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_TEXT_TRANSLATIONS } from '../../examples/kefu/src/env/app-text-translations.js';
import { appText, ZH_APP_TEXTS as APP_TEXT_ZH } from '../../examples/kefu/src/env/app-texts.js';
import { EMOJI_NAMES_EN } from '../../examples/kefu/src/env/emoji-names-en.js';
import { openChat, openSeededChat, seedHistory, send, switchLanguage } from './visitor-page.js';
import { axeSource, DEMO, E2E_TIMEOUT, entryPath, phoneContext, placeholderFit, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

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



function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });
}



/** Whether a text holds Chinese characters. */
const CHINESE = /[\u3400-\u9fff]/;

/** Where the reader is: the first row whose top is in the view, and how far below the view's top it is (px). */
function readingPosition(page: Page): Promise<{ text: string; offset: number; scrollTop: number; top: boolean }> {
  return page.evaluate(() => {
    const list = document.querySelector('.vlist');
    if (!list) throw new Error('no list');
    const top = list.getBoundingClientRect().top;
    const rows = Array.from(list.querySelectorAll<HTMLElement>('.vrow .bubble'));
    const first = rows.find((b) => b.getBoundingClientRect().top >= top);
    return {
      text: first?.textContent ?? '',
      offset: first ? first.getBoundingClientRect().top - top : -1,
      scrollTop: list.scrollTop,
      top: list.querySelector('.history-start') !== null && list.scrollTop < 5,
    };
  });
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
    // the display of the boot text at the first frame that has it (its fonts come a frame later)
    await page.addInitScript(() => {
      const look = (): void => {
        const text = document.querySelector('.boot p');
        if (text) (window as unknown as { textAtFirstFrame: string }).textAtFirstFrame = getComputedStyle(text).display;
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await page.goto(`${server.url}${entryPath('zh')}`);
    await page.getByRole('status').getByText('加载中').waitFor();
    expect(await page.locator('.boot-spinner').isVisible()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { textAtFirstFrame?: string }).textAtFirstFrame)).toBe('none');
    await expect.poll(() => page.locator('.boot p').evaluate((el) => getComputedStyle(el).display)).toBe('block');
    await context.close();
  }, E2E_TIMEOUT);
});

describe('the language switcher (ten languages, remembered) and the translate action where it helps', () => {
  it('switches to English, keeps it after a reload over the link, and offers translation of Chinese texts only then', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, server);
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

/** Whether the row holding `text` is flashed and wholly in the list's view. */
async function revealed(page: Page, text: RegExp): Promise<boolean> {
  const hit = page.locator('.msg.flash').filter({ has: page.locator('.bubble', { hasText: text }) });
  await hit.waitFor();
  return hit.evaluate((row) => {
    const list = row.closest('.vlist')?.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return !!list && box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
  });
}

describe('search: the box is focused, a hit is scrolled to and highlighted', () => {
  it('reveals an older message of the loaded history', async () => {
    const { context, page } = await openSeededChat(browser, server, 'e2e-search', 18);
    await page.getByRole('button', { name: zh.searchPlaceholder }).click();
    const search = page.getByRole('dialog', { name: zh.searchPlaceholder });
    await expect.poll(() => search.getByRole('searchbox').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('历史消息 2');
    await search.locator('.result-btn').filter({ has: page.locator('.result-text', { hasText: /^历史消息 2$/ }) }).click();
    await search.waitFor({ state: 'detached' });
    expect(await revealed(page, /^历史消息 2$/)).toBe(true);
    await context.close();
  }, E2E_TIMEOUT);

  it('issue 23: marks the match (as elements, never HTML); a hit in history not loaded yet is loaded, scrolled to and highlighted', async () => {
    const { context, page } = await openSeededChat(browser, server, 'e2e-search-old', 90, (i) => (i === 5 ? '<img src=x onerror="window.__x=1">历史消息 5 <b>粗</b>' : `历史消息 ${i}`));
    await page.waitForTimeout(500);
    // the first messages are not in the list yet: only the newest pages are loaded
    expect(await page.locator('.msg').filter({ hasText: /^历史消息 3$/ }).count()).toBe(0);
    expect(await page.locator('.vlist .history-start').count()).toBe(0);

    await page.getByRole('button', { name: zh.searchPlaceholder }).click();
    const search = page.getByRole('dialog', { name: zh.searchPlaceholder });
    await search.getByRole('searchbox').fill('历史消息 3');
    const exact = search.locator('.result-btn').filter({ has: page.locator('.result-text', { hasText: /^历史消息 3$/ }) });
    await exact.waitFor();
    // every listed message marks the keyword, and only it
    const marks = await search.locator('.result-text mark').allTextContents();
    expect(marks).toHaveLength(11); // 3 (not loaded yet) and 30-39
    expect(new Set(marks)).toEqual(new Set(['历史消息 3']));
    await page.screenshot({ path: join(tmpdir(), 'issue23-search-zh-390.png') });
    expect(await seriousViolations(page, axeSource())).toEqual([]);
    // a message that holds markup is listed as its text
    await search.getByRole('searchbox').fill('消息 5');
    const marked = search.locator('.result-text').filter({ hasText: '<img src=x' });
    await marked.waitFor();
    expect(await marked.textContent()).toBe('<img src=x onerror="window.__x=1">历史消息 5 <b>粗</b>');
    expect(await search.locator('.search-results img, .search-results b').count()).toBe(0);
    expect(await page.evaluate(() => Reflect.get(window, '__x'))).toBeUndefined();

    await search.getByRole('searchbox').fill('历史消息 3');
    await exact.click();
    await search.waitFor({ state: 'detached' });
    expect(await revealed(page, /^历史消息 3$/)).toBe(true);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('issue 23: one language at a time', () => {
  it('after a switch to English the welcome, the suggested questions, the robot, queue and busy texts and the emoji names are English', async () => {
    const axe = axeSource();
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, server);
    const welcome = page.locator('.msg.theirs .bubble').first();
    await expect.poll(() => welcome.textContent()).toBe(APP_TEXT_ZH.robotGreeting);
    await page.screenshot({ path: join(tmpdir(), 'issue23-welcome-zh-390.png') });

    await switchLanguage(page, 'zh', 'English');
    await page.getByLabel(enTexts.inputPlaceholder).waitFor();
    // the welcome (a keyed text) is shown in the new language; the questions come again in it
    await expect.poll(() => welcome.textContent()).toBe(APP_TEXT_TRANSLATIONS.en.robotGreeting);
    const chips = page.getByRole('navigation', { name: enTexts.suggestedQuestions }).locator('.chip-btn');
    await expect.poll(() => chips.first().textContent()).toBe('How long does a deposit take?');
    expect((await chips.allTextContents()).join(' ')).not.toMatch(CHINESE);

    // the emoji faces are named in English for screen readers, in the picker and in a message
    await page.getByRole('button', { name: enTexts.emoji }).click();
    const faces = page.getByRole('group', { name: enTexts.emoji }).getByRole('button');
    await expect.poll(() => faces.count()).toBe(99);
    expect(await faces.evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')))).toEqual([...EMOJI_NAMES_EN]);
    expect(await seriousViolations(page, axe)).toEqual([]);
    await faces.first().click();
    await page.getByRole('button', { name: enTexts.send }).click();
    await page.locator('.msg.mine svg[aria-label="Smile"]').waitFor();

    // the robot's later texts and its name are English
    const robot = page.locator('.msg.theirs').filter({ has: page.locator('.badge-robot') });
    const before = await robot.count();
    await page.getByLabel(enTexts.inputPlaceholder).fill('qwxyz zzkq');
    await page.getByLabel(enTexts.inputPlaceholder).press('Enter');
    await expect.poll(() => robot.count()).toBeGreaterThan(before);
    expect(await robot.last().locator('.bubble').textContent()).toMatch(/^Sorry, I did not understand/);
    expect(await robot.last().locator('.msg-name').textContent()).toMatch(/Assistant$/);

    // asking for a human: the queue's and the busy texts are English
    const beforeQueue = await robot.count();
    await page.getByRole('button', { name: enTexts.transferToHuman }).click();
    await page.getByRole('dialog', { name: enTexts.transferToHuman }).getByRole('button', { name: enTexts.confirm }).click();
    await page.locator('.session-bar').getByText(enTexts.serviceBusy).waitFor();
    await expect.poll(() => robot.count()).toBeGreaterThan(beforeQueue);
    expect(await robot.last().locator('.bubble').textContent()).not.toMatch(CHINESE);
    await page.screenshot({ path: join(tmpdir(), 'issue23-chat-en-390.png') });
    expect(await seriousViolations(page, axe)).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);

  it('shows the suggested questions with the welcome, also after a reload (not only after the robot failed once)', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, server);
    await page.locator('.msg.theirs').first().waitFor();
    await page.reload();
    const robotTexts = page.locator('.msg.theirs');
    await robotTexts.first().waitFor();
    await page.getByRole('navigation', { name: zh.suggestedQuestions }).getByRole('button').first().waitFor({ timeout: 10_000 });
    expect(await robotTexts.count()).toBe(1); // nothing failed: the welcome alone
    expect(await robotTexts.first().locator('.bubble').textContent()).toBe(APP_TEXT_ZH.robotGreeting);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('issue 23: the list stays where the reader was', () => {
  it('through a language switch and the end of the conversation; the end says what ended and what to do next; the hint fits', async () => {
    const axe = axeSource();
    const { context, page } = await openSeededChat(browser, server, 'e2e-stay', 40);
    // the reader scrolls up and reads in the middle of the history
    const list = page.locator('.vlist');
    await list.evaluate((el) => el.scrollBy(0, -Math.round(el.clientHeight * 1.5)));
    await page.waitForTimeout(1_000);
    const reading = await readingPosition(page);
    expect(reading.text).toMatch(/^历史消息 \d+$/);
    expect(reading.top).toBe(false);

    const stays = async (): Promise<void> => {
      await page.waitForTimeout(800);
      const now = await readingPosition(page);
      expect(now.text).toBe(reading.text);
      expect(Math.abs(now.offset - reading.offset)).toBeLessThanOrEqual(2);
      expect(now.top).toBe(false);
    };
    await switchLanguage(page, 'zh', 'English');
    await page.getByLabel(enTexts.inputPlaceholder).waitFor();
    await stays();

    // the visitor asks for a human (queued, busy), then ends the conversation
    await page.getByRole('button', { name: enTexts.transferToHuman }).click();
    await page.getByRole('dialog', { name: enTexts.transferToHuman }).getByRole('button', { name: enTexts.confirm }).click();
    await page.locator('.session-bar').getByText(enTexts.serviceBusy).waitFor();
    await stays();
    await page.getByRole('button', { name: APP_TEXT_TRANSLATIONS.en.more, exact: true }).click();
    await page.getByRole('menuitem', { name: enTexts.endConversation }).click();
    await page.getByRole('dialog', { name: enTexts.endConversation }).getByRole('button', { name: enTexts.endConversation }).click();
    const ended = APP_TEXT_TRANSLATIONS.en.conversationEndedNext;
    await page.locator('.session-ended').getByText(ended).waitFor();
    await page.locator('.toasts .toast').filter({ hasText: ended }).waitFor();
    expect(await page.getByText(enTexts.closingSoon).count()).toBe(0);
    const rating = page.getByRole('dialog', { name: enTexts.rateTitle });
    await rating.waitFor();
    await page.keyboard.press('Escape');
    await rating.waitFor({ state: 'detached' });
    await stays();

    // "a new message starts a new conversation" fits the text box at 390 px
    const input = page.getByLabel(enTexts.inputPlaceholder);
    await expect.poll(() => input.getAttribute('placeholder')).toBe(APP_TEXT_TRANSLATIONS.en.newConversationHint);
    const fit = await placeholderFit(page, enTexts.inputPlaceholder);
    expect(fit.width, `"${fit.text}" in ${fit.room} px`).toBeLessThanOrEqual(fit.room);
    await page.screenshot({ path: join(tmpdir(), 'issue23-ended-en-390.png') });
    expect(await seriousViolations(page, axe)).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('rows: read marks for robot-answered texts, "You" for screen readers, "no more messages" in the list', () => {
  it('marks typed and asked texts alike as read by the robot; names the sender; the end of history scrolls with the rows', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, server);
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
    await openChat(page, server);
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
    await openChat(page, server);
    // timed in the page, from the click to the toast (the test runner's own pauses do not count)
    await page.evaluate((text) => {
      const times: Record<string, number> = {};
      Reflect.set(window, '__openApp', times);
      document.addEventListener('click', () => void (times['clicked'] ??= performance.now()), { capture: true, once: false });
      new MutationObserver(() => {
        if (times['told'] === undefined && Array.from(document.querySelectorAll('.toasts .toast')).some((t) => t.textContent?.includes(text))) times['told'] = performance.now();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, appText('zh', 'openAppFailed'));
    await page.getByRole('button', { name: appText('zh', 'more'), exact: true }).click();
    await page.evaluate(() => delete (Reflect.get(window, '__openApp') as Record<string, number>)['clicked']);
    await page.getByRole('menuitem', { name: appText('zh', 'openApp') }).click();
    const told = page.locator('.toasts .toast').filter({ hasText: appText('zh', 'openAppFailed') });
    await told.waitFor({ timeout: 8_000 });
    const times = await page.evaluate(() => Reflect.get(window, '__openApp') as Record<string, number>);
    expect((times['told'] ?? 0) - (times['clicked'] ?? 0)).toBeGreaterThanOrEqual(2_900);
    await context.close();
  }, E2E_TIMEOUT);

  it('puts the text box before the tools', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, server);
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
    await openChat(page, server);
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
    await seedHistory(server, clientId, 130); // more than the list loads at first, more than one history page of 100
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    await context.addInitScript((id) => localStorage.setItem('uuid', id), clientId);
    const page = await context.newPage();
    await openChat(page, server);
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
