/**
 * Security: a message holding HTML and `javascript:` links is shown as text and runs nothing,
 * on the side that sent it and on the side that received it; only safe http(s) links are links.
 */
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  collectErrors,
  DEMO,
  desktopContext,
  E2E_TIMEOUT,
  entryPath,
  phoneContext,
  type TestServer,
  useE2eEnvironment,
} from './harness.js';

let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env));

const PAYLOAD =
  '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> javascript:alert(document.domain) ' +
  '<a href="javascript:window.__xss=3">click me</a> [x](javascript:window.__xss=4) https://example.com/safe?a=1';

async function expectInert(page: Page, side: 'mine' | 'theirs'): Promise<void> {
  const bubble = page.locator(`.msg.${side} .bubble`).filter({ hasText: 'click me' });
  await bubble.waitFor();
  expect(await bubble.textContent()).toBe(PAYLOAD);
  expect(await page.locator('img[src="x"], .bubble script').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
  const links = bubble.locator('a');
  expect(await links.count()).toBe(1);
  expect(await links.getAttribute('href')).toBe('https://example.com/safe?a=1');
  expect(await links.getAttribute('rel')).toContain('noopener');
  // Clicking the text of the javascript: "links" does nothing.
  await bubble.getByText('click me').click();
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
}

describe('security: message content is text, never markup', () => {
  it('shows HTML and javascript: links as text on both sides and runs nothing', async () => {
    const visitorContext = await phoneContext(browser);
    const agentContext = await desktopContext(browser);
    const visitor = await visitorContext.newPage();
    const agent = await agentContext.newPage();
    const dialogs: string[] = [];
    for (const page of [visitor, agent]) page.on('dialog', (d) => void d.dismiss().then(() => dialogs.push(d.message())));
    const errors = [...[visitor, agent].map(collectErrors)];

    await agent.goto(`${server.url}/agent`);
    await agent.getByLabel(zh.account).fill(DEMO.agent);
    await agent.getByLabel(zh.password).fill(DEMO.password);
    await agent.getByRole('button', { name: zh.login }).click();
    await agent.getByText(`${zh.online} 1`).waitFor();

    await visitor.goto(`${server.url}${entryPath('zh')}`);
    await visitor.getByRole('button', { name: zh.transferToHuman }).click();
    await visitor.getByRole('dialog').getByRole('button', { name: zh.confirm }).click();
    await agent.getByRole('button', { name: new RegExp(`^${zh.accept}`) }).first().click();
    await visitor.getByText(/Demo Agent/).first().waitFor();

    // The visitor sends it: inert in its own list and in the agent's.
    const input = visitor.getByLabel(zh.inputPlaceholder);
    await input.fill(PAYLOAD);
    await input.press('Enter');
    await expectInert(visitor, 'mine');
    await expectInert(agent, 'theirs');

    // The agent sends it: inert for the visitor who receives it.
    const agentInput = agent.getByLabel(zh.inputPlaceholder);
    await agentInput.fill(PAYLOAD);
    await agentInput.press('Enter');
    await expectInert(visitor, 'theirs');

    expect(dialogs).toEqual([]);
    expect(errors.flat()).toEqual([]);
    await visitorContext.close();
    await agentContext.close();
  }, E2E_TIMEOUT);
});
