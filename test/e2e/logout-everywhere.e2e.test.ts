/**
 * "Log out everywhere" in Chromium: one agent has the desk open in two tabs of one browser and in
 * a second browser. The control is reached and pressed with the keyboard (and the desk is axe
 * clean with it); every desk ends up on the login form, the other two saying why, nothing is kept
 * in either browser's storage, and a browser given the old token (an attacker's copy of the
 * storage) is refused: it lands on the login form, never on the desk.
 */
import { zh } from '../../src/i18n/locales/zh.js';
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appText } from '../../examples/kefu/src/env/app-texts.js';
import { deskText } from '../../examples/kefu/src/agent/desk-texts.js';
import { axeSource, collectErrors, DEMO, desktopContext, E2E_TIMEOUT, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env), { agentSessions: { tokenTtlMs: 3_600_000, graceMs: 60_000 } });

const SESSION_KEY = 'kefu.agentSession';
const keptLogin = (page: Page): Promise<string | null> => page.evaluate((key) => window.localStorage.getItem(key), SESSION_KEY);

async function logIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/agent`);
  await page.getByLabel(zh.account).fill(DEMO.agent);
  await page.getByLabel(zh.password).fill(DEMO.password);
  await page.getByRole('button', { name: zh.login }).click();
  await page.getByText(new RegExp(`^${zh.online} \\d`)).waitFor();
  // the welcome (after the socket opened) carries the session token the desk keeps
  await page.waitForFunction((key) => window.localStorage.getItem(key) !== null, SESSION_KEY);
}

describe('log out everywhere: every desk of the account ends, in every tab and browser', () => {
  it('two tabs and a second browser all land on the login form; the old token is refused', async () => {
    const first = await desktopContext(browser);
    const second = await desktopContext(browser);
    const tab1 = await first.newPage();
    const errors = collectErrors(tab1);
    await logIn(tab1);
    const tab2 = await first.newPage(); // the same browser: it opens with the kept token
    await tab2.goto(`${server.url}/agent`);
    await tab2.getByText(new RegExp(`^${zh.online} \\d`)).waitFor();
    const other = await second.newPage();
    await logIn(other);
    const stolen = await keptLogin(other);
    expect(stolen).toContain('"token"');

    const control = tab1.getByRole('button', { name: deskText('zh', 'logoutEverywhere') });
    expect(await seriousViolations(tab1, axeSource())).toEqual([]);
    // by keyboard: focus it and press Enter
    await control.focus();
    expect(await control.evaluate((el) => el === document.activeElement)).toBe(true);
    await tab1.keyboard.press('Enter');

    for (const page of [tab1, tab2, other]) await page.getByLabel(zh.password).waitFor({ timeout: 15_000 });
    for (const page of [tab2, other]) await page.getByRole('alert').filter({ hasText: deskText('zh', 'loggedOutElsewhere') }).waitFor();
    expect(await keptLogin(tab1)).toBeNull();
    expect(await keptLogin(other)).toBeNull();
    expect(await seriousViolations(other, axeSource())).toEqual([]);

    // attacker: a fresh browser with the second browser's old storage
    const attacker = await desktopContext(browser);
    await attacker.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [SESSION_KEY, stolen!] as const);
    const page = await attacker.newPage();
    await page.goto(`${server.url}/agent`);
    await page.getByRole('alert').filter({ hasText: appText('zh', 'sessionExpired') }).waitFor({ timeout: 15_000 });
    await page.getByLabel(zh.password).waitFor();
    expect(await page.getByRole('button', { name: zh.logout, exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    for (const context of [first, second, attacker]) await context.close();
  }, E2E_TIMEOUT);
});
