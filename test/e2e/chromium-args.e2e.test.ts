/**
 * The browser tests' Chromium flags (`chromium-args.ts`): Playwright's own disabled features are
 * all kept (Chromium keeps only the last `--disable-features`), and no browser context preloads
 * the address-bar popup, a renderer of its own that takes CPU from the page under test.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE_ARGS, disabledFeaturesOf, NO_BROWSER_UI_FEATURES, PLAYWRIGHT_DISABLED_FEATURES } from './chromium-args.js';
import { CHROMIUM, E2E_TIMEOUT, launchBrowser, requireChromium } from './harness.js';

const skipped = requireChromium();

/** The command line a browser runs with, as `chrome://version` shows it. */
async function commandLineOf(browser: Browser): Promise<string> {
  const page = await browser.newPage();
  await page.goto('chrome://version');
  const text = (await page.locator('#command_line').textContent()) ?? '';
  await page.close();
  return text;
}

/** The browser's own UI targets (WebUI pages it preloads), after a context with a page was opened. */
async function browserUiTargets(browser: Browser): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('about:blank');
  const session = await browser.newBrowserCDPSession();
  // the popup is made as the context's window is; give it the time a test's first steps take
  await new Promise((resolve) => setTimeout(resolve, 500));
  const { targetInfos } = await session.send('Target.getTargets');
  await session.detach();
  await context.close();
  return targetInfos.filter((target) => target.type !== 'page' && target.url.startsWith('chrome://')).map((target) => target.url);
}

describe('disabledFeaturesOf', () => {
  it('reads the last --disable-features switch, as Chromium does', () => {
    expect(disabledFeaturesOf('chromium --disable-features=A,B --no-sandbox --disable-features=C about:blank')).toEqual(['C']);
    expect(disabledFeaturesOf('chromium --disable-features=A,B,')).toEqual(['A', 'B']);
    expect(disabledFeaturesOf('chromium --no-sandbox')).toEqual([]);
  });
});

describe('the browser tests launch Chromium with Playwright features kept and no address-bar popup', () => {
  const browsers: Browser[] = [];
  afterAll(async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
  });

  it(
    "keeps every feature Playwright itself disables, and disables the popup's",
    async () => {
      if (skipped || CHROMIUM.path === null) return;
      const plain = await chromium.launch({ executablePath: CHROMIUM.path, headless: true, args: [...BASE_ARGS] });
      browsers.push(plain);
      const playwrights = disabledFeaturesOf(await commandLineOf(plain));
      // Playwright disables some features itself; all of them must be in the list we repeat
      expect(playwrights.length).toBeGreaterThan(0);
      expect([...PLAYWRIGHT_DISABLED_FEATURES]).toEqual(expect.arrayContaining(playwrights));

      const ours = await launchBrowser();
      browsers.push(ours);
      const effective = disabledFeaturesOf(await commandLineOf(ours));
      expect(effective).toEqual(expect.arrayContaining([...playwrights, ...NO_BROWSER_UI_FEATURES]));
      expect((await browserUiTargets(ours)).filter((url) => url.includes('omnibox'))).toEqual([]);
    },
    E2E_TIMEOUT,
  );
});
