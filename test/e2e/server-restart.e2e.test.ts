/**
 * Resilience: the server restarts in the middle of a chat; the client reconnects with its key
 * session, sends what was written meanwhile, fetches what it missed, and nothing is lost.
 */
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, E2E_TIMEOUT, entryPath, launchBrowser, phoneContext, releaseApp, removeDir, requireChromium, sharedApp, startServer, type TestServer } from './harness.js';

let appDir: string;
let server: TestServer;
let browser: Browser;
const skipped = requireChromium();

beforeAll(async () => {
  if (skipped) return;
  appDir = await sharedApp();
  server = await startServer(appDir);
  browser = await launchBrowser();
}, E2E_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (server) removeDir(server.dataDir);
  if (appDir) releaseApp(appDir);
});

function mine(page: Page, text: string) {
  return page.locator('.msg.mine').filter({ hasText: text });
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

describe('resilience: the server restarts mid-chat', () => {
  it('reconnects, delivers the message written while it was down, and loses nothing', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${server.url}${entryPath('zh')}`);
    await page.getByRole('navigation', { name: zh.suggestedQuestions }).waitFor();

    await send(page, '重启之前的消息');
    await mine(page, '重启之前的消息').locator('.read-mark').waitFor();
    const robotRows = page.locator('.msg.theirs').filter({ has: page.locator('.badge-robot') });
    await expect.poll(() => robotRows.count()).toBe(2);

    // Down: the header says so, and a message written now waits.
    const port = Number(new URL(server.url).port);
    const { dataDir } = server;
    await server.close();
    await page.getByText(zh.reconnecting).waitFor();
    await send(page, '服务器重启期间的消息');
    await mine(page, '服务器重启期间的消息').getByText(zh.sending).waitFor();

    // Up again on the same port with the same data: the message is delivered and answered.
    server = await startServer(appDir, { port, dataDir });
    await mine(page, '服务器重启期间的消息').locator('.read-mark').waitFor({ timeout: 30_000 });
    await expect.poll(() => robotRows.count(), { timeout: 15_000 }).toBe(3);
    await page.getByText(zh.reconnecting).waitFor({ state: 'detached' });

    // The chat continues, and a reload shows the whole history from the server.
    await send(page, '重启之后的消息');
    await mine(page, '重启之后的消息').locator('.read-mark').waitFor();
    await page.reload();
    for (const text of ['重启之前的消息', '服务器重启期间的消息', '重启之后的消息']) await mine(page, text).waitFor();
    await expect.poll(() => robotRows.count()).toBe(4);
    expect(errors).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);
});
