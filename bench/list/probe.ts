/**
 * The page's own probe of the message-list benchmark, the same for both drivers (Playwright in
 * `measure.ts`, the bare DevTools pipe in `pipe.ts`): run in every new document before its
 * scripts, it stores the seeded visitor's id and secret, observes long tasks and looks for the
 * newest row on screen in the first animation frame after each change of the document, and in
 * every frame while the row is there but not yet in view (a driver's wait would poll at
 * intervals of its own, which the time would include). It does not look in every frame from the
 * start: a frame loop of its own made the page render a frame every 16 ms that a visitor's page
 * does not (on a phone's first visit, 4x, ~7% of the time to the newest row: bench/README.md,
 * eighth pass). {@link FIGURES_EXPRESSION} reads what it saw.
 * @module
 */
import type { SeededVisitor, StartupMilestones } from './measure.js';

/** What the probe saw of a visit, until the newest row showed. */
export interface FirstScreenFigures {
  /** Navigation start to the first frame with the newest row in the viewport, ms. */
  newestShownMs: number;
  /** Long tasks from navigation start until the newest message showed. */
  startupLongTasks: { count: number; totalMs: number; longestMs: number };
  /** Those long tasks one by one: start (ms after navigation start) and duration, ms. */
  startupTasks: { startMs: number; durationMs: number }[];
  /** The start-up's milestones, ms after navigation start. */
  startup: StartupMilestones;
  /** Bytes over the wire (response headers and bodies as sent, the page's and its requests') until the newest showed. */
  transferBytes: number;
}

/**
 * The page's own probe, run in every new document before its scripts: the visitor's stored id and
 * secret, a long-task observer, and a check once per animation frame for the newest row on screen.
 */
export function probeSource(visitor: SeededVisitor): string {
  return `(() => {
  localStorage.setItem('uuid', ${JSON.stringify(visitor.clientId)});
  localStorage.setItem('clientSecret', ${JSON.stringify(visitor.clientSecret)});
  const w = window;
  w.__longTasks = [];
  try {
    w.__longTaskObserver = new PerformanceObserver((list) => { for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration }); });
    w.__longTaskObserver.observe({ type: 'longtask', buffered: true });
  } catch {}
  const text = ${JSON.stringify(visitor.newestText)};
  w.__newestShownAt = new Promise((resolve) => {
    let looking = false;
    let seen = false;
    // a live collection: a change of the document before the chat has rows costs one length read
    const rows = document.getElementsByClassName('msg');
    const newest = () => {
      for (const row of rows) if (row.textContent.includes(text)) return row;
      return null;
    };
    // in a frame: done when the row is in view; again next frame while it is there but not in
    // view (scrolled, hidden, not laid out); otherwise the next change of the document looks again
    const look = () => {
      looking = false;
      if (seen) return;
      const row = newest();
      if (!row) return;
      const box = row.getBoundingClientRect();
      if (box.height > 0 && box.bottom > 0 && box.top < innerHeight && getComputedStyle(row).visibility !== 'hidden') {
        seen = true;
        changes.disconnect();
        return resolve(performance.now());
      }
      looking = true;
      requestAnimationFrame(look);
    };
    const changes = new MutationObserver(() => {
      if (looking || seen) return;
      looking = true;
      requestAnimationFrame(look);
    });
    changes.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  });
})()`;
}

/** Read in the page once the newest row showed. */
export const FIGURES_EXPRESSION = `(async () => {
  const shown = await window.__newestShownAt;
  // a long task is told to observers in a task of its own, later: the one that rendered the row
  // may not have been told yet when the row showed. Wait for the page to settle, then take what is queued.
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const e of window.__longTaskObserver ? window.__longTaskObserver.takeRecords() : []) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  const tasks = window.__longTasks.filter((t) => t.start < shown);
  const resources = performance.getEntriesByType('resource');
  const ended = (test) => resources.filter(test).reduce((m, e) => Math.max(m, e.responseEnd), -1);
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    transferBytes: (nav ? nav.transferSize : 0) + resources.filter((e) => e.responseEnd <= shown).reduce((s, e) => s + e.transferSize, 0),
    newestShownMs: shown,
    startupLongTasks: { count: tasks.length, totalMs: tasks.reduce((s, t) => s + t.duration, 0), longestMs: tasks.reduce((m, t) => Math.max(m, t.duration), 0) },
    startupTasks: tasks.map((t) => ({ startMs: t.start, durationMs: t.duration })),
    startup: {
      documentMs: nav ? nav.responseEnd : -1,
      scriptsMs: ended((e) => e.initiatorType === 'script' || (e.initiatorType === 'link' && e.name.endsWith('.js'))),
      keyExchangeMs: ended((e) => /getAesKey|getUserToken|public\\/config/.test(e.name)),
      historyMs: resources.filter((e) => e.name.endsWith('/findMsgForCus')).reduce((m, e) => (m < 0 ? e.responseEnd : Math.min(m, e.responseEnd)), -1),
    },
  };
})()`;
