/**
 * Routes (spec §2) in a real browser: titles, the redirects, 404/401, the redirect helper, the
 * launch notification to an embedding page (or the window itself), the global jump functions and
 * the language of the entry link.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zh } from '../../src/i18n/locales/zh.js';
import { en } from '../../src/i18n/locales/en.js';
import { ja } from '../../src/i18n/locales/ja.js';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  collectErrors,
  E2E_TIMEOUT,
  entryPath,
  phoneContext,
  type TestServer,
  useE2eEnvironment,
} from './harness.js';

let server: TestServer;
let browser: Browser;

// the host pages below are served from 127.0.0.1 on ports of their own: listed as frame ancestors
// (FRAME_ANCESTORS) so that the visitor pages may be embedded there; localhost is not listed
useE2eEnvironment((env) => ({ server, browser } = env), { frameAncestors: ["'self'", 'http://127.0.0.1:*'] });

/** Serves `html` from a loopback server of its own (another origin), for `host`. */
async function hostPage(html: string, host = '127.0.0.1'): Promise<{ url: string; close: () => Promise<unknown> }> {
  const server: Server = createHttpServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const launchRecorder = `<script>window.launches=[];addEventListener('message',e=>{if(e.data&&e.data.type==='launch')window.launches.push(e.origin)})</script>`;

describe('spec §2: routes and titles', () => {
  it('"/ redirects to /kefu"; a visitor without an entry link sees "link is broken"', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/kefu`);
    await expect.poll(() => page.title()).toBe(zh.routeConversation);
    await page.getByText(zh.linkBroken).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);

  it('"/kefu/{id}" has the title of the conversation page; "/group/{id}/{name}" of the customer-service session', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}${entryPath('zh')}`);
    await page.getByRole('log').waitFor();
    expect(await page.title()).toBe(zh.routeConversation);
    // The page icon is the merchant's kefuAvatar2 (the demo merchant's is an SVG data URL).
    const merchant = await server.store.directory.merchant('M1001');
    await expect.poll(() => page.getAttribute('link[rel="icon"]', 'href')).toBe(merchant?.kefuAvatar2);
    await page.evaluate(() => (window as unknown as { kefuJumpGroup: (id: string, name: string) => void }).kefuJumpGroup('G100', 'Demo'));
    await page.waitForURL(`${server.url}/group/G100/Demo`);
    await expect.poll(() => page.title()).toBe(zh.routeGroup);
    await page.getByRole('heading', { name: 'Demo' }).waitFor();
    await context.close();
  }, E2E_TIMEOUT);

  it('"/404" and "/401" show their pages and titles; "any other path redirects to /404"', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/404`);
    await page.getByText(zh.notFound).waitFor();
    expect(await page.title()).toBe('404');
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe('/favicon.svg');
    await page.goto(`${server.url}/401`);
    await page.getByText(zh.unauthorised).waitFor();
    expect(await page.title()).toBe('401');
    // An unknown path inside the app (client-side navigation).
    await page.evaluate(() => {
      history.pushState(null, '', '/no/such/page');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL(`${server.url}/404`);
    await page.getByText(zh.notFound).waitFor();
    await context.close();
  }, E2E_TIMEOUT);

  it('"/redirect/{path}" goes to the path, which may contain slashes, keeping the query', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const target = `${entryPath('zh')}?cpay=${'ORD202400001'}`;
    await page.goto(`${server.url}/redirect${target}`);
    await page.waitForURL(`${server.url}${target}`);
    await page.getByRole('log').waitFor();
    expect(await page.title()).toBe(zh.routeConversation);
    await context.close();
  }, E2E_TIMEOUT);

  it('the entry link\'s language sets the interface language and the title (en, ja)', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}${entryPath('en')}`);
    await page.getByRole('button', { name: en.send }).waitFor();
    await expect.poll(() => page.title()).toBe(en.routeConversation);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.goto(`${server.url}${entryPath('ja')}`);
    await page.getByRole('button', { name: ja.send }).waitFor();
    await expect.poll(() => page.title()).toBe(ja.routeConversation);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('spec §4, §5, §8: opening the companion app', () => {
  it('inside a messaging app\'s browser it asks to open the page in a browser; blank input is refused in Chinese', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 800 },
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 MicroMessenger/8.0.40',
    });
    const page = await context.newPage();
    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${server.url}/group/G100`);
    await page.getByRole('button', { name: '更多', exact: true }).click();
    await page.getByRole('menuitem', { name: '在App中打开' }).click();
    await expect.poll(() => alerts).toEqual([zh.openInBrowser]);
    await page.evaluate(() => (window as unknown as { kefuOpenApp: { link: (url: string) => void } }).kefuOpenApp.link(' '));
    await expect.poll(() => alerts).toEqual([zh.openInBrowser, '请输入链接']);
    expect(page.url()).toBe(`${server.url}/group/G100`);
    await context.close();
  }, E2E_TIMEOUT);
});

describe('spec §2, §7: the launch notification', () => {
  it('"once mounted it posts a launch notification to its parent window"', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    // The host page is served from another origin of its own (a real loopback server, so that
    // Chromium's local-network checks allow the frame).
    const html = `<!doctype html><title>host</title><script>window.launches=[];addEventListener('message',e=>{if(e.data&&e.data.type==='launch')window.launches.push(e.origin)})</script><iframe title="chat" src="${server.url}${entryPath('zh')}" width="390" height="700"></iframe>`;
    const host: Server = createHttpServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(html);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { launches: string[] }).launches), { timeout: 20_000 }).toEqual([server.url]);
    await context.close();
    await new Promise((resolve) => host.close(resolve));
  }, E2E_TIMEOUT);

  it('frame-ancestors: the agent desk is never framed, a visitor page only by the listed origins', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const launches = () => page.evaluate(() => (window as unknown as { launches: string[] }).launches);
    // a listed origin embeds the agent desk: refused (no launch from inside)
    const agentHost = await hostPage(`<!doctype html><title>host</title>${launchRecorder}<iframe title="desk" src="${server.url}/agent"></iframe>`);
    await page.goto(agentHost.url);
    // an unlisted origin (localhost) embeds a visitor page: refused
    const unlisted = await hostPage(`<!doctype html><title>host</title>${launchRecorder}<iframe title="chat" src="${server.url}${entryPath('zh')}"></iframe>`, 'localhost');
    const other = await context.newPage();
    await other.goto(unlisted.url);
    // the listed origin embedding a visitor page is served (the control: its launch arrives)
    const allowed = await hostPage(`<!doctype html><title>host</title>${launchRecorder}<iframe title="chat" src="${server.url}${entryPath('zh')}"></iframe>`);
    const third = await context.newPage();
    await third.goto(allowed.url);
    await expect.poll(() => third.evaluate(() => (window as unknown as { launches: string[] }).launches), { timeout: 20_000 }).toEqual([server.url]);
    expect(await launches()).toEqual([]);
    expect(await other.evaluate(() => (window as unknown as { launches: string[] }).launches)).toEqual([]);
    // the refused frames hold no page of the app (Chromium shows its error page instead)
    const rendered = async (p: typeof page): Promise<boolean> => {
      const frame = p.frames()[1];
      if (!frame) return false;
      return frame.evaluate(() => (document.getElementById('root')?.childElementCount ?? 0) > 0).catch(() => false);
    };
    expect(await rendered(third)).toBe(true);
    expect(await rendered(page)).toBe(false);
    expect(await rendered(other)).toBe(false);
    await context.close();
    await Promise.all([agentHost.close(), unlisted.close(), allowed.close()]);
  }, E2E_TIMEOUT);

  it('"or to itself when it has no parent"', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { launches: unknown[] };
      w.launches = [];
      addEventListener('message', (e) => w.launches.push(e.data));
    });
    await page.goto(`${server.url}/404`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { launches: unknown[] }).launches)).toEqual([{ type: 'launch' }]);
    await context.close();
  }, E2E_TIMEOUT);
});
