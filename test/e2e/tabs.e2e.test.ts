/**
 * One socket per visitor per browser (issue 10, "two tabs"), the app in Debian's Chromium against
 * the real server: two pages of one browser context share one WebSocket (Web Locks elect the
 * leader, BroadcastChannel carries the rest); a text typed in the follower tab is stored once and
 * shown once in both tabs; when the leader tab closes, the other takes over and can send within
 * about 2 s (the measured take-over is printed); a hung leader tab (it keeps its lock) is worked
 * around: the other tab uses its own socket after the leader timeout, and one socket again after.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { zh } from '../../src/i18n/locales/zh.js';
import { collectErrors, DEMO, E2E_TIMEOUT, entryPath, phoneContext, useE2eEnvironment, type E2eEnvironment } from './harness.js';

let env: E2eEnvironment;
useE2eEnvironment((e) => (env = e));

function mine(page: Page, text: string) {
  return page.locator('.msg.mine').filter({ hasText: text });
}

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel(zh.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

/** How many times the server stored a text of this visitor. */
async function storedCount(clientId: string, text: string): Promise<number> {
  return (await env.server.store.chat.conversation(clientId, DEMO.mchId, DEMO.platformId, { size: 101 })).filter((m) => m.dataContent === text).length;
}

describe('two tabs of one visitor', () => {
  it('share one socket; a text from the follower tab is stored and shown once; the other tab takes over when the leader closes', async () => {
    const { server } = env;
    const context = await phoneContext(env.browser);
    const sockets: { page: string; url: string }[] = [];
    const watch = (page: Page, name: string): Page => {
      page.on('websocket', (ws) => sockets.push({ page: name, url: ws.url() }));
      return page;
    };
    const first = watch(await context.newPage(), 'first');
    const errors = collectErrors(first);
    await first.goto(`${server.url}${entryPath('zh')}`);
    await first.getByRole('navigation', { name: zh.suggestedQuestions }).waitFor();
    await expect.poll(() => server.connections()).toBe(1);

    const second = watch(await context.newPage(), 'second');
    errors.push(...collectErrors(second));
    await second.goto(`${server.url}${entryPath('zh')}`);
    await second.getByLabel(zh.inputPlaceholder).waitFor();
    await expect.poll(() => second.getByText(zh.reconnecting).count()).toBe(0);

    // One socket for the two tabs: the first tab's.
    expect(sockets.map((s) => s.page)).toEqual(['first']);
    expect(server.connections()).toBe(1);

    // A text typed in the follower tab: sent on the leader's socket, acknowledged in both tabs.
    const clientId = await second.evaluate(() => localStorage.getItem('uuid') ?? '');
    await send(second, '第二个标签页的消息');
    await mine(second, '第二个标签页的消息').locator('.read-mark').waitFor();
    await mine(first, '第二个标签页的消息').locator('.read-mark').waitFor();
    await expect.poll(() => storedCount(clientId, '第二个标签页的消息')).toBe(1);
    for (const page of [first, second]) expect(await mine(page, '第二个标签页的消息').count()).toBe(1);
    // The robot's answer came on the one socket and is shown in both tabs.
    const answers = (page: Page) => page.locator('.msg.theirs').filter({ has: page.locator('.badge-robot') }).count();
    await expect.poll(() => answers(second)).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => (await answers(first)) === (await answers(second))).toBe(true);
    expect(sockets).toHaveLength(1);

    // The leader tab closes: the second tab takes over and can send.
    const closedAt = Date.now();
    const opened = second.waitForEvent('websocket', { timeout: 30_000 });
    await first.close();
    await opened;
    const socketAfter = Date.now() - closedAt;
    await send(second, '接管之后的消息');
    await mine(second, '接管之后的消息').locator('.read-mark').waitFor({ timeout: 10_000 });
    const sentAfter = Date.now() - closedAt;
    console.log(`tabs e2e: leader tab closed -> new socket in the other tab after ${socketAfter} ms, a text acknowledged after ${sentAfter} ms`);
    expect(sentAfter).toBeLessThan(2_500);
    expect(sockets.map((s) => s.page)).toEqual(['first', 'second']);
    await expect.poll(() => server.connections()).toBe(1);
    expect(await storedCount(clientId, '接管之后的消息')).toBe(1);

    // History from the server after a reload: each text once.
    await second.reload();
    for (const text of ['第二个标签页的消息', '接管之后的消息']) {
      await mine(second, text).waitFor();
      expect(await mine(second, text).count()).toBe(1);
    }
    expect(errors).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);

  it('a hung leader tab (it keeps its lock, answers nothing): the other tab uses its own socket after the leader timeout; then one socket again', async () => {
    const { server } = env;
    const context = await phoneContext(env.browser);
    const sockets: string[] = [];
    const first = await context.newPage();
    first.on('websocket', () => sockets.push('first'));
    const errors = collectErrors(first);
    await first.goto(`${server.url}${entryPath('zh')}`);
    await first.getByRole('navigation', { name: zh.suggestedQuestions }).waitFor();
    const second = await context.newPage();
    second.on('websocket', () => sockets.push('second'));
    errors.push(...collectErrors(second));
    await second.goto(`${server.url}${entryPath('zh')}`);
    await second.getByLabel(zh.inputPlaceholder).waitFor();
    await expect.poll(() => second.getByText(zh.reconnecting).count()).toBe(0);
    expect(sockets).toEqual(['first']);

    // The leader's main thread hangs for 16 s (a frozen page behaves alike; Chromium's CDP freeze
    // has no effect on a visible headless page). It holds the lock but answers nothing.
    const hungAt = Date.now();
    const hang = first.evaluate(() => {
      const end = Date.now() + 16_000;
      while (Date.now() < end) {
        // busy
      }
    });
    await second.waitForEvent('websocket', { timeout: 30_000 });
    await send(second, '领导者无响应时的消息');
    await mine(second, '领导者无响应时的消息').locator('.read-mark').waitFor({ timeout: 10_000 });
    console.log(`tabs e2e: leader tab hung -> a text acknowledged in the other tab after ${Date.now() - hungAt} ms (leader timeout 10 s)`);
    expect(sockets).toEqual(['first', 'second']);

    // The leader answers again: the other tab closes its own socket and follows; one socket again.
    await hang;
    await expect.poll(() => server.connections(), { timeout: 15_000 }).toBe(1);
    await mine(first, '领导者无响应时的消息').waitFor({ timeout: 10_000 });
    expect(await mine(first, '领导者无响应时的消息').count()).toBe(1);
    await send(second, '恢复之后的消息');
    await mine(second, '恢复之后的消息').locator('.read-mark').waitFor({ timeout: 10_000 });
    await mine(first, '恢复之后的消息').waitFor();
    expect(sockets).toEqual(['first', 'second']);
    const clientId = await second.evaluate(() => localStorage.getItem('uuid') ?? '');
    expect(await storedCount(clientId, '领导者无响应时的消息')).toBe(1);
    expect(await storedCount(clientId, '恢复之后的消息')).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, E2E_TIMEOUT);
});
