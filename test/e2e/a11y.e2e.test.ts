/**
 * Accessibility: axe-core (injected into the page) finds no serious or critical issue on the
 * chat, the rating dialog and the complaint form; and the chat is usable by keyboard alone.
 * Issue 23: the emoji panel closes after sending, when search opens and on Escape from anywhere in
 * the composer, and its last row (with its focus ring) is in view above the text box at 390 px.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appText } from '../../examples/kefu/src/env/app-texts.js';
import {
  axeSource,
  E2E_TIMEOUT,
  entryPath,
  phoneContext,
  seriousViolations,
  type TestServer,
  useE2eEnvironment,
} from './harness.js';

let server: TestServer;
let browser: Browser;
const AXE = axeSource();

useE2eEnvironment((env) => ({ server, browser } = env));

/** The accessible name (aria-label or text) of the focused element. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return '';
    return (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });
}

/** Presses Tab (or Shift+Tab) until the focused element's name is `name`. */
async function tabTo(page: Page, name: string, backwards = false): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if ((await focusedName(page)) === name) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached "${name}" (last: "${await focusedName(page)}")`);
}

async function openChat(page: Page): Promise<void> {
  await page.goto(`${server.url}${entryPath('zh')}`);
  await page.getByRole('navigation', { name: zh.suggestedQuestions }).getByRole('button').first().waitFor();
}

describe('accessibility: axe-core finds no serious or critical issue', () => {
  it('on the chat, the rating dialog and the complaint form', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    expect(await seriousViolations(page, AXE)).toEqual([]);

    await page.getByRole('button', { name: '更多', exact: true }).click();
    await page.getByRole('menuitem', { name: zh.rateTitle }).click();
    await page.getByRole('dialog', { name: zh.rateTitle }).waitFor();
    expect(await seriousViolations(page, AXE)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: '更多', exact: true }).click();
    await page.getByRole('menuitem', { name: zh.complaint }).click();
    const form = page.getByRole('dialog', { name: zh.complaint });
    await form.waitFor();
    // With the errors of an empty submit shown, too.
    await form.getByRole('button', { name: zh.submit }).click();
    await form.locator('.field-error').first().waitFor();
    expect(await seriousViolations(page, AXE)).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('accessibility: everything is usable by keyboard', () => {
  it('sends a text and an emoji, opens a dialog with focus inside, Escape returns focus', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);

    // Type and send with Enter.
    await tabTo(page, zh.inputPlaceholder);
    await page.keyboard.type('键盘发送的消息');
    await page.keyboard.press('Enter');
    await page.locator('.msg.mine').filter({ hasText: '键盘发送的消息' }).waitFor();

    // The composer comes before its tools in the tab order.
    // The emoji picker: open, move with the arrow keys, pick, close; focus goes back to its button.
    await tabTo(page, zh.emoji);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedName(page)).toBe('微笑');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    expect(await focusedName(page)).toBe(zh.emoji);
    await tabTo(page, zh.inputPlaceholder, true);
    expect(await page.getByLabel(zh.inputPlaceholder).inputValue()).toBe('face[撇嘴]');
    await page.keyboard.press('Enter');
    await page.locator('.msg.mine svg[aria-label="撇嘴"]').waitFor();

    // The menu (menu button pattern): focus on its first item, arrows move and wrap, Home/End,
    // Escape closes it and returns the focus.
    await tabTo(page, '更多', true);
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    expect(await focusedName(page)).toBe(appText('zh', 'faqTitle'));
    await page.keyboard.press('ArrowUp');
    expect(await focusedName(page)).toBe('在App中打开'); // wrapped to the last item
    await page.keyboard.press('ArrowDown');
    expect(await focusedName(page)).toBe(appText('zh', 'faqTitle'));
    await page.keyboard.press('End');
    expect(await focusedName(page)).toBe('在App中打开');
    await page.keyboard.press('Home');
    expect(await focusedName(page)).toBe(appText('zh', 'faqTitle'));
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await focusedName(page)).toBe('更多');
    // Tab closes the menu and goes on from its button.
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Tab');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
    await tabTo(page, '更多', true);

    // A dialog from the menu: focus moves in and stays in; Escape closes it and restores focus.
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    expect(await focusedName(page)).toBe(zh.complaint);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: zh.complaint });
    await dialog.waitFor();
    for (let i = 0; i < 14; i++) {
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedName(page)).toBe('更多');

    // The rating dialog by keyboard: submitting without a level is refused with the spec's text.
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    for (let i = 0; i < 10 && (await focusedName(page)) !== zh.rateTitle; i++) await page.keyboard.press('ArrowUp');
    expect(await focusedName(page)).toBe(zh.rateTitle);
    await page.keyboard.press('Enter');
    const rating = page.getByRole('dialog', { name: zh.rateTitle });
    await rating.waitFor();
    await tabTo(page, zh.submit);
    await page.keyboard.press('Enter');
    await page.locator('.toasts .toast').filter({ hasText: zh.rateRequired }).waitFor();
    await page.keyboard.press('Escape');
    await rating.waitFor({ state: 'detached' });
    await context.close();
  }, E2E_TIMEOUT);
});

describe('issue 23: the emoji panel is a part of composing, not of the page', () => {
  it('shows its last row above the text box at 390 px; closes after sending, when search opens and on Escape', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    const toggle = page.getByRole('button', { name: zh.emoji });
    const panel = page.getByRole('group', { name: zh.emoji });
    const input = page.getByLabel(zh.inputPlaceholder);

    // the last row, focused (its focus ring: 2 px outline, 2 px offset), wholly in the panel's
    // view and the panel above the text box
    await toggle.click();
    await expect.poll(() => focusedName(page)).toBe('微笑');
    await page.keyboard.press('End');
    expect(await focusedName(page)).toBe('跳绳');
    await page.waitForTimeout(300);
    const boxes = await page.evaluate(() => {
      const picker = document.querySelector('.emoji-picker') as HTMLElement;
      const rect = picker.getBoundingClientRect();
      const last = (document.activeElement as HTMLElement).getBoundingClientRect();
      const row = (document.querySelector('.composer-row') as HTMLElement).getBoundingClientRect();
      const view = { top: rect.top + picker.clientTop, bottom: rect.top + picker.clientTop + picker.clientHeight, left: rect.left + picker.clientLeft, right: rect.left + picker.clientLeft + picker.clientWidth };
      return { view, last: { top: last.top, bottom: last.bottom, left: last.left, right: last.right }, panelBottom: rect.bottom, textTop: row.top };
    });
    const ring = 4;
    expect(boxes.last.bottom + ring, JSON.stringify(boxes)).toBeLessThanOrEqual(boxes.view.bottom);
    expect(boxes.last.right + ring, JSON.stringify(boxes)).toBeLessThanOrEqual(boxes.view.right);
    expect(boxes.panelBottom).toBeLessThanOrEqual(boxes.textTop);
    await page.screenshot({ path: join(tmpdir(), 'issue23-emoji-panel-zh-390.png') });
    expect(await seriousViolations(page, AXE)).toEqual([]);

    // Escape in the panel closes it and gives the focus back to its button
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await focusedName(page)).toBe(zh.emoji);

    // Escape from the text box closes it too (the focus stays in the text box)
    await toggle.click();
    await panel.getByRole('button', { name: '微笑', exact: true }).click();
    await input.click();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');

    // sending closes it
    await toggle.click();
    await panel.getByRole('button', { name: '撇嘴', exact: true }).click();
    await page.getByRole('button', { name: zh.send }).click();
    await page.locator('.msg.mine svg[aria-label="撇嘴"]').waitFor();
    await panel.waitFor({ state: 'detached' });

    // opening search closes it
    await toggle.click();
    await panel.waitFor();
    await page.getByRole('button', { name: zh.searchPlaceholder }).click();
    await page.getByRole('dialog', { name: zh.searchPlaceholder }).waitFor();
    await panel.waitFor({ state: 'detached' });
    await context.close();
  }, E2E_TIMEOUT);
});
