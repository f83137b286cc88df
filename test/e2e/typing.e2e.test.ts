/**
 * Typing both ways and sneak peek in Chromium (live signals): the visitor's typing shows on the
 * desk ("visitor is typing…" with the draft, sneak peek being on for the demo merchant) within
 * 300 ms and goes at once on send; the agent's typing shows on the visitor's page ("<agent> is
 * typing…", a polite live region) and goes within 6 s of the last keystroke; the visitor page
 * carries the privacy note. axe on both screens; screenshots at 390 px (visitor) and 1280 px (desk)
 * in `test-results/typing-*.png`.
 */
import { mkdirSync } from 'node:fs';
import { zh } from '../../src/i18n/locales/zh.js';
import { ZH_APP_TEXTS } from '../../examples/kefu/src/env/app-texts.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeSource, collectErrors, DEMO, E2E_TIMEOUT, entryPath, phoneContext, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env), { sneakPeekMerchants: [DEMO.mchId] });

const AXE = axeSource();
const SHOTS = 'test-results';

/**
 * Records in the page, by the shared wall clock, when the text of `selector` first matches or
 * stops matching `pattern` (a MutationObserver, so no polling delay is measured).
 */
async function watchText(page: Page, selector: string, pattern: string, key: string): Promise<void> {
  await page.evaluate(
    ({ selector, pattern, key }) => {
      const marks = ((window as unknown as { __marks?: Record<string, number> }).__marks ??= {});
      const re = new RegExp(pattern);
      const check = (): void => {
        const text = document.querySelector(selector)?.textContent ?? '';
        if (re.test(text)) marks[`${key}:on`] ??= Date.now();
        else if (marks[`${key}:on`] !== undefined) marks[`${key}:off`] ??= Date.now();
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { selector, pattern, key },
  );
}

async function mark(page: Page, name: string): Promise<number> {
  const handle = await page.waitForFunction((n) => (window as unknown as { __marks?: Record<string, number> }).__marks?.[n], name, { timeout: 10_000 });
  return (await handle.jsonValue()) as number;
}

/** Records (in the page) when the composer's first input happens (typed characters are input events, not always key events). */
async function watchFirstKey(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.addEventListener('input', () => ((window as unknown as { __firstKey?: number }).__firstKey ??= Date.now()), { capture: true });
  });
}

describe('typing both ways, and sneak peek', () => {
  it('shows the indicator on both sides within 300 ms, the draft on the desk, and drops it on send and after idle', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const visitorContext = await phoneContext(browser);
    const agentContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const visitor = await visitorContext.newPage();
    const agent = await agentContext.newPage();
    const visitorErrors = collectErrors(visitor);
    const agentErrors = collectErrors(agent);

    await agent.goto(`${server.url}/agent`);
    await agent.getByLabel(zh.account).fill(DEMO.agent);
    await agent.getByLabel(zh.password).fill(DEMO.password);
    await agent.getByRole('button', { name: zh.login }).click();
    await agent.getByText(`${zh.online} 1`).waitFor();

    await visitor.goto(`${server.url}${entryPath('zh')}`);
    const input = visitor.getByLabel(zh.inputPlaceholder);
    await input.waitFor();
    // the merchant has sneak peek on: the visitor page says so
    await visitor.getByText(ZH_APP_TEXTS.sneakPeekNote).waitFor();
    await visitor.getByRole('button', { name: zh.transferToHuman }).click();
    await visitor.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
    await visitor.getByText(zh.waitingForAgent).first().waitFor();
    await agent.getByRole('button', { name: new RegExp(`^${zh.accept}`) }).first().click();
    await agent.locator('.agent-chat').waitFor();
    await visitor.locator('.session-agent').first().waitFor();

    // visitor -> desk: within 300 ms of the first key, with the draft
    await watchText(agent, '.desk-typing-state', ZH_APP_TEXTS.visitorTyping, 'visitor');
    await watchFirstKey(visitor);
    await input.pressSequentially('我的订单还没到', { delay: 80 });
    const firstKey = (await visitor.evaluate(() => (window as unknown as { __firstKey?: number }).__firstKey)) ?? 0;
    const shownAt = await mark(agent, 'visitor:on');
    console.log(`[typing e2e] visitor -> desk indicator after ${shownAt - firstKey} ms`);
    expect(shownAt - firstKey).toBeLessThan(300);
    await agent.locator('.draft-preview').filter({ hasText: '我的订单还没到' }).waitFor({ timeout: 4_000 });

    await agent.screenshot({ path: `${SHOTS}/typing-desk-1280.png` });
    expect(await seriousViolations(agent, AXE)).toEqual([]);

    // sending removes it at once
    const sentAt = Date.now();
    await input.press('Enter');
    const goneAt = await mark(agent, 'visitor:off');
    console.log(`[typing e2e] desk indicator gone ${goneAt - sentAt} ms after send`);
    expect(goneAt - sentAt).toBeLessThan(300);
    expect(await agent.locator('.draft-preview').count()).toBe(0);

    // desk -> visitor: "<agent> is typing…" within 300 ms, gone within 6 s of the last key
    await watchText(visitor, '.typing-indicator', ZH_APP_TEXTS.agentTyping.replace('{name}', '.+'), 'agent');
    await watchFirstKey(agent);
    const agentInput = agent.getByLabel(zh.inputPlaceholder);
    await agentInput.pressSequentially('马上帮您查', { delay: 80 });
    const lastKey = Date.now();
    const agentKey = (await agent.evaluate(() => (window as unknown as { __firstKey?: number }).__firstKey)) ?? 0;
    const agentShown = await mark(visitor, 'agent:on');
    console.log(`[typing e2e] desk -> visitor indicator after ${agentShown - agentKey} ms`);
    expect(agentShown - agentKey).toBeLessThan(300);
    const status = visitor.getByRole('status').filter({ hasText: ZH_APP_TEXTS.agentTyping.replace('{name}', '').trim() });
    await expect(status.getAttribute('aria-live')).resolves.toBe('polite');
    // the visitor never sees the agent's draft
    expect(await visitor.getByText('马上帮您查').count()).toBe(0);
    await visitor.screenshot({ path: `${SHOTS}/typing-visitor-390.png` });
    expect(await seriousViolations(visitor, AXE)).toEqual([]);

    const idleGone = await mark(visitor, 'agent:off');
    console.log(`[typing e2e] visitor indicator gone ${idleGone - lastKey} ms after the agent's last key`);
    expect(idleGone - lastKey).toBeLessThan(6_000);

    expect(visitorErrors).toEqual([]);
    expect(agentErrors).toEqual([]);
    await visitorContext.close();
    await agentContext.close();
  }, E2E_TIMEOUT);
});
