/**
 * End-to-end harness: takes the run's build of the reference app, starts the reference server in-process (port 0,
 * a temporary data directory), and drives Debian's Chromium with playwright-core (no browser is
 * ever downloaded).
 * @module
 */
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, removeDir, tempDir } from './app-build.js';
import { PLAYWRIGHT_ARGS } from './chromium-args.js';
import { CHROMIUM, requireChromium } from './chromium.js';
import { loadConfig, type ServerConfig } from '../../examples/server/src/config.js';
import { createServer, type RunningServer } from '../../examples/server/src/server.js';
import { closeCheckingErrors, LOOPBACK_LIMITS } from '../../examples/server/test/helpers/start.js';

declare module 'vitest' {
  /** What the e2e project's global setup provides. */
  export interface ProvidedContext {
    /** The production build of the reference app, shared by every e2e file of the run (read only). */
    kefuAppDir: string;
  }
}

export { buildApp, KEFU_DIR, removeDir, tempDir } from './app-build.js';
export { CHROMIUM, requireChromium } from './chromium.js';

/** A generous timeout for one end-to-end test, ms. */
export const E2E_TIMEOUT = 120_000;

/** The demo merchant and platform of the server's seed data. */
export const DEMO = { mchId: 'M1001', platformId: 'P01', groupId: 'G100', channelId: 'C100', agent: 'demo', password: 'demo', orderNo: 'ORD202400001' } as const;

/**
 * The app build shared by the run (built once by the e2e project's global setup,
 * `test/e2e/global-setup.ts`); a file run without that setup builds its own. Read only: a test
 * that changes the build must use {@link buildApp}. Release it with {@link releaseApp}.
 */
export async function sharedApp(): Promise<string> {
  const shared = inject('kefuAppDir') as string | undefined;
  return shared ?? buildApp();
}

/** Removes an app build unless it is the run's shared one (see {@link sharedApp}). */
export function releaseApp(appDir: string): void {
  if (appDir !== (inject('kefuAppDir') as string | undefined)) removeDir(appDir);
}

/** A running test server and where its data lives. */
export interface TestServer extends RunningServer {
  /** The data directory (kept across a restart). */
  dataDir: string;
  /** What the server reported as unexpected; `close` rejects while it holds anything. */
  errors: unknown[];
}

/**
 * Starts the reference server with the demo seed and the app. Its `close` closes it, then rejects
 * if the server reported an unexpected error meanwhile: no browser test ends with one unseen.
 * @param appDir - the built app
 * @param overrides - configuration overrides (e.g. `port` and `dataDir` for a restart)
 */
export async function startServer(appDir: string, overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? tempDir('kefu-e2e-data-');
  const config = loadConfig(LOOPBACK_LIMITS, { port: 0, host: '127.0.0.1', log: false, seed: true, appDir, ...overrides, dataDir });
  const errors: unknown[] = [];
  const server = await createServer(config, { onError: (error) => errors.push(error) });
  return { ...server, close: closeCheckingErrors(server, errors, config.nodeId), dataDir, errors };
}

/** Launches headless Chromium (the one {@link CHROMIUM} found; rejects with the reason when there is none). */
export function launchBrowser(): Promise<Browser> {
  if (CHROMIUM.path === null) return Promise.reject(new Error(CHROMIUM.missing));
  return chromium.launch({
    executablePath: CHROMIUM.path,
    headless: true,
    args: [...PLAYWRIGHT_ARGS],
  });
}

/** A phone-sized browser context (the visitor). */
export function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2, locale: 'zh-CN' });
}

/** A desktop-sized browser context (the agent). */
export function desktopContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1200, height: 800 }, locale: 'zh-CN' });
}

/**
 * The path of a visitor entry link (`/kefu/<base64url(raw)>`, protocol §6).
 * @param language - the entry's language (segment 6)
 * @param groupId - the entry's group (segment 9)
 */
export function entryPath(language = 'zh', groupId = 'null'): string {
  const raw = `data3:kefu:${DEMO.mchId}:${DEMO.platformId}:${DEMO.agent}:${language}:0:0:${groupId}`;
  return `/kefu/${Buffer.from(raw, 'utf8').toString('base64url')}`;
}

/** Collects the page's uncaught errors and Content-Security-Policy violations (a test asserts there are none). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  return errors;
}

/**
 * The width of a text box's placeholder on one line, and the room the box has for it (px): a hint
 * wider than its room wraps or is cut off.
 * @param page - the page
 * @param label - the text box's accessible name
 */
export function placeholderFit(page: Page, label: string): Promise<{ text: string; width: number; room: number }> {
  return page.getByLabel(label).evaluate((el) => {
    const box = el as HTMLTextAreaElement;
    const style = getComputedStyle(box, '::placeholder');
    const own = getComputedStyle(box);
    const probe = document.createElement('span');
    probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${own.font};letter-spacing:${style.letterSpacing}`;
    probe.textContent = box.placeholder;
    document.body.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    return { text: box.placeholder, width, room: box.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight) };
  });
}

/** A small valid PNG (a 2x2 image) for uploads. */
export function pngFile(name: string): { name: string; mimeType: string; buffer: Buffer } {
  const base64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMAAAAwOAQPFs9wZAAAAAElFTkSuQmCC';
  return { name, mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') };
}

const require = createRequire(import.meta.url);

/** axe-core's source (`axe.source`), injected into pages. */
export function axeSource(): string {
  const axe = require('axe-core') as { source?: unknown };
  if (typeof axe.source !== 'string') throw new Error('axe-core has no source');
  return axe.source;
}

/** One axe violation, as the tests report it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (WCAG 2 A and AA rules) in the page and returns the serious and critical violations.
 * @param page - the page
 * @param source - axe-core's source
 */
export async function seriousViolations(page: Page, source: string): Promise<AxeViolation[]> {
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
}

/** What {@link useE2eEnvironment} hands to a test file. */
export interface E2eEnvironment {
  /** The built app. */
  appDir: string;
  /** The reference server serving it. */
  server: TestServer;
  /** Debian's Chromium. */
  browser: Browser;
}

/**
 * Takes the run's app build ({@link sharedApp}), starts the server and launches the browser before a file's tests, and closes
 * and removes them all after. `assign` receives them (the file keeps its own variables). Without a
 * Chromium the file's tests say why and skip (see {@link requireChromium}).
 */
export function useE2eEnvironment(assign: (env: E2eEnvironment) => void, overrides: Partial<ServerConfig> = {}): void {
  const skipped = requireChromium();
  let env: Partial<E2eEnvironment> = {};
  beforeAll(async () => {
    if (skipped) return;
    const appDir = await sharedApp();
    env = { appDir };
    env.server = await startServer(appDir, overrides);
    env.browser = await launchBrowser();
    assign(env as E2eEnvironment);
  }, E2E_TIMEOUT);
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
    if (env.server) removeDir(env.server.dataDir);
    if (env.appDir) releaseApp(env.appDir);
  });
}
