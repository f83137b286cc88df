/**
 * Never stranded, nothing lost (issue 10): the visitor page in Debian's Chromium against the
 * reference server running as a child process, with faults injected — the server killed with
 * SIGKILL, a 70 s outage, the browser offline for 20 s, the page frozen during an outage, and a tab
 * closed with a pending text. Each test asserts that every text is stored exactly once on the
 * server and shown exactly once, in the order it was typed, without any user action, and prints
 * the recovery time after the server (or the network) is back.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zh } from '../../src/i18n/locales/zh.js';
import { collectErrors, entryPath, launchBrowser, phoneContext, releaseApp, removeDir, requireChromium, sharedApp } from './harness.js';
import { freePort, startServerProcess, storedTexts, type ServerProcess } from './server-process.js';

const TIMEOUT = 240_000;

let appDir: string;
let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];
const skipped = requireChromium();

beforeAll(async () => {
  if (skipped) return;
  appDir = await sharedApp();
  browser = await launchBrowser();
}, TIMEOUT);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  if (appDir) releaseApp(appDir);
});

/** A server on its own port and data directory, restartable. */
async function serverFixture(): Promise<{ port: number; dataDir: string; start: () => Promise<ServerProcess>; current: () => ServerProcess | undefined }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-faults-'));
  let current: ServerProcess | undefined;
  cleanups.push(async () => {
    await current?.kill();
    removeDir(dataDir);
  });
  return {
    port,
    dataDir,
    start: async () => {
      current = await startServerProcess({ port, dataDir, appDir });
      return current;
    },
    current: () => current,
  };
}

function mine(page: Page, text: string) {
  return page.locator('.msg.mine').filter({ hasText: text });
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
  await mine(page, text).first().waitFor();
}

/** Opens the visitor chat; a first visit waits for the robot's suggested questions, a later one for the composer. */
async function openChat(context: BrowserContext, url: string, firstVisit = true): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}${entryPath('zh')}`);
  if (firstVisit) await page.getByRole('navigation', { name: zh.suggestedQuestions }).waitFor();
  else await page.getByLabel(zh.inputPlaceholder).waitFor();
  return page;
}

/** Waits until every text shows as delivered (a read mark, no "sending") and returns when that was. */
async function waitDelivered(page: Page, texts: string[], timeout = 60_000): Promise<number> {
  for (const text of texts) await mine(page, text).locator('.read-mark').first().waitFor({ timeout });
  return Date.now();
}

/** Every text stored once and shown once, in the order typed. */
async function expectOnceInOrder(page: Page, dataDir: string, prefix: string, texts: string[]): Promise<void> {
  await expect.poll(() => storedTexts(dataDir, prefix).map((r) => r.text), { timeout: 15_000 }).toEqual(texts);
  const shown = await page.locator('.msg.mine .bubble').allTextContents();
  expect(shown.filter((s) => s.startsWith(prefix))).toEqual(texts);
}

function report(fault: string, ms: number): void {
  console.log(`[faults] ${fault}: recovered ${(ms / 1000).toFixed(2)} s after the server/network was back`);
}

describe('issue 10: the visitor page recovers by itself and loses nothing', () => {
  it('server killed with SIGKILL, back after 3 s', async () => {
    const server = await serverFixture();
    const up = await server.start();
    const context = await phoneContext(browser);
    const page = await openChat(context, up.url);
    const errors = collectErrors(page);
    const texts = ['K1 before the kill', 'K2 while down', 'K3 while down, later'];

    await send(page, texts[0]!);
    await waitDelivered(page, [texts[0]!]);
    await up.kill();
    await send(page, texts[1]!);
    await new Promise((r) => setTimeout(r, 1_500));
    await send(page, texts[2]!);
    await new Promise((r) => setTimeout(r, 1_500));
    const back = await server.start();
    const delivered = await waitDelivered(page, texts);
    report('SIGKILL, back after 3 s', delivered - back.readyAt);
    await expectOnceInOrder(page, server.dataDir, 'K', texts);
    expect(errors).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('server away for 70 s: past the first reconnect phase, the page comes back by itself', async () => {
    const server = await serverFixture();
    const up = await server.start();
    const context = await phoneContext(browser);
    const page = await openChat(context, up.url);
    const texts = ['L1 before', 'L2 at 5 s', 'L3 at 60 s, after the first phase'];

    await send(page, texts[0]!);
    await waitDelivered(page, [texts[0]!]);
    await up.kill();
    const downAt = Date.now();
    await new Promise((r) => setTimeout(r, 5_000));
    await send(page, texts[1]!);
    await new Promise((r) => setTimeout(r, 60_000 - (Date.now() - downAt)));
    await send(page, texts[2]!);
    await mine(page, texts[2]!).getByText(zh.sending).waitFor();
    // past the first phase the banner says so and offers a reconnect now, which nobody presses
    const banner = page.locator('.conn-banner');
    await banner.filter({ hasText: zh.connectionFailed }).waitFor();
    await banner.getByRole('button').waitFor();
    await new Promise((r) => setTimeout(r, Math.max(0, 70_000 - (Date.now() - downAt))));
    const back = await server.start();
    const delivered = await waitDelivered(page, texts, 30_000);
    const recovery = delivered - back.readyAt;
    report('70 s outage', recovery);
    await banner.waitFor({ state: 'detached' });
    // visible page: the slow phase is capped at about 10 s, plus the connect itself
    expect(recovery).toBeLessThan(15_000);
    await expectOnceInOrder(page, server.dataDir, 'L', texts);
    await context.close();
  }, TIMEOUT);

  it('browser offline for 20 s', async () => {
    const server = await serverFixture();
    const up = await server.start();
    const context = await phoneContext(browser);
    const page = await openChat(context, up.url);
    const texts = ['O1 online', 'O2 offline', 'O3 offline, later'];

    await send(page, texts[0]!);
    await waitDelivered(page, [texts[0]!]);
    await context.setOffline(true);
    await send(page, texts[1]!);
    await new Promise((r) => setTimeout(r, 10_000));
    await send(page, texts[2]!);
    await new Promise((r) => setTimeout(r, 10_000));
    await mine(page, texts[2]!).getByText(zh.sending).waitFor();
    await context.setOffline(false);
    const onlineAt = Date.now();
    const delivered = await waitDelivered(page, texts, 30_000);
    report('offline 20 s', delivered - onlineAt);
    await expectOnceInOrder(page, server.dataDir, 'O', texts);
    await context.close();
  }, TIMEOUT);

  it('page frozen (Page Lifecycle) while the server is away, resumed after it is back', async () => {
    const server = await serverFixture();
    const up = await server.start();
    const context = await phoneContext(browser);
    const page = await openChat(context, up.url);
    const cdp = await context.newCDPSession(page);
    const texts = ['F1 before', 'F2 before the freeze, server down'];

    await send(page, texts[0]!);
    await waitDelivered(page, [texts[0]!]);
    await up.kill();
    await send(page, texts[1]!);
    // Headless Chromium keeps a visible page running through Page.setWebLifecycleState (timers
    // keep firing), so the freeze is also made real: the Page Lifecycle 'freeze' event, then a main
    // thread that runs nothing (no timer, no socket event) while the server comes back.
    await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
    await page.evaluate(() => document.dispatchEvent(new Event('freeze')));
    const frozen = page.evaluate(() => {
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        // frozen: nothing else runs
      }
    });
    await new Promise((r) => setTimeout(r, 2_000));
    await server.start();
    await frozen;
    await cdp.send('Page.setWebLifecycleState', { state: 'active' });
    await page.evaluate(() => document.dispatchEvent(new Event('resume')));
    const resumedAt = Date.now();
    const delivered = await waitDelivered(page, texts, 30_000);
    report('frozen page during an outage (from resume)', delivered - resumedAt);
    await expectOnceInOrder(page, server.dataDir, 'F', texts);
    await context.close();
  }, TIMEOUT);

  it('a tab closed with a pending text: the text goes out when the visitor comes back', async () => {
    const server = await serverFixture();
    const up = await server.start();
    const context = await phoneContext(browser);
    const page = await openChat(context, up.url);
    const texts = ['T1 before', 'T2 typed while down, tab then closed'];

    await send(page, texts[0]!);
    await waitDelivered(page, [texts[0]!]);
    await up.kill();
    // Closed the moment Enter was pressed: the IndexedDB write of the text is still under way (a
    // closing tab aborts it), so only the outbox's synchronous journal keeps the text.
    const input = page.getByLabel(zh.inputPlaceholder);
    await input.fill(texts[1]!);
    await input.press('Enter');
    await page.close();
    const back = await server.start();
    const again = await openChat(context, back.url, false);
    const delivered = await waitDelivered(again, texts, 30_000);
    report('tab closed with a pending text, reopened', delivered - back.readyAt);
    await expectOnceInOrder(again, server.dataDir, 'T', texts);
    await context.close();
  }, TIMEOUT);
});

describe('issue 10: the service state survives a reload and a second tab', () => {
  it('a reload or a new tab during an agent chat still shows the agent, not the robot', async () => {
    const server = await serverFixture();
    const up = await server.start();
    const agentContext = await browser.newContext({ viewport: { width: 1200, height: 800 }, locale: 'zh-CN' });
    const agent = await agentContext.newPage();
    await agent.goto(`${up.url}/agent`);
    await agent.getByLabel(zh.account).fill('demo');
    await agent.getByLabel(zh.password).fill('demo');
    await agent.getByRole('button', { name: zh.login }).click();
    await agent.getByText(`${zh.online} 1`).waitFor();

    const context = await phoneContext(browser);
    const page = await openChat(context, up.url);
    await page.getByRole('button', { name: zh.transferToHuman }).click();
    await page.getByRole('dialog', { name: zh.transferToHuman }).getByRole('button', { name: zh.confirm }).click();
    await page.getByText(zh.waitingForAgent).first().waitFor();
    await agent.getByRole('button', { name: new RegExp(`^${zh.accept}`) }).first().click();
    const banner = (p: Page) => p.getByRole('status').filter({ hasText: 'Demo Agent' });
    await banner(page).waitFor();

    await page.reload();
    // the agent, not the robot: no suggested questions (waiting for them would only time out)
    await banner(page).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('navigation', { name: zh.suggestedQuestions }).count()).toBe(0);

    const second = await context.newPage();
    await second.goto(`${up.url}${entryPath('zh')}`);
    await banner(second).waitFor({ timeout: 15_000 });
    expect(await second.getByRole('navigation', { name: zh.suggestedQuestions }).count()).toBe(0);

    // and the chat goes on from either tab: the agent gets the text once
    await send(second, 'S1 from the second tab');
    await waitDelivered(second, ['S1 from the second tab']);
    await agent.locator('.msg.theirs').filter({ hasText: 'S1 from the second tab' }).waitFor();
    await expect.poll(() => agent.locator('.msg.theirs').filter({ hasText: 'S1 from the second tab' }).count()).toBe(1);
    await expect.poll(() => storedTexts(server.dataDir, 'S1').length).toBe(1);
    await context.close();
    await agentContext.close();
  }, TIMEOUT);
});
