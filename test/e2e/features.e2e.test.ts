/**
 * The chat's other screens and rules in a real browser: refusals with the spec's texts (blank,
 * too frequent, with a retry), a failed upload with its message and a retry, a video that cannot
 * be played, busy service and leaving a message, the group page with the remind picker, a
 * channel, the search box, translation, the banned visitor, and the server-decoded entry link.
 */
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  collectErrors,
  DEMO,
  E2E_TIMEOUT,
  entryPath,
  phoneContext,
  pngFile,
  type TestServer,
  useE2eEnvironment,
} from './harness.js';

let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env), {
  rate: { httpMax: 1_000, httpWindowMs: 60_000, socketMax: 3, socketWindowMs: 2_000 },
  upload: { maxBytes: 4_000, allowedMime: ['image/*', 'video/mp4'], quotaBytesPerDay: 200 * 1024 * 1024 },
});

function toast(page: Page, text: string | RegExp) {
  return page.locator('.toasts .toast').filter({ hasText: text });
}

async function openChat(page: Page, path = entryPath('zh')): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('navigation', { name: zh.suggestedQuestions }).getByRole('button').first().waitFor();
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

describe('spec §5, §8: refused sends and uploads show the spec\'s texts', () => {
  it('"A blank message cannot be sent"; "Sending too often is rejected", and the failed message is retried', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await openChat(page);
    await page.getByRole('button', { name: zh.send }).click();
    await toast(page, zh.blankMessage).waitFor();

    for (const text of ['第一条', '第二条', '第三条', '第四条']) await send(page, text);
    const refused = page.locator('.msg.mine').filter({ hasText: '第四条' });
    await refused.getByText(zh.sendTooFrequent).waitFor();
    await toast(page, zh.sendTooFrequent).waitFor();
    await page.waitForTimeout(2_100);
    await refused.getByRole('button', { name: zh.retry }).click();
    await refused.locator('.read-mark').waitFor();
    expect(await refused.getByText(zh.sendTooFrequent).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);

  it('a failed upload "shows an error mark and its message" and can be retried; a broken video shows the spec\'s text', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    const big = { name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([pngFile('x').buffer, Buffer.alloc(8_000)]) };
    const file = page.locator('.composer input[type="file"]');
    await file.setInputFiles(big);
    const item = page.locator('.uploads .upload').filter({ hasText: 'big.png' });
    await item.getByText(zh.uploadFailed).waitFor();
    await item.getByRole('button', { name: zh.retry }).click();
    await item.getByText(zh.uploadFailed).waitFor();
    await item.getByRole('button', { name: `${zh.cancel} big.png` }).click();
    await item.waitFor({ state: 'detached' });

    await file.setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from('this is not a video at all') });
    await page.locator('.msg.mine').getByText(zh.videoCannotPlay).waitFor();
    await context.close();
  }, E2E_TIMEOUT);
});

describe('spec §4: busy service and leaving a message', () => {
  it('with no agent online the visitor is told service is busy and leaves a message', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await page.getByRole('button', { name: zh.transferToHuman }).click();
    await page.getByRole('dialog').getByRole('button', { name: zh.confirm }).click();
    await page.locator('.session-bar').getByText(zh.serviceBusy).waitFor();
    await page.locator('.session-bar').getByRole('button', { name: zh.leaveMessage }).click();
    const dialog = page.getByRole('dialog', { name: zh.leaveMessage });
    await dialog.getByRole('button', { name: zh.submit }).click();
    await dialog.getByText(zh.fieldRequired.replace('{field}', zh.leaveMessageContact)).waitFor();
    await dialog.getByLabel(zh.leaveMessageContact).fill('13800000000');
    await dialog.getByLabel(zh.leaveMessageContent).fill('请尽快回电');
    await dialog.getByRole('button', { name: zh.submit }).click();
    await toast(page, zh.leaveMessageSubmitted).waitFor();
    const clientId = await page.evaluate(() => localStorage.getItem('uuid') ?? '');
    expect((await server.store.records.leaveMessages(clientId)).map((m) => m.content)).toEqual(['请尽快回电']);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('spec §1, §2: groups, channels, search, translation', () => {
  it('a group chat reminds chosen people; a channel has no composer', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await page.goto(`${server.url}/group/${DEMO.groupId}`);
    await page.getByRole('heading', { name: /Demo Group/ }).waitFor();
    await page.getByText('Welcome! Be kind.').waitFor();
    await page.getByRole('button', { name: zh.remindPeople }).click();
    const picker = page.getByRole('dialog', { name: zh.remindPeople });
    await picker.getByRole('checkbox', { name: 'Lily' }).check();
    await picker.getByRole('button', { name: zh.confirm }).click();
    await expect.poll(() => page.getByLabel(zh.inputPlaceholder).inputValue()).toBe('@Lily ');
    await page.getByLabel(zh.inputPlaceholder).press('End');
    await page.keyboard.type('大家好');
    await page.keyboard.press('Enter');
    const row = page.locator('.msg.mine').filter({ hasText: '@Lily 大家好' });
    await row.locator('.read-mark').waitFor().catch(async (error: unknown) => {
      // once seen under a loaded full run and not reproduced since: say what the row and the connection showed
      const shown = await row.innerText().catch(() => '(no row)');
      const banner = await page.locator('.conn-banner').innerText().catch(() => '(no connection banner)');
      const toasts = await page.locator('.toasts').innerText().catch(() => '');
      throw new Error(`the group text was not marked sent: row "${shown}", banner "${banner}", toasts "${toasts}"`, { cause: error });
    });

    await page.goto(`${server.url}/group/${DEMO.channelId}`);
    await page.getByRole('heading', { name: /Announcements/ }).waitFor();
    expect(await page.getByLabel(zh.inputPlaceholder).count()).toBe(0);
    await context.close();
  }, E2E_TIMEOUT);

  it('the search box finds questions (asking one) and loaded messages; no translate action without a provider', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await send(page, '订单号 ORD42 的问题');
    await page.locator('.msg.mine').filter({ hasText: 'ORD42' }).locator('.read-mark').waitFor();

    await page.getByRole('button', { name: zh.searchPlaceholder }).click();
    const search = page.getByRole('dialog', { name: zh.searchPlaceholder });
    await search.getByRole('searchbox').fill('ORD42');
    await search.getByRole('button', { name: /ORD42/ }).click();
    await search.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: zh.searchPlaceholder }).click();
    await search.getByRole('searchbox').fill('充值');
    const question = search.getByRole('button', { name: '充值多久到账？' });
    await question.click();
    await page.locator('.msg.mine').filter({ hasText: '充值多久到账？' }).waitFor();
    await page.locator('.msg.theirs').filter({ hasText: '1-5 分钟' }).waitFor();

    // No translation provider is configured: the action is not offered (test/e2e/ux.e2e.test.ts
    // covers a configured one).
    expect(await page.getByRole('button', { name: zh.translate }).count()).toBe(0);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('spec §6, §3: the banned visitor and the server-decoded entry link', () => {
  it('"A banned-access message tells the user to contact the administrator" and the page goes to /401', async () => {
    const context = await phoneContext(browser);
    await context.addInitScript(() => localStorage.setItem('uuid', 'demo-banned'));
    const page = await context.newPage();
    await page.goto(`${server.url}${entryPath('zh')}`);
    await page.waitForURL(`${server.url}/401`);
    await page.getByText(zh.unauthorised).waitFor();
    await toast(page, zh.banned).waitFor();
    await context.close();
  }, E2E_TIMEOUT);

  it('an opaque entry value is decoded by the server (decodeParam)', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, '/kefu/demo');
    await page.getByRole('heading', { name: /Demo Shop/ }).waitFor();
    await context.close();
  }, E2E_TIMEOUT);
});
