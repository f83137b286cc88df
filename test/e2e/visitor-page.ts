/**
 * Steps on the visitor page that several browser tests take: open the chat, send a text, store a
 * history straight into the server's store, switch the language from the menu.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { APP_TEXT_TRANSLATIONS } from '../../examples/kefu/src/env/app-text-translations.js';
import { ZH_APP_TEXTS } from '../../examples/kefu/src/env/app-texts.js';
import { zh } from '../../src/i18n/locales/zh.js';
import { DEMO, entryPath, phoneContext, type TestServer } from './harness.js';

/** Opens the visitor page at `path` and waits for the chat (its suggested questions). */
export async function openChat(page: Page, server: TestServer, path = entryPath('zh')): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('navigation').getByRole('button').first().waitFor();
}

/** Types `text` into the composer (zh labels) and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

/** Stores `count` robot texts ("历史消息 1" oldest ... ) in a visitor's conversation, one minute apart. */
export async function seedHistory(server: TestServer, clientId: string, count: number, text = (i: number) => `历史消息 ${i}`): Promise<void> {
  const start = Date.now() - count * 60_000;
  for (let i = 1; i <= count; i++) {
    await server.store.chat.insertMessage({
      fp: randomUUID(), type: 200, from: 'robot', to: clientId, fn: '', tn: '', fa: '', ta: '', mchId: DEMO.mchId, platformId: DEMO.platformId,
      clientId, groupId: null, sessionId: null, dataContent: text(i), isRead: 0, robot: 1, isGroup: 0, createTime: start + i * 60_000, cm: null,
    });
  }
}

/**
 * A visitor with `count` stored texts (see {@link seedHistory}) opens the chat on a phone; resolves
 * once the newest shows.
 * @param prefix - the start of the visitor's client id
 */
export async function openSeededChat(
  browser: Browser,
  server: TestServer,
  prefix: string,
  count: number,
  text = (i: number) => `历史消息 ${i}`,
): Promise<{ clientId: string; context: BrowserContext; page: Page }> {
  const clientId = `${prefix}-${randomUUID()}`;
  await seedHistory(server, clientId, count, text);
  const context = await phoneContext(browser);
  await context.addInitScript((id) => localStorage.setItem('uuid', id), clientId);
  const page = await context.newPage();
  await openChat(page, server);
  await page.locator('.msg').filter({ hasText: text(count) }).waitFor();
  return { clientId, context, page };
}

/** Switches the interface language from the menu (the menu and dialog named in `from`). */
export async function switchLanguage(page: Page, from: 'zh' | 'en', to: string): Promise<void> {
  const texts = from === 'zh' ? ZH_APP_TEXTS : APP_TEXT_TRANSLATIONS.en;
  await page.getByRole('button', { name: texts.more, exact: true }).click();
  await page.getByRole('menuitem', { name: texts.language }).click();
  await page.getByRole('dialog', { name: texts.language }).getByRole('button', { name: to }).click();
}
