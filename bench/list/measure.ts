/**
 * The message-list browser benchmark (issue 13): a visitor whose conversation holds N messages
 * (written straight into the reference server's store) opens the chat in Chromium. Measured:
 * the time from navigation to the newest message on screen, the chat rows in the DOM, the jump in
 * px of the top visible row at each prepend of an older page (the list must hold still), and the
 * long tasks (> 50 ms, PerformanceObserver `longtask`) while scrolling up through the pages.
 * A returning visitor's second visit can be measured too ({@link ListProfile.returning}).
 * Used by `npm run bench:list` (figures) and by `test/e2e/list-bench.e2e.test.ts` (budgets on rows
 * and px, not on time).
 * @module
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { hashSecret } from '../../examples/server/src/identity/secrets.js';
import type { MessageRecord, Store } from '../../examples/server/src/store/types.js';
import { FIGURES_EXPRESSION, probeSource, type FirstScreenFigures } from './probe.js';

/** The demo merchant and platform of the server's seed. */
const MCH = 'M1001';
const PLATFORM = 'P01';

/** A visitor with a stored conversation, ready for the browser to be. */
export interface SeededVisitor {
  clientId: string;
  clientSecret: string;
  /** The newest message's text. */
  newestText: string;
}

/**
 * Writes a visitor (claimed, with its secret) and `count` messages of its conversation: visitor
 * texts and agent replies of varied length, one second apart, ending just now.
 */
export async function seedConversation(store: Store, count: number): Promise<SeededVisitor> {
  const clientId = `bench-${randomUUID()}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const now = Date.now();
  await store.chat.saveVisitor({ clientId, name: 'Bench', avatar: '', language: 'zh', blacklisted: false, banned: false, createdAt: now, lastSeen: now });
  await store.identity.claim(clientId, hashSecret(clientSecret));
  const words = ['订单', 'order', '充值', 'deposit', '请稍等', 'please wait', '谢谢', 'thanks', '账户', 'account'];
  let newestText = '';
  await store.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      const mine = i % 2 === 0;
      const length = 1 + ((i * 7) % 23);
      const text = `#${i} ${Array.from({ length }, (_, k) => words[(i + k) % words.length]).join(' ')}`;
      const record: MessageRecord = {
        fp: randomUUID(),
        type: 100,
        from: mine ? clientId : 'agent:demo',
        to: mine ? 'agent:demo' : clientId,
        fn: mine ? 'Bench' : 'Demo Agent',
        tn: mine ? 'Demo Agent' : 'Bench',
        fa: '',
        ta: '',
        mchId: MCH,
        platformId: PLATFORM,
        clientId,
        groupId: null,
        sessionId: null,
        dataContent: text,
        isRead: 1,
        robot: 0,
        isGroup: 0,
        createTime: now - (count - i) * 1000,
        cm: null,
      };
      await tx.chat.insertMessage(record);
      newestText = text;
    }
  });
  return { clientId, clientSecret, newestText };
}

/** What one run measured. */
export interface ListFigures {
  /** Messages in the conversation. */
  messages: number;
  /** Navigation start to the newest message on screen, ms. */
  newestShownMs: number;
  /** Chat rows in the DOM once the newest shows. */
  rowsAtStart: number;
  /** The most chat rows in the DOM at any point while scrolling up. */
  rowsMax: number;
  /** The jump of the top visible row at each prepend, px (0 = it held still). */
  prependJumpsPx: number[];
  /** Long tasks while scrolling up through the prepends: count and total ms. */
  longTasks: { count: number; totalMs: number; longestMs: number };
  /** Long tasks from navigation start until the newest message showed. */
  startupLongTasks: { count: number; totalMs: number; longestMs: number };
  /** The start-up's milestones, ms after navigation start (resource timing of the page). */
  startup: StartupMilestones;
}

/** When the start-up's steps ended, ms after navigation start (-1: not seen). */
export interface StartupMilestones {
  /** The HTML document arrived. */
  documentMs: number;
  /** The last start-up script arrived (entry chunk and its static imports). */
  scriptsMs: number;
  /** The key exchange (`/im/...publicKey` style start-up HTTP calls) ended. */
  keyExchangeMs: number;
  /** The first history page arrived. */
  historyMs: number;
}

/** How the page is run: a desktop-class CPU, or a low-end phone (Chromium's CPU throttling). */
export interface ListProfile {
  /** CPU slowdown factor (1 = none; 4 = a low-end phone). */
  cpuSlowdown: number;
  /**
   * A returning visitor: the page is opened once (until the newest message shows) and then opened
   * again in the same browser storage, and the second visit is measured. Default: the first visit.
   */
  returning?: boolean;
}

/** Sums long tasks. */
function summarise(tasks: readonly { duration: number }[]): { count: number; totalMs: number; longestMs: number } {
  return {
    count: tasks.length,
    totalMs: tasks.reduce((s, t) => s + t.duration, 0),
    longestMs: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
  };
}

/**
 * Opens the chat as `visitor` and measures it.
 * @param page - a fresh page of a context whose storage is empty
 * @param url - the visitor entry URL
 * @param visitor - the seeded visitor
 * @param prepends - how many older pages to load by scrolling up
 */
export async function measureList(page: Page, url: string, visitor: SeededVisitor, prepends: number, profile: ListProfile = { cpuSlowdown: 1 }): Promise<Omit<ListFigures, 'messages'>> {
  if (profile.cpuSlowdown > 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  }
  // tsx (esbuild keepNames) wraps named functions in `__name(...)`: give the page that helper too
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  // the page's own probe (`probe.ts`): the same as over the bare DevTools pipe
  await page.addInitScript({ content: probeSource(visitor) });
  const newest = page.locator('.msg').filter({ hasText: visitor.newestText });
  if (profile.returning) {
    await page.goto(url);
    await newest.waitFor({ state: 'visible', timeout: 30_000 });
  }
  const firstPage = page.waitForResponse((r) => r.url().endsWith('/findMsgForCus'), { timeout: 30_000 });
  await page.goto(url);
  await newest.waitFor({ state: 'visible', timeout: 30_000 });
  // the locator saw it: the probe's frame loop has it, or sees it within a frame or two
  const early = await page.evaluate<FirstScreenFigures>(FIGURES_EXPRESSION);
  const rowsAtStart = await page.locator('.msg').count();

  // the prepends below are older pages: the first page (which may follow what a returning
  // visitor's page showed from its own storage) is in first
  await firstPage;
  // Each older page is held at the network until the reader's view is measured: the request shows
  // that the list asked for it; the anchor (the top visible row) is taken with the page still held,
  // then the page is let through and the same row is measured again.
  let asked: (() => void) | null = null;
  let release: Promise<void> = Promise.resolve();
  await page.route('**/findMsgForCus', async (route) => {
    asked?.();
    await release;
    await route.continue();
  });

  const scrollStart = await page.evaluate(() => performance.now());
  const jumps: number[] = [];
  let rowsMax = rowsAtStart;
  for (let i = 0; i < prepends; i++) {
    let open: () => void = () => undefined;
    release = new Promise<void>((r) => (open = r));
    const requested = new Promise<void>((r) => (asked = r));
    // scroll up as a reader does (wheel steps) until the list asks for an older page
    const box = await page.locator('.vlist').boundingBox();
    if (!box) break;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    let wanted = false;
    const seen = requested.then(() => (wanted = true));
    for (let step = 0; step < 400 && !wanted; step++) {
      await page.mouse.wheel(0, -200);
      await Promise.race([seen, new Promise((r) => setTimeout(r, 16))]);
    }
    if (!wanted) break;
    // the reader's view once it holds still (rows near the top are measured as they show)
    const before = await page.evaluate(
      () =>
        new Promise<{ fp: string; y: number } | null>((resolve) => {
          const view = (): { fp: string; y: number } | null => {
            const list = document.querySelector<HTMLElement>('.vlist');
            if (!list) return null;
            const top = list.getBoundingClientRect().top;
            const first = [...list.querySelectorAll<HTMLElement>('.msg[data-fp]')].find((r) => r.getBoundingClientRect().bottom > top + 1);
            return first ? { fp: first.dataset['fp'] ?? '', y: first.getBoundingClientRect().top } : null;
          };
          let last = view();
          let still = 0;
          const started = performance.now();
          const tick = (): void => {
            const now = view();
            still = now !== null && last !== null && now.fp === last.fp && now.y === last.y ? still + 1 : 0;
            last = now;
            if (still >= 5 || performance.now() - started > 1_000) resolve(now);
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );
    const finished = page.waitForEvent('requestfinished', { predicate: (r) => r.url().endsWith('/findMsgForCus'), timeout: 10_000 });
    asked = null;
    open();
    await finished;
    if (!before) break;
    // once the rows are in and measured: the row's place when it has held still for 5 frames (1 s at most)
    const after = await page.evaluate(
      (fp) =>
        new Promise<number | null>((resolve) => {
          const place = (): number | null => document.querySelector<HTMLElement>(`.msg[data-fp="${fp}"]`)?.getBoundingClientRect().top ?? null;
          let last = place();
          let still = 0;
          const started = performance.now();
          const tick = (): void => {
            const now = place();
            still = now === last ? still + 1 : 0;
            last = now;
            if (still >= 5 || performance.now() - started > 1_000) resolve(now);
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
      before.fp,
    );
    jumps.push(after === null ? Number.POSITIVE_INFINITY : Math.abs(after - before.y));
    rowsMax = Math.max(rowsMax, await page.locator('.msg').count());
  }
  release = Promise.resolve();
  await page.unroute('**/findMsgForCus');
  const tasks = await page.evaluate((start) => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    return w.__longTasks.filter((t) => t.start >= start);
  }, scrollStart);
  return {
    newestShownMs: early.newestShownMs,
    rowsAtStart,
    rowsMax,
    prependJumpsPx: jumps,
    longTasks: summarise(tasks),
    startupLongTasks: early.startupLongTasks,
    startup: early.startup,
  };
}

const ms = (v: number): string => (v < 0 ? '-' : v.toFixed(0));

/** The figures as printed lines. */
export function formatFigures(f: ListFigures): string {
  const jumps = f.prependJumpsPx;
  const worst = jumps.length > 0 ? Math.max(...jumps) : 0;
  return [
    `messages in the conversation:      ${f.messages}`,
    `newest message shown after:        ${f.newestShownMs.toFixed(0)} ms (from navigation start)`,
    `chat rows in the DOM:              ${f.rowsAtStart} at start, at most ${f.rowsMax} while scrolling`,
    `prepends of older pages:           ${jumps.length}, jump of the top visible row: max ${worst.toFixed(1)} px (${jumps.map((j) => j.toFixed(0)).join(' ')})`,
    `start-up (ms after navigation):    html ${ms(f.startup.documentMs)}, scripts ${ms(f.startup.scriptsMs)}, key exchange ${ms(f.startup.keyExchangeMs)}, first history page ${ms(f.startup.historyMs)}`,
    `long tasks until the newest shows: ${f.startupLongTasks.count} (total ${f.startupLongTasks.totalMs.toFixed(0)} ms, longest ${f.startupLongTasks.longestMs.toFixed(0)} ms)`,
    `long tasks while scrolling up:     ${f.longTasks.count} (total ${f.longTasks.totalMs.toFixed(0)} ms, longest ${f.longTasks.longestMs.toFixed(0)} ms)`,
  ].join('\n');
}
