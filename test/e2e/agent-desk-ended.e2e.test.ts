/**
 * The desk and a visitor who ends and comes back (desk issue, defect 2), in Chromium at 1280 px,
 * with the desk in Chinese and in English: the ended conversation stays, read-only, with "the
 * visitor ended the conversation" and the visitor's rating, also after the desk is reloaded; the
 * visitor starts again through the
 * robot and asks for a human; accepted in the same desk tab, the new conversation shows at once
 * with its robot phase, the agent's composer shows its own placeholder, and the ended one is past.
 * Screenshots of both steps are written to the temp directory (paths printed).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/locales/en.js';
import { zh } from '../../src/i18n/locales/zh.js';
import { APP_TEXT_TRANSLATIONS } from '../../examples/kefu/src/env/app-text-translations.js';
import { ZH_APP_TEXTS, type AppTextTable } from '../../examples/kefu/src/env/app-texts.js';
import { collectErrors, DEMO, E2E_TIMEOUT, entryPath, phoneContext, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env), { agentSessions: { tokenTtlMs: 3_600_000, graceMs: 60_000 } });

type Texts = typeof zh | typeof en;
const DESKS: { language: 'zh' | 'en'; t: Texts; app: AppTextTable }[] = [
  { language: 'zh', t: zh, app: ZH_APP_TEXTS },
  { language: 'en', t: en, app: APP_TEXT_TRANSLATIONS.en },
];

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

async function askForHuman(visitor: Page): Promise<void> {
  await visitor.getByRole('button', { name: zh.transferToHuman }).click();
  await visitor.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
  await visitor.getByText(zh.waitingForAgent).first().waitFor();
}

describe('a visitor who ended and came back: the desk shows the new conversation, the ended one as past', () => {
  for (const { language, t, app } of DESKS) {
    it(`keeps the ended conversation with the rating and opens the new one at once (desk in ${language})`, async () => {
      const visitorContext = await phoneContext(browser);
      const agentContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: language === 'zh' ? 'zh-CN' : 'en-US' });
      const visitor = await visitorContext.newPage();
      const agent = await agentContext.newPage();
      const agentErrors = collectErrors(agent);
      const tag = `${language}-${Date.now() % 100_000}`;

      await agent.goto(`${server.url}/agent`);
      // the login follows the browser's language (the context's locale) before anything is picked
      await agent.getByRole('heading', { name: app.deskLogin }).waitFor();
      await agent.locator('select.field').selectOption(language);
      await agent.getByLabel(t.account).fill(DEMO.agent);
      await agent.getByLabel(t.password).fill(DEMO.password);
      await agent.getByRole('button', { name: t.login }).click();
      await agent.getByText(new RegExp(`^${t.online} \\d`)).waitFor();

      // the first conversation: robot, a human, a reply
      await visitor.goto(`${server.url}${entryPath('zh')}`);
      await visitor.getByLabel(zh.inputPlaceholder).waitFor();
      await send(visitor, `first conversation ${tag}`);
      await askForHuman(visitor);
      await agent.getByRole('button', { name: new RegExp(`^${t.accept}`) }).first().click();
      await agent.locator('.msg.theirs').filter({ hasText: `first conversation ${tag}` }).waitFor();
      // the visitor gave no name: the server's default (made in the visitor's zh) shows in the desk's language
      const defaultName = language === 'en' ? /^Visitor \S{4}$/ : /^访客\S{4}$/;
      expect(await agent.locator('.agent-chat-head h2').first().innerText()).toMatch(defaultName);
      expect(await agent.locator('.msg.theirs').filter({ hasText: `first conversation ${tag}` }).locator('.msg-name').innerText()).toMatch(defaultName);
      await agent.getByLabel(t.inputPlaceholder).fill(`agent reply ${tag}`);
      await agent.getByLabel(t.inputPlaceholder).press('Enter');
      await visitor.locator('.msg.theirs').filter({ hasText: `agent reply ${tag}` }).waitFor();

      // the visitor ends and rates: the desk keeps it, read-only, with the note and the rating
      await visitor.getByRole('button', { name: '更多', exact: true }).click();
      await visitor.getByRole('menuitem', { name: zh.endConversation }).click();
      await visitor.getByRole('dialog', { name: zh.endConversation }).getByRole('button', { name: zh.endConversation }).click();
      const rating = visitor.getByRole('dialog', { name: zh.rateTitle });
      await rating.getByRole('radio', { name: zh.rateSatisfied, exact: true }).check();
      await rating.getByRole('button', { name: zh.submit }).click();
      await rating.waitFor({ state: 'detached' });
      await agent.getByText(app.deskVisitorEnded).waitFor();
      expect(await agent.getByText(t.conversationOver, { exact: true }).count()).toBe(0); // no visitor-side toast
      const rated = new RegExp(app.deskRating.replace('{score}', '\\d').replace(/[()]/g, '\\$&'));
      await agent.getByText(rated).waitFor();
      await agent.locator('.msg.theirs').filter({ hasText: `first conversation ${tag}` }).waitFor();
      expect(await agent.getByLabel(t.inputPlaceholder).count()).toBe(0); // read-only
      const endedShot = join(tmpdir(), `desk-ended-${language}.png`);
      await agent.screenshot({ path: endedShot });

      // the desk is reloaded: the ended conversation, the note and the rating are still there
      await agent.reload();
      // the desk comes back in its language, nothing picked again
      await agent.getByText(new RegExp(`^${t.online} \\d`)).waitFor();
      expect(await agent.locator('.desk-language select').inputValue()).toBe(language);
      await agent.getByRole('heading', { name: `${app.deskEndedConversations} (1)` }).waitFor();
      await agent.locator('.session-btn.is-ended').click();
      await agent.getByText(app.deskVisitorEnded).waitFor();
      await agent.getByText(rated).waitFor();
      await agent.locator('.msg.theirs').filter({ hasText: `first conversation ${tag}` }).waitFor();
      await agent.locator('.msg.mine').filter({ hasText: `agent reply ${tag}` }).waitFor();
      expect(await agent.getByLabel(t.inputPlaceholder).count()).toBe(0); // still read-only
      const reloadedShot = join(tmpdir(), `desk-ended-reloaded-${language}.png`);
      await agent.screenshot({ path: reloadedShot });

      // the visitor starts again, talks to the robot, asks for a human; the agent accepts
      await send(visitor, `second conversation ${tag}`);
      await visitor.locator('.msg.mine').filter({ hasText: `second conversation ${tag}` }).waitFor();
      await askForHuman(visitor);
      await agent.getByRole('button', { name: new RegExp(`^${t.accept}`) }).first().click();
      await agent.locator('.msg.theirs').filter({ hasText: `second conversation ${tag}` }).waitFor();
      expect(await agent.locator('.msg.theirs').filter({ hasText: `first conversation ${tag}` }).count()).toBe(0);
      expect(await agent.getByPlaceholder(t.inputPlaceholder).count()).toBe(1); // the agent's own placeholder
      expect(await agent.getByPlaceholder(app.newConversationHint).count()).toBe(0);
      await agent.getByRole('heading', { name: `${app.deskEndedConversations} (1)` }).waitFor();
      const newShot = join(tmpdir(), `desk-new-${language}.png`);
      await agent.screenshot({ path: newShot });
      console.log(`[desk e2e] screenshots: ${endedShot} ${reloadedShot} ${newShot}`);

      // the agent's reply reaches the visitor; the past conversation can be opened and closed
      await agent.getByLabel(t.inputPlaceholder).fill(`second reply ${tag}`);
      await agent.getByLabel(t.inputPlaceholder).press('Enter');
      await visitor.locator('.msg.theirs').filter({ hasText: `second reply ${tag}` }).waitFor();
      await agent.locator('.session-btn.is-ended').click();
      await agent.getByText(app.deskVisitorEnded).waitFor();
      await agent.getByRole('button', { name: app.deskClose, exact: true }).click();
      await agent.locator('.msg.theirs').filter({ hasText: `second conversation ${tag}` }).waitFor();
      expect(await agent.locator('.session-btn.is-ended').count()).toBe(0);

      await agent.getByRole('button', { name: t.logout, exact: true }).click();
      await agent.getByLabel(t.password).waitFor();
      expect(agentErrors).toEqual([]);
      await visitorContext.close();
      await agentContext.close();
    }, E2E_TIMEOUT);
  }
});
