/**
 * Verified identity (protocol §3b) in a real browser against the reference server: the chat sits
 * in a merchant's page (another origin, listed in FRAME_ANCESTORS); a logged-out visitor chats,
 * the merchant page logs the member in over postMessage and the conversation is kept; a second
 * browser context opened with the member's entry link (`?identity=`, gone from the address bar at
 * once, stored nowhere) sees the same conversation; the merchant page logs out and the frame shows
 * a fresh chat with a new visitor id. A message from another origin logs nobody in. Screenshots go
 * to the temp folder; axe checks the member's page.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT_SECRET } from '../../examples/server/src/identity/merchant-secrets.js';
import { signIdentityToken } from '../../examples/server/src/identity/identity-token.js';
import { zh } from '../../src/i18n/locales/zh.js';
import { axeSource, collectErrors, DEMO, entryPath, phoneContext, seriousViolations, type TestServer, useE2eEnvironment } from './harness.js';

/**
 * The merchant's pages: another origin on loopback (a public page may not frame a loopback one:
 * Local Network Access), of the same site (a browser context blocks third-party storage, as
 * Incognito does, and the app then cannot read its own storage in a cross-site frame).
 */
const SHOP_ORIGINS = 'http://127.0.0.1:*';
let server: TestServer;
let browser: Browser;

useE2eEnvironment((env) => ({ server, browser } = env), { frameAncestors: [SHOP_ORIGINS] });

/** Serves the merchant's page on loopback; resolves with its origin (`http://127.0.0.1:<port>`) and a closer. */
async function startShop(chatUrl: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const shop = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(shopPage(chatUrl));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const { port } = shop.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => shop.close(() => resolve())) };
}

/** The merchant's page: the chat in a frame. */
function shopPage(chatUrl: string): string {
  return `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>
<iframe title="chat" src="${chatUrl}" style="width:390px;height:700px;border:0"></iframe></body></html>`;
}

async function chatFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('iframe').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('no chat frame');
  return frame;
}

async function say(frame: Page | Frame, text: string): Promise<void> {
  await frame.getByLabel(zh.inputPlaceholder).fill(text);
  await frame.getByRole('button', { name: zh.send }).click();
  await frame.locator('.msg.mine').filter({ hasText: text }).first().waitFor();
}

/** A merchant's page of a browser context, with its chat frame ready and the page's errors collected. */
interface ShopPage {
  page: Page;
  chat: Frame;
  errors: string[];
}

/** Opens the merchant's account page (the chat in its frame) in `context`. */
async function openShopPage(context: BrowserContext, shopOrigin: string): Promise<ShopPage> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 480, height: 800 });
  await page.goto(`${shopOrigin}/account`);
  const chat = await chatFrame(page);
  const errors = collectErrors(page);
  await chat.getByLabel(zh.inputPlaceholder).waitFor();
  return { page, chat, errors };
}

/** The merchant page posts to the chat frame (the target origin is the chat's). */
function post(page: Page, message: unknown): Promise<void> {
  return page.evaluate(
    ([msg, origin]) => (document.querySelector('iframe') as HTMLIFrameElement).contentWindow!.postMessage(msg, origin as string),
    [message, server.url] as const,
  );
}

describe('issue 22: a visitor logs in and out on the merchant page without losing the conversation', () => {
  it('keeps the conversation across the log-in, shows it on a second context, and starts fresh after the log-out', async () => {
    const sub = `ann-${Date.now()}`;
    const token = await signIdentityToken({ mchId: DEMO.mchId, sub, ttlS: 600, name: 'Ann' }, DEMO_MERCHANT_SECRET);
    const shopContext = await phoneContext(browser);
    const shopServer = await startShop(`${server.url}${entryPath('zh')}`);
    const shop = await shopContext.newPage();
    await shop.setViewportSize({ width: 480, height: 800 });
    await shop.goto(`${shopServer.origin}/account`);
    const chat = await chatFrame(shop);
    const errors = collectErrors(shop);
    await chat.getByLabel(zh.inputPlaceholder).waitFor();

    // logged out: an anonymous visitor
    await say(chat, 'question before logging in');
    const anonymousId = await chat.evaluate(() => localStorage.getItem('uuid'));
    expect(anonymousId).not.toMatch(/^vm-/);

    // another origin cannot log anybody in
    await chat.evaluate((t) => window.postMessage({ type: 'kefu:identity', token: t }, '*'), token);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await chat.evaluate(() => localStorage.getItem('uuid'))).toBe(anonymousId);

    // the merchant page logs the member in: same frame, same conversation, now the member's id
    await post(shop, { type: 'kefu:identity', token });
    await expect.poll(() => chat.evaluate(() => localStorage.getItem('uuid')), { timeout: 15_000 }).toMatch(/^vm-/);
    const memberId = await chat.evaluate(() => localStorage.getItem('uuid'));
    await chat.locator('.msg.mine').filter({ hasText: 'question before logging in' }).first().waitFor();
    await say(chat, 'said after logging in');
    await shop.screenshot({ path: join(tmpdir(), 'issue22-shop-logged-in.png') });

    // a second browser context: the member's entry link
    const phoneContext2 = await phoneContext(browser);
    const phone = await phoneContext2.newPage();
    const phoneErrors = collectErrors(phone);
    await phone.goto(`${server.url}${entryPath('zh')}?identity=${token}`);
    await phone.locator('.msg.mine').filter({ hasText: 'question before logging in' }).first().waitFor({ timeout: 15_000 });
    await phone.locator('.msg.mine').filter({ hasText: 'said after logging in' }).first().waitFor();
    expect(phone.url()).not.toContain('identity=');
    expect(await phone.evaluate(() => localStorage.getItem('uuid'))).toBe(memberId);
    const stored = await phone.evaluate(() => Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`).join('\n'));
    expect(stored).not.toContain(token.split('.')[2]!);
    await say(phone, 'and from the phone');
    await chat.locator('.msg.mine').filter({ hasText: 'and from the phone' }).first().waitFor({ timeout: 15_000 });
    await phone.screenshot({ path: join(tmpdir(), 'issue22-member-second-context.png') });
    expect(await seriousViolations(phone, axeSource())).toEqual([]);

    // the member's newest messages are kept on this device for the next visit (issue 24) ...
    const firstScreen = (): Promise<string | null> => chat.evaluate(() => localStorage.getItem('kefu:first-screen'));
    await expect.poll(async () => (await firstScreen()) ?? '', { timeout: 10_000 }).toContain('said after logging in');
    expect(await firstScreen()).toContain(memberId!);

    // the merchant page logs out: a fresh chat, a new visitor, nothing of the member left
    await post(shop, { type: 'kefu:logout' });
    await expect.poll(() => chat.evaluate(() => localStorage.getItem('uuid')), { timeout: 15_000 }).not.toBe(memberId);
    const freshId = await chat.evaluate(() => localStorage.getItem('uuid'));
    expect(freshId).not.toMatch(/^vm-/);
    expect(freshId).not.toBe(anonymousId);
    await expect.poll(() => chat.locator('.msg.mine').count(), { timeout: 15_000 }).toBe(0);
    // ... and forgotten at the log-out (client.reset()): at most the new visitor's own is kept
    const kept = await firstScreen();
    expect(kept ?? '').not.toContain('said after logging in');
    expect(kept ?? '').not.toContain('question before logging in');
    if (kept !== null) expect((JSON.parse(kept) as { clientId: string }).clientId).toBe(freshId);
    // the new visitor connects and claims its own id (protocol §3a)
    await expect.poll(() => chat.evaluate(() => localStorage.getItem('clientSecret')), { timeout: 15_000 }).not.toBeNull();
    await shop.screenshot({ path: join(tmpdir(), 'issue22-shop-logged-out.png') });

    expect(errors).toEqual([]);
    expect(phoneErrors).toEqual([]);
    await shopContext.close();
    await phoneContext2.close();
    await shopServer.close();
  });

  it('two pages of one browser: logged in on one, the other is the member; logged out on one, the other shows a fresh chat', async () => {
    const token = await signIdentityToken({ mchId: DEMO.mchId, sub: `bo-${Date.now()}`, ttlS: 600, name: 'Bo' }, DEMO_MERCHANT_SECRET);
    const context = await phoneContext(browser);
    const shopServer = await startShop(`${server.url}${entryPath('zh')}`);
    const open = (): Promise<ShopPage> => openShopPage(context, shopServer.origin);
    const first = await open();
    await say(first.chat, 'asked in the first page');
    const second = await open();
    await second.chat.locator('.msg.mine').filter({ hasText: 'asked in the first page' }).first().waitFor({ timeout: 15_000 });

    // the merchant's first page logs the member in: the second page follows to the member
    await post(first.page, { type: 'kefu:identity', token });
    await expect.poll(() => first.chat.evaluate(() => localStorage.getItem('uuid')), { timeout: 15_000 }).toMatch(/^vm-/);
    await say(first.chat, 'the member writes');
    await second.chat.locator('.msg.mine').filter({ hasText: 'the member writes' }).first().waitFor({ timeout: 15_000 });

    // the merchant's first page logs out: the second page forgets the member's conversation too
    await post(first.page, { type: 'kefu:logout' });
    await expect.poll(() => second.chat.locator('.msg.mine').count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => first.chat.locator('.msg.mine').count(), { timeout: 15_000 }).toBe(0);
    // both pages are the same new anonymous visitor: what one says, the other shows
    await say(second.chat, 'a guest again');
    await first.chat.locator('.msg.mine').filter({ hasText: 'a guest again' }).first().waitFor({ timeout: 15_000 });
    expect(await second.chat.locator('.msg').filter({ hasText: 'the member writes' }).count()).toBe(0);
    await second.page.screenshot({ path: join(tmpdir(), 'issue22-second-page-logged-out.png') });

    expect([...first.errors, ...second.errors]).toEqual([]);
    await context.close();
    await shopServer.close();
  });

  it('two pages of one browser: logged in on one, which then closes; the other leads and is still the member', async () => {
    const token = await signIdentityToken({ mchId: DEMO.mchId, sub: `cy-${Date.now()}`, ttlS: 600, name: 'Cy' }, DEMO_MERCHANT_SECRET);
    const context = await phoneContext(browser);
    const shopServer = await startShop(`${server.url}${entryPath('zh')}`);
    const open = (): Promise<ShopPage> => openShopPage(context, shopServer.origin);
    const first = await open();
    const second = await open();
    // only the first page is told of the log-in (the merchant's page that logged in); the second follows
    await post(first.page, { type: 'kefu:identity', token });
    await expect.poll(() => first.chat.evaluate(() => localStorage.getItem('uuid')), { timeout: 15_000 }).toMatch(/^vm-/);
    const memberId = await first.chat.evaluate(() => localStorage.getItem('uuid'));
    await say(first.chat, 'the member asks in the first page');
    await second.chat.locator('.msg.mine').filter({ hasText: 'the member asks in the first page' }).first().waitFor({ timeout: 15_000 });

    await first.page.close(); // the second page's socket is its own now, connected with the token the first shared
    await say(second.chat, 'still the member in the second page');
    // a page opened now (no token of its own either) sees the member's whole conversation, the
    // text the second page sent after the take-over included (it reached the server as the member's)
    const third = await open();
    await third.chat.locator('.msg.mine').filter({ hasText: 'still the member in the second page' }).first().waitFor({ timeout: 15_000 });
    expect(await third.chat.locator('.msg.mine').filter({ hasText: 'the member asks in the first page' }).count()).toBe(1);
    for (const { chat } of [second, third]) expect(await chat.evaluate(() => localStorage.getItem('uuid'))).toBe(memberId);
    expect(await second.chat.locator('.msg.mine').filter({ hasText: 'the member asks in the first page' }).count()).toBe(1);

    expect([...first.errors, ...second.errors, ...third.errors]).toEqual([]);
    await context.close();
    await shopServer.close();
  });
});
