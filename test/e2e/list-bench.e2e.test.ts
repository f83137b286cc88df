/**
 * The message-list browser benchmark in the test suite (issue 13): 10 000 messages, 20 prepends of
 * older pages, each held at the network until the reader's view is measured. Budgets on what must
 * not regress whatever the machine's speed: the rows in the DOM (virtualised) and the jump of the
 * top visible row at each prepend (the list holds still: at most 1 px, the browser's rounding of
 * the scroll position). The times are printed, not checked. Also for a returning visitor, whose
 * page shows the newest messages kept on the device before the first history page (issue 24).
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatFigures, measureList, seedConversation } from '../../bench/list/measure.js';
import { E2E_TIMEOUT, entryPath, phoneContext, type TestServer, useE2eEnvironment } from './harness.js';

let server: TestServer;
let browser: Browser;
useE2eEnvironment((env) => ({ server, browser } = env));

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
});
