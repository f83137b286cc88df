/**
 * The message-list browser benchmark in the test suite (issue 13): 10 000 messages, 20 prepends of
 * older pages, each held at the network until the reader's view is measured. Budgets on what must
 * not regress whatever the machine's speed: the rows in the DOM (virtualised) and the jump of the
 * top visible row at each prepend (the list holds still: at most 1 px, the browser's rounding of
 * the scroll position). The times are printed, not checked. Also for a returning visitor, whose
 * page shows the newest messages kept on the device before the first history page (issue 24).
 * And the first screen as `bench:list` times it, over a bare DevTools pipe: the newest row is
 * seen, and the app arrives compressed.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { launchChromium } from '../../bench/chat-browser/cdp.js';
import { formatFigures, measureList, seedConversation } from '../../bench/list/measure.js';
import { measureFirstScreen } from '../../bench/list/pipe.js';
import { CHROMIUM, E2E_TIMEOUT, entryPath, phoneContext, removeDir, tempDir, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;
let appDir: string;
useE2eEnvironment((env) => ({ server, browser, appDir } = env));

const MESSAGES = 10_000;
const PREPENDS = 20;
/** Rows a phone screen (800 px) needs plus overscan: far below the 10 000 of the conversation. */
const MAX_ROWS = 60;

describe('message list with 10 000 messages (bench/list)', () => {
  it('shows the newest with few rows in the DOM and holds still at each prepend', async () => {
    const visitor = await seedConversation(server.store, MESSAGES);
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const figures = { messages: MESSAGES, ...(await measureList(page, `${server.url}${entryPath('zh')}`, visitor, PREPENDS)) };
    console.log(`[list-bench]\n${formatFigures(figures)}`);
    expect(figures.rowsAtStart).toBeGreaterThan(0);
    expect(figures.rowsMax).toBeLessThanOrEqual(MAX_ROWS);
    expect(figures.prependJumpsPx).toHaveLength(PREPENDS);
    for (const jump of figures.prependJumpsPx) expect(jump).toBeLessThanOrEqual(1);
    await context.close();
  }, E2E_TIMEOUT);

  it('a returning visitor (the newest from the device first, issue 24): the same rows and the same stillness', async () => {
    const visitor = await seedConversation(server.store, MESSAGES);
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const figures = { messages: MESSAGES, ...(await measureList(page, `${server.url}${entryPath('zh')}`, visitor, PREPENDS, { cpuSlowdown: 1, returning: true })) };
    console.log(`[list-bench, returning visitor]\n${formatFigures(figures)}`);
    expect(figures.rowsAtStart).toBeGreaterThan(0);
    expect(figures.rowsMax).toBeLessThanOrEqual(MAX_ROWS);
    expect(figures.prependJumpsPx).toHaveLength(PREPENDS);
    for (const jump of figures.prependJumpsPx) expect(jump).toBeLessThanOrEqual(1);
    await context.close();
  }, E2E_TIMEOUT);

  it("bench:list's own driver (a bare DevTools pipe) sees the newest row, and the page's scripts and styles arrive compressed", async () => {
    const visitor = await seedConversation(server.store, MESSAGES);
    const profileDir = tempDir('kefu-pipe-');
    const chrome = await launchChromium(CHROMIUM.path ?? 'chromium', profileDir, false);
    try {
      const figures = await measureFirstScreen(chrome, `${server.url}${entryPath('zh')}`, visitor, { cpuSlowdown: 1 });
      console.log(`[list-bench, pipe] newest shown after ${figures.newestShownMs.toFixed(0)} ms, ${figures.transferBytes} B over the wire`);
      expect(figures.newestShownMs).toBeGreaterThan(0);
      expect(figures.startup.historyMs).toBeGreaterThan(0);
      expect(figures.startup.historyMs).toBeLessThanOrEqual(figures.newestShownMs);
      // what the page names in its head, as built: the wire carries much less (the .br copies)
      const html = readFileSync(join(appDir, 'index.html'), 'utf8');
      const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
      const built = files.reduce((sum, file) => sum + statSync(join(appDir, file)).size, 0);
      expect(files.length).toBeGreaterThan(3);
      expect(figures.transferBytes).toBeGreaterThan(0);
      expect(figures.transferBytes).toBeLessThan(built * 0.5);
    } finally {
      await chrome.close();
      removeDir(profileDir);
    }
  }, E2E_TIMEOUT);
});
