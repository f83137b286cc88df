/**
 * The desk's canned replies and past conversations in Chromium (desk issue): `/` in the composer
 * suggests the merchant's canned replies (listbox, arrow keys, Enter) by keyboard alone; ending
 * asks for confirmation in a dialog; the "Past conversations" view searches ended conversations
 * and opens one read-only; a context panel shows the visitor; a wrong password says so; the language switches after login. axe finds no serious or critical issue; a 1280 px screenshot is kept.
 *
 * Then, by keyboard alone: the title names the desk and the agent; a queued visitor is previewed
 * (what it wrote, read-only) and accepted from the preview; the context panel beside the chat
 * shows every field, what the visitor arrived with and its deposit card; canned replies are added,
 * edited (and used) and removed in the desk. Screenshots at 1280 px in zh and en.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Canned } from '../../examples/server/src/services/canned.js';
import { axeSource, collectErrors, DEMO, E2E_TIMEOUT, entryPath, phoneContext, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;
const AXE = axeSource();

useE2eEnvironment((env) => ({ server, browser } = env), { agentSessions: { tokenTtlMs: 3_600_000, graceMs: 60_000 } });

/** Presses Tab until the focused element's accessible name (aria-label or text) matches; fails after `max` presses. */
async function tabTo(page: Page, name: RegExp, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
    });
    if (name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

/** The accessible name of the focused element. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
  });
}

/** A visitor page (phone) that wrote `text` and asked for a human. */
async function queuedVisitorPage(page: Page, text: string, query = ''): Promise<void> {
  await page.goto(`${server.url}${entryPath('zh')}${query}`);
  await send(page, text);
  await page.locator('.msg.mine').filter({ hasText: text }).waitFor();
  await page.getByRole('button', { name: zh.transferToHuman }).click();
  await page.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
  await page.getByText(zh.waitingForAgent).first().waitFor();
}

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

  it('by keyboard: previews a queued visitor and accepts from there; the context panel beside the chat shows every field; canned replies are added, edited and removed in the desk', async () => {
    const agentContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const agent = await agentContext.newPage();
    const agentErrors = collectErrors(agent);
    const visitorContext = await phoneContext(browser);
    const visitor = await visitorContext.newPage();

    // the login page is titled for the desk's login; once logged in, the desk and the agent
    await agent.goto(`${server.url}/agent`);
    await expect.poll(() => agent.title()).toBe('客服工作台登录');
    await agent.getByRole('heading', { name: '客服工作台登录' }).waitFor();
    await agent.getByLabel(zh.account).fill(DEMO.agent);
    await agent.getByLabel(zh.password).fill(DEMO.password);
    await agent.getByLabel(zh.password).press('Enter');
    await agent.getByRole('heading', { name: `客服工作台 · ${DEMO.agent}` }).waitFor();
    await expect.poll(() => agent.title()).toBe(`客服工作台 · ${DEMO.agent}`);
    const side = agent.getByRole('complementary', { name: zh.queue });
    await side.getByText(zh.noVisitorsWaiting).waitFor(); // nobody queueing ...
    await side.getByText('暂无进行中的会话').waitFor(); // ... and no open conversation: two different things
    // with nobody queueing and no conversation, the canned replies offer the agent's merchants (from the server)
    const cannedTool = agent.getByRole('button', { name: '快捷回复' });
    await cannedTool.click();
    const emptyDeskManager = agent.getByRole('region', { name: '快捷回复' });
    await expect.poll(() => emptyDeskManager.getByLabel('商户号').inputValue()).toBe(DEMO.mchId);
    expect(await emptyDeskManager.locator('datalist option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([DEMO.mchId]);
    await cannedTool.click(); // back to the chat view

    // a visitor arrives with an order number and the host page's data, writes, asks for a human
    await queuedVisitorPage(visitor, '请帮我查一下订单 ORD202400001', `?cpay=${DEMO.orderNo}&json=${encodeURIComponent('{"account":"u-889","note":"<img src=x onerror=window.__xss=1>"}')}`);
    await side.locator('.queue-item').first().waitFor();

    // Tab to its preview, Enter: what it wrote, read-only, without accepting
    await agent.locator('body').focus();
    await tabTo(agent, /^预览 /);
    await agent.keyboard.press('Enter');
    const preview = agent.getByRole('region', { name: /^排队访客：/ });
    await preview.getByText('请帮我查一下订单 ORD202400001').waitFor();
    expect(await focusedName(agent)).toMatch(/^排队访客：/); // the screen reader hears whom it reads
    expect(await preview.getByText('您好，我是智能客服', { exact: false }).count()).toBe(0); // the robot's words are not the visitor's
    expect(await preview.getByLabel(zh.inputPlaceholder).count()).toBe(0); // read-only
    expect(await side.getByText('暂无进行中的会话').count()).toBe(1); // not accepted
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-preview-1280-zh.png') });

    // Tab to accept, Enter: the conversation opens with its history; focus on its heading
    await tabTo(agent, new RegExp(`^${zh.accept} `), 3);
    await agent.keyboard.press('Enter');
    await agent.locator('.msg.theirs').filter({ hasText: '请帮我查一下订单' }).waitFor();
    await expect.poll(() => agent.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    expect(await agent.getByRole('region', { name: /^排队访客：/ }).count()).toBe(0);

    // the context panel beside the chat: every field, what it arrived with, the deposit card
    const panel = agent.getByRole('complementary', { name: /访客信息/ });
    await panel.getByText('进入参数').waitFor();
    const text = (await panel.textContent()) ?? '';
    for (const part of ['名称', '商户', '示例商城', '平台', 'Web', '语言', '简体中文', '首次访问', '历史会话数', '上次评价', 'cpay', DEMO.orderNo, 'json.account', 'u-889', zh.depositCard, zh.depositAmount]) {
      expect(text, part).toContain(part);
    }
    expect(text).toContain('<img src=x onerror=window.__xss=1>'); // what the visitor's page said is text, never HTML
    expect(await panel.locator('img').count()).toBe(0);
    expect(await agent.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    const chatBox = (await agent.locator('.agent-chat-thread').boundingBox())!;
    const panelBox = (await panel.boundingBox())!;
    expect(panelBox.x).toBeGreaterThanOrEqual(chatBox.x + chatBox.width - 1); // beside the chat, not above it
    expect(panelBox.y).toBeLessThan(chatBox.y + 5);
    expect(await agent.evaluate(() => document.body.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-context-1280-zh.png') });

    // canned replies managed in the desk: add, a taken shortcut, edit, use, remove — by keyboard
    const tools = agent.getByRole('button', { name: '快捷回复' });
    await tools.focus();
    await agent.keyboard.press('Enter');
    const manager = agent.getByRole('region', { name: '快捷回复' });
    await expect.poll(() => manager.getByLabel('商户号').inputValue()).toBe(DEMO.mchId);
    const form = manager.getByRole('form', { name: '新建快捷回复' });
    await form.getByLabel('快捷指令').focus();
    await agent.keyboard.type('thanks');
    await agent.keyboard.press('Tab');
    await agent.keyboard.type('致谢');
    await agent.keyboard.press('Tab');
    await agent.keyboard.type('感谢您的耐心等待！');
    await tabTo(agent, /^添加$/, 3);
    await agent.keyboard.press('Enter');
    const row = manager.getByRole('listitem').filter({ hasText: '/thanks' });
    await row.getByText('感谢您的耐心等待！').waitFor();
    await manager.getByRole('status').filter({ hasText: '已保存 /thanks' }).waitFor();
    // the same shortcut again: said in the agent's language, before asking the server
    await form.getByLabel('快捷指令').fill('/thanks');
    await form.getByLabel('标题').fill('重复');
    await form.getByLabel('内容').fill('x');
    await form.getByLabel('内容').press('Tab');
    await agent.keyboard.press('Enter');
    await form.getByRole('alert').filter({ hasText: '快捷指令 /thanks 已被使用' }).waitFor();
    expect(await focusedName(agent)).toBe(''); // focus moved to the shortcut field (an input: no name of its own here)
    expect(await form.getByLabel('快捷指令').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('标题').getAttribute('aria-invalid')).toBeNull();

    await row.getByRole('button', { name: '编辑 /thanks' }).focus();
    await agent.keyboard.press('Enter');
    const edit = manager.getByRole('form', { name: '编辑 /thanks' });
    await expect.poll(() => edit.getByLabel('快捷指令').evaluate((el) => el === document.activeElement)).toBe(true);
    await edit.getByLabel('内容').focus();
    await agent.keyboard.press('ControlOrMeta+A');
    await agent.keyboard.type('感谢您的耐心，马上为您处理。');
    await tabTo(agent, /^保存$/, 3);
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-canned-edit-1280-zh.png') });
    await agent.keyboard.press('Enter');
    await row.getByText('感谢您的耐心，马上为您处理。').waitFor();
    await expect.poll(() => focusedName(agent)).toBe('编辑 /thanks'); // back where the agent was
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-canned-1280-zh.png') });

    // the edited reply is what "/" suggests in the composer
    await tools.focus();
    await agent.keyboard.press('Enter'); // back to the chat
    const input = agent.getByLabel(zh.inputPlaceholder);
    await input.focus();
    await agent.keyboard.type('/than');
    await agent.getByRole('listbox', { name: '快捷回复' }).getByRole('option').filter({ hasText: '感谢您的耐心，马上为您处理。' }).waitFor();
    await agent.keyboard.press('Enter');
    expect(await input.inputValue()).toBe('感谢您的耐心，马上为您处理。');
    await input.fill('');

    // removal asks first (the safe choice focused), then removes
    await tools.focus();
    await agent.keyboard.press('Enter');
    await manager.getByRole('button', { name: '删除 /thanks' }).focus();
    await agent.keyboard.press('Enter');
    const confirm = manager.getByRole('group', { name: '删除快捷回复 /thanks？' });
    await confirm.waitFor();
    expect(await focusedName(agent)).toBe('取消');
    await agent.keyboard.press('Tab');
    await agent.keyboard.press('Enter');
    await manager.getByRole('status').filter({ hasText: '已删除 /thanks' }).waitFor();
    expect(await manager.getByRole('listitem').filter({ hasText: '/thanks' }).count()).toBe(0);

    // the same screens in English
    const second = await (await phoneContext(browser)).newPage();
    await queuedVisitorPage(second, '我想修改收货地址');
    await agent.getByLabel('语言').selectOption('en');
    await expect.poll(() => agent.title()).toMatch(new RegExp(`Desk · ${DEMO.agent}$`));
    await agent.getByRole('button', { name: /^Preview / }).click();
    await agent.getByRole('region', { name: /^Waiting: / }).getByText('我想修改收货地址').waitFor();
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-preview-1280-en.png') });
    await agent.getByRole('region', { name: /^Waiting: / }).getByRole('button', { name: /^Accept / }).click();
    await agent.locator('.msg.theirs').filter({ hasText: '我想修改收货地址' }).waitFor();
    await agent.getByRole('complementary', { name: /Visitor details/ }).getByText('Arrived with').waitFor();
    await agent.screenshot({ path: join(tmpdir(), 'desk-context-1280-en.png') });
    await agent.getByRole('button', { name: 'Canned replies' }).click();
    await agent.getByRole('region', { name: 'Canned replies' }).getByRole('form', { name: 'New canned reply' }).waitFor();
    expect(await seriousViolations(agent, AXE)).toEqual([]);
    await agent.screenshot({ path: join(tmpdir(), 'desk-canned-1280-en.png') });

    expect(agentErrors).toEqual([]);
    await second.context().close();
    await visitorContext.close();
    await agentContext.close();
  }, E2E_TIMEOUT);
});
