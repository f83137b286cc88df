/**
 * The desk's canned replies and past conversations in Chromium (desk issue): `/` in the composer
 * suggests the merchant's canned replies (listbox, arrow keys, Enter) by keyboard alone; ending
 * asks for confirmation in a dialog; the "Past conversations" view searches ended conversations
 * and opens one read-only; a context panel shows the visitor; a wrong password says so; the language switches after login. axe finds no serious or critical issue; a 1280 px screenshot is kept.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zh } from '../../src/i18n/index.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Canned } from '../../examples/server/src/services/canned.js';
import { axeSource, collectErrors, DEMO, E2E_TIMEOUT, entryPath, phoneContext, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;
const AXE = axeSource();

useE2eEnvironment((env) => ({ server, browser } = env), { agentSessions: { tokenTtlMs: 3_600_000, graceMs: 60_000 } });

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

describe('desk: canned replies and past conversations', () => {
  it('suggests canned replies on /, confirms the end, finds the conversation in the past ones and opens it read-only', async () => {
    await new Canned(server.store).add({ mchId: 'M1001', title: '问候', text: '您好，很高兴为您服务！', shortcut: 'greet' });
    await new Canned(server.store).add({ mchId: 'M1001', title: '退款进度', text: '您的退款正在处理中。', shortcut: 'refund' });
    const visitorContext = await phoneContext(browser);
    const agentContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const visitor = await visitorContext.newPage();
    const agent = await agentContext.newPage();
    const agentErrors = collectErrors(agent);

    await agent.goto(`${server.url}/agent`);
    await agent.getByLabel(zh.account).fill(DEMO.agent);
    await agent.getByLabel(zh.password).fill('not-the-password');
    await agent.getByRole('button', { name: zh.login }).click();
    await agent.getByRole('alert').filter({ hasText: '账号或密码错误' }).waitFor();
    await agent.getByLabel(zh.password).fill(DEMO.password);
    await agent.getByRole('button', { name: zh.login }).click();
    await agent.getByText(`${zh.online} 1`).waitFor();

    await visitor.goto(`${server.url}${entryPath('zh')}`);
    await visitor.getByLabel(zh.inputPlaceholder).waitFor();
    await send(visitor, '我的包裹 PKG-42 在哪里？');
    await visitor.getByRole('button', { name: zh.transferToHuman }).click();
    await visitor.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
    await visitor.getByText(zh.waitingForAgent).first().waitFor();
    await agent.getByRole('button', { name: new RegExp(`^${zh.accept}`) }).first().click();
    await agent.locator('.msg.theirs').filter({ hasText: 'PKG-42' }).waitFor();

    // the context panel beside the chat names the visitor, the merchant and its history
    const panel = agent.getByRole('complementary', { name: /访客信息/ });
    await panel.getByText('历史会话数').waitFor();
    expect(await panel.textContent()).toContain('示例商城');

    // "/" opens the suggestions; typing narrows them; arrows and Enter pick one, by keyboard alone
    const input = agent.getByLabel(zh.inputPlaceholder);
    await input.focus();
    await agent.keyboard.type('/');
    const list = agent.getByRole('listbox', { name: '快捷回复' });
    await list.waitFor();
    expect(await list.getByRole('option').allTextContents()).toEqual([expect.stringContaining('/greet'), expect.stringContaining('/refund')]);
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    await agent.keyboard.press('ArrowDown');
    expect(await list.getByRole('option', { selected: true }).textContent()).toContain('/refund');
    await agent.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    await agent.keyboard.type('gr');
    await list.waitFor();
    expect(await list.getByRole('option').count()).toBe(1);
    expect(await agent.evaluate(() => document.body.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.keyboard.press('Enter');
    expect(await input.inputValue()).toBe('您好，很高兴为您服务！');
    await agent.keyboard.press('Enter');
    await visitor.locator('.msg.theirs').filter({ hasText: '您好，很高兴为您服务！' }).waitFor();

    // ending asks first: cancel keeps the conversation, confirm ends it
    await agent.getByRole('button', { name: zh.endConversation }).click();
    const dialog = agent.getByRole('dialog', { name: zh.endConversation });
    await dialog.waitFor();
    await agent.keyboard.press('Enter'); // the focused, safe choice: cancel
    await dialog.waitFor({ state: 'detached' });
    await agent.getByRole('button', { name: zh.endConversation }).click();
    await dialog.getByRole('button', { name: zh.endConversation }).click();
    await agent.getByText('您已结束会话').waitFor();

    // past conversations: search by text, open read-only
    await agent.getByRole('button', { name: '历史会话' }).click();
    const past = agent.getByRole('region', { name: '历史会话' });
    await past.waitFor();
    await past.getByLabel('搜索消息').fill('pkg-42');
    await past.getByRole('button', { name: '搜索', exact: true }).click();
    const found = past.getByRole('listitem');
    await expect.poll(() => found.count()).toBe(1);
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-past-1280.png'), fullPage: false });
    await found.getByRole('button').click();
    const opened = agent.getByRole('article');
    await opened.getByText('我的包裹 PKG-42 在哪里？').waitFor();
    await opened.getByText('您好，很高兴为您服务！').waitFor();
    expect(await opened.getByLabel(zh.inputPlaceholder).count()).toBe(0); // read-only
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-past-opened-1280.png'), fullPage: false });
    await opened.getByRole('button', { name: '返回' }).click();
    await past.getByLabel('搜索消息').fill('nothing-like-this');
    await past.getByRole('button', { name: '搜索', exact: true }).click();
    await past.getByText('没有已结束的会话').waitFor();

    // the language can be switched after login
    await agent.getByLabel('语言').selectOption('en');
    await agent.getByRole('button', { name: 'Past conversations' }).waitFor();
    await agent.getByText('No ended conversations').waitFor();

    expect(agentErrors).toEqual([]);
    await visitorContext.close();
    await agentContext.close();
  }, E2E_TIMEOUT);
});
