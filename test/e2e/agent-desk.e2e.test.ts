/**
 * The agent desk in Chromium (issue 11): an accepted visitor's robot phase shows at once; a reload
 * keeps the login (a session token in localStorage, never the password) and the conversation with
 * its history; texts written while the desk is offline arrive exactly once after it returns; a
 * logout tells the visitor at once that its agent left, and it can queue again.
 */
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectErrors, DEMO, desktopContext, E2E_TIMEOUT, entryPath, phoneContext, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env), { agentSessions: { tokenTtlMs: 3_600_000, graceMs: 60_000 } });

function row(page: Page, side: 'mine' | 'theirs', text: string) {
  return page.locator(`.msg.${side}`).filter({ hasText: text });
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

describe('issue 11: the agent desk loses nothing', () => {
  it('shows the robot phase at once, survives a reload and an offline spell, and a logout releases the visitor', async () => {
    const visitorContext = await phoneContext(browser);
    const agentContext = await desktopContext(browser);
    const visitor = await visitorContext.newPage();
    const agent = await agentContext.newPage();
    const agentErrors = collectErrors(agent);

    await agent.goto(`${server.url}/agent`);
    await agent.getByLabel(zh.account).fill(DEMO.agent);
    await agent.getByLabel(zh.password).fill(DEMO.password);
    await agent.getByRole('button', { name: zh.login }).click();
    await agent.getByText(`${zh.online} 1`).waitFor();
    const kept = await agent.evaluate(() => window.localStorage.getItem('kefu.agentSession') ?? '');
    expect(JSON.parse(kept)).toMatchObject({ account: DEMO.agent, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(Object.keys(JSON.parse(kept) as object).sort()).toEqual(['account', 'token']); // never the password

    // the visitor talks to the robot first, then asks for a human
    await visitor.goto(`${server.url}${entryPath('zh')}`);
    await visitor.getByLabel(zh.inputPlaceholder).waitFor();
    await send(visitor, '机器人阶段：我的订单号是 ORD-7');
    await row(visitor, 'mine', 'ORD-7').waitFor();
    await visitor.getByRole('button', { name: zh.transferToHuman }).click();
    const confirm = visitor.getByRole('dialog', { name: zh.transferToHuman });
    await confirm.getByRole('button', { name: zh.confirm }).click();
    await visitor.getByText(zh.waitingForAgent).first().waitFor();

    // accepted: the robot phase is in the desk at once
    await agent.getByRole('button', { name: new RegExp(`^${zh.accept}`) }).first().click();
    await row(agent, 'theirs', '机器人阶段：我的订单号是 ORD-7').waitFor();

    // the desk's stylesheet came with its code, and never reached the visitor's page
    const deskRule = (page: Page): Promise<boolean> =>
      page.evaluate(() => [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((rule) => rule instanceof CSSStyleRule && rule.selectorText === '.desk')));
    expect(await deskRule(agent)).toBe(true);
    expect(await agent.locator('.desk').evaluate((el) => getComputedStyle(el).display)).toBe('grid');
    expect(await deskRule(visitor)).toBe(false);

    // a reload keeps the login and the conversation with its history
    await agent.reload();
    await agent.getByText(`${zh.online} 1`).waitFor();
    expect(await agent.getByLabel(zh.password).count()).toBe(0);
    await row(agent, 'theirs', '机器人阶段：我的订单号是 ORD-7').waitFor();

    // the desk goes offline while the visitor writes; it shows so, and catches up once back
    await agentContext.setOffline(true);
    await agent.getByText(zh.offline).first().waitFor();
    const texts = ['离线期间 1', '离线期间 2', '离线期间 3'];
    for (const text of texts) await send(visitor, text);
    await visitor.locator('.msg.mine').filter({ hasText: texts[2]! }).locator('.read-mark').waitFor();
    await agentContext.setOffline(false);
    for (const text of texts) await row(agent, 'theirs', text).waitFor({ timeout: 30_000 });
    for (const text of texts) expect(await row(agent, 'theirs', text).count()).toBe(1);
    const shown = await agent.locator('.msg.theirs').allTextContents();
    const order = texts.map((text) => shown.findIndex((t) => t.includes(text)));
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // logout: the visitor is told at once and may ask for a human again
    await agent.getByRole('button', { name: zh.logout, exact: true }).click();
    await agent.getByLabel(zh.password).waitFor();
    expect(await agent.evaluate(() => window.localStorage.getItem('kefu.agentSession'))).toBeNull();
    await visitor.getByText(zh.agentLeft).first().waitFor();
    await visitor.getByRole('button', { name: zh.transferToHuman }).waitFor();

    expect(agentErrors).toEqual([]);
    await visitorContext.close();
    await agentContext.close();
  }, E2E_TIMEOUT);
});
