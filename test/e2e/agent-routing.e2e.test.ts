/**
 * Agent status and transfer on the desk in Chromium (desk issue "the desk runs a real support
 * team"), with automatic assignment on: an away agent gets no visitor; the status switch and
 * the transfer form work by keyboard alone; a transfer moves the conversation with its history
 * and the note to the other desk and tells the visitor who serves it now. axe finds no serious
 * or critical issue on the desk with the transfer form open.
 */
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoAgentAccount } from '../../examples/server/src/config.js';
import { hashPassword } from '../../examples/server/src/agents/password.js';
import { ZH_APP_TEXTS } from '../../examples/kefu/src/env/app-texts.js';
import { axeSource, collectErrors, DEMO, desktopContext, E2E_TIMEOUT, entryPath, phoneContext, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;

const BOB = { account: 'bob', password: 'bob-secret', name: 'Bob' };
useE2eEnvironment((env) => ({ server, browser } = env), {
  agents: [demoAgentAccount(), { account: BOB.account, name: BOB.name, passwordHash: hashPassword(BOB.password), merchants: [DEMO.mchId] }],
  routing: { autoAssign: true, defaultCapacity: 3, capacities: {} },
});

async function login(page: Page, account: string, password: string): Promise<void> {
  await page.goto(`${server.url}/agent`);
  await page.getByLabel(zh.account).fill(account);
  await page.getByLabel(zh.password).fill(password);
  await page.getByRole('button', { name: zh.login }).click();
  await page.getByLabel('状态').waitFor();
}

describe('desk: agent status and transfer', () => {
  it('an away agent gets nobody; keyboard alone sets the status and transfers with a note; axe finds nothing serious', async () => {
    const bob = await (await desktopContext(browser)).newPage();
    const demo = await (await desktopContext(browser)).newPage();
    const visitor = await (await phoneContext(browser)).newPage();
    const bobErrors = collectErrors(bob);
    const demoErrors = collectErrors(demo);

    // bob goes away by keyboard: focus the status switch, choose 暂离
    await login(bob, BOB.account, BOB.password);
    await bob.getByText(`${zh.online} 1`).waitFor();
    await bob.getByLabel('状态').focus();
    await bob.keyboard.press('ArrowDown');
    await expect.poll(() => bob.getByLabel('状态').inputValue()).toBe('away');
    await login(demo, DEMO.agent, DEMO.password);
    await demo.getByText(`${zh.online} 2`).waitFor();

    // a visitor asks for a human: assigned to demo at once (bob is away, though idle longest)
    await visitor.goto(`${server.url}${entryPath('zh')}`);
    await visitor.getByLabel(zh.inputPlaceholder).fill('我的订单 ORD-9 还没到');
    await visitor.getByLabel(zh.inputPlaceholder).press('Enter');
    await visitor.locator('.msg.mine').filter({ hasText: 'ORD-9' }).waitFor();
    await visitor.getByRole('button', { name: zh.transferToHuman }).click();
    await visitor.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
    await demo.locator('.msg.theirs').filter({ hasText: 'ORD-9' }).waitFor();
    await expect.poll(() => demo.getByText('1/3 个会话').count()).toBeGreaterThan(0);
    expect(await bob.locator('.msg.theirs').filter({ hasText: 'ORD-9' }).count()).toBe(0);

    // bob is back; demo transfers by keyboard alone
    await bob.getByLabel('状态').focus();
    await bob.keyboard.press('ArrowUp');
    await expect.poll(() => bob.getByLabel('状态').inputValue()).toBe('available');
    const transfer = demo.getByRole('button', { name: '转接', exact: true });
    await transfer.focus();
    await demo.keyboard.press('Enter');
    await demo.getByLabel('转接给').waitFor();
    await expect.poll(() => demo.getByLabel('转接给').locator('option').allTextContents()).toEqual([expect.stringContaining('Bob')]);
    await demo.setViewportSize({ width: 1280, height: 800 });
    await demo.screenshot({ path: '/tmp/routing-desk-1280.png' });
    expect(await seriousViolations(demo, axeSource())).toEqual([]);
    await demo.keyboard.press('Tab'); // the target select
    await demo.keyboard.press('Tab'); // the note
    await demo.keyboard.type('VIP，想退款');
    await demo.keyboard.press('Tab');
    await demo.keyboard.press('Enter');

    // the conversation, its history and the note are on bob's desk; demo's desk lost it
    await bob.locator('.msg.theirs').filter({ hasText: 'ORD-9' }).waitFor();
    await bob.getByRole('note').filter({ hasText: 'VIP，想退款' }).waitFor();
    await expect.poll(() => demo.getByText('0/3 个会话').count()).toBeGreaterThan(0);
    expect(await seriousViolations(bob, axeSource())).toEqual([]);
    // demo keeps it, read-only, as transferred to Bob (not ended): nothing on the whole page says ended
    const transferredNote = ZH_APP_TEXTS.deskTransferredTo.replace('{name}', BOB.name);
    const demoSide = demo.getByRole('complementary', { name: zh.queue });
    await demo.getByText(transferredNote).waitFor();
    await demoSide.getByRole('heading', { name: '已转接的会话 (1)' }).waitFor();
    expect(await demo.getByText(ZH_APP_TEXTS.deskConversationEnded).count()).toBe(0);
    expect(await demo.getByText(ZH_APP_TEXTS.deskEndedConversations).count()).toBe(0);
    expect(await demo.getByLabel(zh.inputPlaceholder).count()).toBe(0);
    await demo.screenshot({ path: '/tmp/routing-desk-transferred.png' });
    expect(await seriousViolations(demo, axeSource())).toEqual([]);
    // the same after a reload (the server keeps the transfer until demo closes it)
    await demo.reload();
    await demoSide.getByRole('heading', { name: '已转接的会话 (1)' }).waitFor();
    await demoSide.getByRole('button', { name: /^访客/ }).click();
    await demo.getByText(transferredNote).waitFor();
    await demo.waitForTimeout(1_000);
    await demo.screenshot({ path: '/tmp/routing-desk-transferred-reloaded.png' });
    // its history is Bob's now (4003): not asked for, so no error; nothing more to load
    expect(await demo.getByText(/Forbidden/).count()).toBe(0);
    expect(await demo.locator('.list-top').count()).toBe(0);
    expect(await seriousViolations(demo, axeSource())).toEqual([]);
    expect(await demo.getByText(ZH_APP_TEXTS.deskConversationEnded).count()).toBe(0);
    expect(await demo.getByText(ZH_APP_TEXTS.deskEndedConversations).count()).toBe(0);
    expect(await demo.getByLabel(zh.inputPlaceholder).count()).toBe(0);
    // closed by keyboard: gone, and still gone after a reload
    const close = demo.getByRole('button', { name: ZH_APP_TEXTS.deskClose, exact: true });
    await close.focus();
    await demo.keyboard.press('Enter');
    await expect.poll(() => demoSide.getByRole('heading', { name: /^已转接的会话/ }).count()).toBe(0);
    await demo.reload();
    await demo.getByText(`${zh.online} 2`).waitFor();
    await demoSide.getByText('暂无进行中的会话').waitFor();
    expect(await demoSide.getByRole('heading', { name: /^已转接的会话/ }).count()).toBe(0);
    // the visitor hears who serves it now, and never sees the note
    await visitor.getByText(zh.agentJoined.replace('{name}', BOB.name)).first().waitFor();
    expect(await visitor.getByText('VIP').count()).toBe(0);
    expect([...bobErrors, ...demoErrors]).toEqual([]);
  }, E2E_TIMEOUT);

  it('a refused transfer (at capacity) says only why, in the transfer form, and no generic send failure', async () => {
    const bob = await (await desktopContext(browser)).newPage();
    const demo = await (await desktopContext(browser)).newPage();
    const visitor = await (await phoneContext(browser)).newPage();
    await server.store.chat.setAgentCapacity('agent:bob', 0); // bob takes nobody more
    await login(bob, BOB.account, BOB.password);
    await login(demo, DEMO.agent, DEMO.password);
    await demo.getByText(`${zh.online} 2`).waitFor();
    await visitor.goto(`${server.url}${entryPath('zh')}`);
    await visitor.getByLabel(zh.inputPlaceholder).fill('退款 RF-1');
    await visitor.getByLabel(zh.inputPlaceholder).press('Enter');
    await visitor.locator('.msg.mine').filter({ hasText: 'RF-1' }).waitFor();
    await visitor.getByRole('button', { name: zh.transferToHuman }).click();
    await visitor.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
    await demo.locator('.msg.theirs').filter({ hasText: 'RF-1' }).waitFor();

    const transfer = demo.getByRole('button', { name: '转接', exact: true });
    await transfer.focus();
    await demo.keyboard.press('Enter');
    await demo.getByLabel('转接给').waitFor();
    await demo.keyboard.press('Tab'); // the target select
    await demo.keyboard.press('Tab'); // the note
    await demo.keyboard.press('Tab');
    await demo.keyboard.press('Enter');
    await demo.getByRole('alert').filter({ hasText: ZH_APP_TEXTS.deskTransferAtCapacity }).waitFor();
    await demo.waitForTimeout(500);
    expect(await demo.getByText(zh.sendFailed).count()).toBe(0);
    expect(await demo.locator('.toasts .toast').count()).toBe(0);
    // still demo's: open, with its composer
    await demo.getByLabel(zh.inputPlaceholder).waitFor();
    await demo.screenshot({ path: '/tmp/routing-desk-refused.png' });
    expect(await seriousViolations(demo, axeSource())).toEqual([]);
    await server.store.chat.setAgentCapacity('agent:bob', null);
  }, E2E_TIMEOUT);
});
