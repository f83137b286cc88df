/**
 * The first screen's time measured over a bare DevTools pipe (bench/chat-browser/cdp.ts), for
 * `npm run bench:list`. Playwright instruments every page it drives: it enables the `Network`
 * domain (every request, response and socket frame is reported to the driver before the page may
 * go on) and runs its own scripts in each new document. On a phone profile (4x CPU slowdown) that
 * costs a first visit about 300 ms a visitor's phone does not spend: the entry script downloaded
 * in ~270 ms instead of ~60, and the document's commit ran 125 ms longer. Here only `Target`,
 * `Page`, `Emulation` and `Runtime` are used; the page reports its own times (init script).
 * @module
 */
import type { Chromium } from '../chat-browser/cdp.js';
import type { ListProfile, SeededVisitor, StartupMilestones } from './measure.js';

/** A phone's network, emulated by Chromium: none (loopback as it is) or Lighthouse's "Slow 4G". */
export type NetworkProfile = 'slow-4g';

/**
 * `Network.emulateNetworkConditions` of each profile: round-trip latency in ms and throughput in
 * bytes/s. Slow 4G is Lighthouse's mobile throttling: 150 ms, 1,638.4 kbit/s down, 750 kbit/s up.
 * Chromium emulates it for the page's HTTP requests; nothing here relies on it slowing WebSocket frames.
 */
export const NETWORKS: Record<NetworkProfile, { latency: number; downloadThroughput: number; uploadThroughput: number }> = {
  'slow-4g': { latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
};

/** What a visit measured over the pipe. */
export interface PipeFigures {
  /** Navigation start to the first frame with the newest row in the viewport, ms. */
  newestShownMs: number;
  /** Long tasks from navigation start until the newest message showed. */
  startupLongTasks: { count: number; totalMs: number; longestMs: number };
  /** The start-up's milestones, ms after navigation start. */
  startup: StartupMilestones;
  /** Bytes over the wire (response headers and bodies as sent, the page's and its requests') until the newest showed. */
  transferBytes: number;
}

/**
 * The page's own probe, run in every new document before its scripts: the visitor's stored id and
 * secret, a long-task observer, and a check once per animation frame for the newest row on screen.
 */
function probeSource(visitor: SeededVisitor): string {
  return `(() => {
  localStorage.setItem('uuid', ${JSON.stringify(visitor.clientId)});
  localStorage.setItem('clientSecret', ${JSON.stringify(visitor.clientSecret)});
  const w = window;
  w.__longTasks = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const text = ${JSON.stringify(visitor.newestText)};
  w.__newestShownAt = new Promise((resolve) => {
    const tick = () => {
      for (const row of document.querySelectorAll('.msg')) {
        if (!row.textContent.includes(text)) continue;
        const box = row.getBoundingClientRect();
        if (box.height > 0 && box.bottom > 0 && box.top < innerHeight && getComputedStyle(row).visibility !== 'hidden') return resolve(performance.now());
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
})()`;
}

/** Read in the page once the newest row showed. */
const FIGURES_EXPRESSION = `(async () => {
  const shown = await window.__newestShownAt;
  const tasks = window.__longTasks.filter((t) => t.start < shown);
  const resources = performance.getEntriesByType('resource');
  const ended = (test) => resources.filter(test).reduce((m, e) => Math.max(m, e.responseEnd), -1);
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    transferBytes: (nav ? nav.transferSize : 0) + resources.filter((e) => e.responseEnd <= shown).reduce((s, e) => s + e.transferSize, 0),
    newestShownMs: shown,
    startupLongTasks: { count: tasks.length, totalMs: tasks.reduce((s, t) => s + t.duration, 0), longestMs: tasks.reduce((m, t) => Math.max(m, t.duration), 0) },
    startup: {
      documentMs: nav ? nav.responseEnd : -1,
      scriptsMs: ended((e) => e.initiatorType === 'script' || (e.initiatorType === 'link' && e.name.endsWith('.js'))),
      keyExchangeMs: ended((e) => /getAesKey|getUserToken|public\\/config/.test(e.name)),
      historyMs: resources.filter((e) => e.name.endsWith('/findMsgForCus')).reduce((m, e) => (m < 0 ? e.responseEnd : Math.min(m, e.responseEnd)), -1),
    },
  };
})()`;

/** Navigates and waits until the new document (the probe in it) is there. */
async function visit(chrome: Chromium, sessionId: string, url: string): Promise<void> {
  const { loaderId } = await chrome.send<{ loaderId?: string }>('Page.navigate', { url }, sessionId);
  if (loaderId === undefined) throw new Error(`${url}: not navigated`);
  const deadline = Date.now() + 30_000;
  // the probe's promise is in the new document once it committed (the old one has no such page)
  const committed = (): Promise<boolean> =>
    chrome.evaluate<boolean>(sessionId, `location.href === ${JSON.stringify(url)} && window.__newestShownAt !== undefined`).catch(() => false);
  while (!(await committed())) {
    if (Date.now() > deadline) throw new Error(`${url}: the page did not load within 30 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Opens the chat as `visitor` in a fresh browser context (empty storage and cache) of `chrome`,
 * phone-sized (390x800, device scale 2, zh-CN), and measures the first screen.
 * @param url - the visitor entry URL
 * @param profile - CPU slowdown; a returning visit opens the page twice and measures the second
 * @param network - an emulated phone network (default none). With one, the `Network` domain is on
 *   (Chromium reports each request to this driver, which ignores the reports).
 */
export async function measureFirstScreen(chrome: Chromium, url: string, visitor: SeededVisitor, profile: ListProfile, network: NetworkProfile | null = null): Promise<PipeFigures> {
  const { browserContextId } = await chrome.send<{ browserContextId: string }>('Target.createBrowserContext', {});
  try {
    const { targetId } = await chrome.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = await chrome.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    await chrome.send('Page.enable', {}, sessionId);
    await chrome.send('Emulation.setDeviceMetricsOverride', { width: 390, height: 800, deviceScaleFactor: 2, mobile: false }, sessionId);
    await chrome.send('Emulation.setLocaleOverride', { locale: 'zh-CN' }, sessionId);
    await chrome.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
    await chrome.send('Page.addScriptToEvaluateOnNewDocument', { source: probeSource(visitor) }, sessionId);
    if (profile.cpuSlowdown > 1) await chrome.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown }, sessionId);
    if (network) {
      // Chromium applies the conditions to the page's requests only with the domain enabled
      await chrome.send('Network.enable', {}, sessionId);
      await chrome.send('Network.emulateNetworkConditions', { offline: false, ...NETWORKS[network] }, sessionId);
    }
    if (profile.returning) {
      await visit(chrome, sessionId, url);
      await chrome.evaluate(sessionId, 'window.__newestShownAt');
    }
    await visit(chrome, sessionId, url);
    return await chrome.evaluate<PipeFigures>(sessionId, FIGURES_EXPRESSION);
  } finally {
    await chrome.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
  }
}
