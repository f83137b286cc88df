/**
 * Availability in a real browser (live signals): outside business hours, asking for a human is
 * answered at once ("outside business hours", when the agents are back) with the leave-a-message
 * path, announced once in a polite live region; with an agent online and busy, the queue shows the
 * position and the estimated wait. axe-core on both, and screenshots at 390 px (zh and en).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zh } from '../../src/i18n/locales/zh.js';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ZH_APP_TEXTS } from '../../examples/kefu/src/env/app-texts.js';
import { APP_TEXT_TRANSLATIONS } from '../../examples/kefu/src/env/app-text-translations.js';
import { parseBusinessHours } from '../../examples/server/src/services/business-hours.js';
import { axeSource, collectErrors, DEMO, desktopContext, E2E_TIMEOUT, entryPath, phoneContext, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;
const AXE = axeSource();
/** Where the screenshots go (looked at by a person; not compared). */
const SHOTS = process.env['E2E_SHOTS_DIR'] ?? join(tmpdir(), 'kefu-e2e-shots');
const en = APP_TEXT_TRANSLATIONS.en;

/** Hours (UTC, every weekday) that open two hours from now, for an hour: closed now. */
function closedNow(): ReturnType<typeof parseBusinessHours> {
  const opensAt = Math.floor(Date.now() / 60_000) * 60_000 + 120 * 60_000;
  const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);
  const range = [hhmm(opensAt), hhmm(opensAt + 3_600_000)];
  return parseBusinessHours({ timeZone: 'UTC', days: Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [range]])) });
}

useE2eEnvironment((env) => ({ server, browser } = env), { merchantHours: { [DEMO.mchId]: closedNow() } });

async function openChat(page: Page, language: string): Promise<void> {
  await page.goto(`${server.url}${entryPath(language)}`);
  await page.locator('.suggestions button, nav button').first().waitFor();
}

async function askForHuman(page: Page, labels: { transferToHuman: string; confirm: string }): Promise<void> {
  await page.getByRole('button', { name: labels.transferToHuman }).click();
  await page.getByRole('dialog').getByRole('button', { name: labels.confirm }).click();
}

describe('outside business hours: the honest answer at once, and leaving a message', () => {
  it('zh: says the agents are outside their hours and when they are back; offers leave a message; announced once', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await openChat(page, 'zh');
    const region = page.locator('[role="status"][aria-live="polite"]').filter({ hasText: ZH_APP_TEXTS.unavailableClosed });
    expect(await region.count()).toBe(0);
    await askForHuman(page, zh);
    await region.waitFor();
    await expect.poll(() => region.textContent()).toContain(ZH_APP_TEXTS.backAt.split('{time}')[0] ?? '');
    // not queued: no "waiting for an agent"
    expect(await page.getByText(zh.waitingForAgent).count()).toBe(0);
    // one live region holds the answer (announced once), and it does not change while nothing happens
    const before = await region.textContent();
    await page.waitForTimeout(1_500);
    expect(await region.count()).toBe(1);
    expect(await region.textContent()).toBe(before);
    expect(await seriousViolations(page, AXE)).toEqual([]);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'availability-closed-zh-390.png') });

    await page.locator('.availability-notice').getByRole('button', { name: zh.leaveMessage }).click();
    const dialog = page.getByRole('dialog', { name: zh.leaveMessage });
    await dialog.getByLabel(zh.leaveMessageContact).fill('13800000000');
    await dialog.getByLabel(zh.leaveMessageContent).fill('明天上午请回电');
    await dialog.getByRole('button', { name: zh.submit }).click();
    await page.locator('.toasts .toast').filter({ hasText: zh.leaveMessageSubmitted }).waitFor();
    const clientId = await page.evaluate(() => localStorage.getItem('uuid') ?? '');
    expect((await server.store.records.leaveMessages(clientId)).map((m) => m.content)).toEqual(['明天上午请回电']);
    expect(errors).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);

  it('en: the same answer in English', async () => {
    const { en: sdkEn } = await import('../../src/i18n/locales/en.js');
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, 'en');
    await askForHuman(page, sdkEn);
    await page.locator('[role="status"]').filter({ hasText: en.unavailableClosed }).waitFor();
    await page.locator('.availability-notice').getByRole('button', { name: sdkEn.leaveMessage }).waitFor();
    expect(await seriousViolations(page, AXE)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'availability-closed-en-390.png') });
    await context.close();
  }, E2E_TIMEOUT);
});

describe('inside business hours with the agent busy: position and estimated wait', () => {
  it('the queue shows the position and "about N min" from recent accept times', async () => {
    // open all day from now on (the admin command's hours win over the configured ones)
    const allDay = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['00:00', '24:00']]]));
    await server.store.directory.putMerchantHours(DEMO.mchId, JSON.stringify({ timeZone: 'UTC', days: allDay }), Date.now());
    // recent accepts waited 4, 5 and 6 minutes: about 5 minutes per place
    const now = Date.now();
    for (const [i, wait] of [240_000, 300_000, 360_000].entries()) {
      const acceptedAt = now - 60_000 + i;
      await server.store.chat.createSession({
        ...{ sessionId: `past-${i}`, clientId: `past-${i}`, mchId: DEMO.mchId, platformId: DEMO.platformId, state: 'ended', agentId: 'agent:demo' },
        ...{ createdAt: acceptedAt - wait, queuedAt: acceptedAt - wait, acceptedAt, endedAt: acceptedAt + 1, score: null, remark: null },
      });
    }
    const agentContext = await desktopContext(browser);
    const agent = await agentContext.newPage();
    await agent.goto(`${server.url}/agent`);
    await agent.getByLabel(zh.account).fill(DEMO.agent);
    await agent.getByLabel(zh.password).fill(DEMO.password);
    await agent.getByRole('button', { name: zh.login }).click();
    await agent.getByText(`${zh.online} 1`).waitFor();

    const context = await phoneContext(browser);
    const page = await context.newPage();
    await openChat(page, 'zh');
    await askForHuman(page, zh);
    const bar = page.locator('.session-bar');
    await bar.getByText(zh.waitingForAgent).waitFor();
    await bar.getByText(zh.queuePosition.replace('{position}', '1')).waitFor();
    await bar.getByText(ZH_APP_TEXTS.estimatedWait.replace('{minutes}', '5')).waitFor();
    expect(await page.locator('.availability-notice').count()).toBe(0);
    expect(await seriousViolations(page, AXE)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'availability-queue-zh-390.png') });
    await context.close();
    await agentContext.close();
  }, E2E_TIMEOUT);
});
