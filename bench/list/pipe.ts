/**
 * The first screen's time measured over a bare DevTools pipe (bench/chat-browser/cdp.ts), for
 * `npm run bench:list`. Playwright instruments every page it drives: it enables the `Network`
 * domain (every request, response and socket frame is reported to the driver before the page may
 * go on) and runs its own scripts in each new document. On a phone profile (4x CPU slowdown) that
 * costs a first visit about 300 ms a visitor's phone does not spend: the entry script downloaded
 * in ~270 ms instead of ~60, and the document's commit ran 125 ms longer. Here only `Target`,
 * `Page`, `Emulation` and `Runtime` are used (and `Network` with an emulated network); the page
 * reports its own times (`probe.ts`).
 * @module
 */
import type { Chromium } from '../chat-browser/cdp.js';
import type { ListProfile, SeededVisitor } from './measure.js';
import { FIGURES_EXPRESSION, probeSource, type FirstScreenFigures } from './probe.js';

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
export async function measureFirstScreen(chrome: Chromium, url: string, visitor: SeededVisitor, profile: ListProfile, network: NetworkProfile | null = null): Promise<FirstScreenFigures> {
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
    return await chrome.evaluate<FirstScreenFigures>(sessionId, FIGURES_EXPRESSION);
  } finally {
    await chrome.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
  }
}
