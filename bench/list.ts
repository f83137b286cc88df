/**
 * `npm run bench:list`: the message-list browser benchmark (bench/list/measure.ts) with the
 * production build of the app, the reference server in-process and Debian's Chromium.
 *
 *   npm run bench:list                      # 10 000 messages, 20 prepends
 *   npm run bench:list -- --messages 2000 --prepends 10
 *   npm run bench:list -- --profile phone     # a low-end phone: 4x CPU slowdown (Chromium throttling)
 *   npm run bench:list -- --profile both      # desktop and phone, side by side, same server and build
 *   npm run bench:list -- --visit both        # a first visit and a returning visitor's (the second
 *                                             # visit in the same storage); default: first
 *   npm run bench:list -- --network slow-4g   # the first screen over an emulated phone network too
 *                                             # (150 ms round trips, 1.6 Mbit/s down): none, slow-4g, both
 *   npm run bench:list -- --runs 5            # each case 5 times: the run of the median time is printed
 *   npm run bench:list -- --baseline DIR      # also a built app in DIR (e.g. of the main branch), its
 *                                             # runs interleaved with this tree's: side by side
 *
 * The first screen (newest shown, long tasks and milestones until then) is timed over a bare
 * DevTools pipe (bench/list/pipe.ts: Playwright's instrumentation costs a phone's first visit
 * ~300 ms); the scrolling figures (rows, prepend jumps, long tasks while scrolling) come from one
 * Playwright run per build, which holds the older pages at the network. That run's own time to the
 * newest message is printed too, as "under Playwright".
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp, CHROMIUM, entryPath, launchBrowser, phoneContext, removeDir, startServer, tempDir } from '../test/e2e/harness.js';
import { launchChromium } from './chat-browser/cdp.js';
import { formatFigures, measureList, seedConversation, type ListFigures } from './list/measure.js';
import { measureFirstScreen, NETWORKS, type NetworkProfile } from './list/pipe.js';
import type { FirstScreenFigures } from './list/probe.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '10000' },
    prepends: { type: 'string', default: '20' },
    profile: { type: 'string', default: 'desktop' },
    visit: { type: 'string', default: 'first' },
    runs: { type: 'string', default: '1' },
    network: { type: 'string', default: 'none' },
    baseline: { type: 'string' },
  },
});
const PROFILES = { desktop: { cpuSlowdown: 1 }, phone: { cpuSlowdown: 4 } } as const;
const wanted = values.profile === 'both' ? (['desktop', 'phone'] as const) : values.profile === 'phone' ? (['phone'] as const) : (['desktop'] as const);
const messages = Math.min(100_000, Math.max(1, Number(values.messages) || 10_000));
const prepends = Math.min(200, Math.max(1, Number(values.prepends) || 20));
const visits = values.visit === 'both' ? (['first', 'returning'] as const) : values.visit === 'returning' ? (['returning'] as const) : (['first'] as const);
const runs = Math.min(21, Math.max(1, Number(values.runs) || 1));
const networks: (NetworkProfile | null)[] = values.network === 'both' ? [null, 'slow-4g'] : values.network === 'slow-4g' ? ['slow-4g'] : [null];
if (!['none', 'both', ...Object.keys(NETWORKS)].includes(values.network)) throw new Error(`--network: none, slow-4g or both, not ${values.network}`);

const appDir = await buildApp();
const builds = [{ label: 'this tree', server: await startServer(appDir) }];
if (values.baseline) builds.push({ label: `baseline ${values.baseline}`, server: await startServer(resolve(values.baseline)) });
const browser = await launchBrowser();
const profileDir = tempDir('kefu-bench-list-');
const chrome = await launchChromium(CHROMIUM.path ?? '/usr/bin/chromium', profileDir, false);
/** One case (profile, visit, network): the runs of every build, interleaved, then each build's figures. */
async function measureCase(name: keyof typeof PROFILES, visit: 'first' | 'returning', network: NetworkProfile | null): Promise<void> {
  const profile = { ...PROFILES[name], returning: visit === 'returning' };
  const all = builds.map((): FirstScreenFigures[] => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, { server }] of builds.entries()) {
      // a visitor of its own per run: each run starts from an empty browser storage
      const visitor = await seedConversation(server.store, messages);
      all[i]?.push(await measureFirstScreen(chrome, `${server.url}${entryPath('zh')}`, visitor, profile, network));
    }
  }
  for (const [i, { label, server }] of builds.entries()) {
    const figures = all[i] ?? [];
    const median = [...figures].sort((a, b) => a.newestShownMs - b.newestShownMs)[Math.floor((figures.length - 1) / 2)] as FirstScreenFigures;
    // the scrolling figures: one Playwright run (it holds the older pages at the network)
    const visitor = await seedConversation(server.store, messages);
    const context = await phoneContext(browser);
    const scrolled = await measureList(await context.newPage(), `${server.url}${entryPath('zh')}`, visitor, prepends, profile);
    await context.close();
    const times = runs > 1 ? `, median of ${runs} runs: ${figures.map((f) => f.newestShownMs.toFixed(0)).join(' ')} ms` : '';
    const over = network ? `, network ${network} (the first screen; scrolling on loopback)` : '';
    console.log(`message list, ${label}, profile ${name}${over}, ${visit} visit (Chromium ${browser.version()}, viewport 390x800, CPU slowdown ${profile.cpuSlowdown}x${times})`);
    console.log(formatFigures({ ...scrolled, ...median, messages }));
    if (runs > 1) {
      // the long-task target holds per visit, not only for the median one
      const clean = figures.filter((f) => f.startupLongTasks.count === 0).length;
      const seen = figures.flatMap((f, run) => f.startupTasks.map((t) => `run ${run + 1}: ${t.durationMs.toFixed(0)} ms at ${t.startMs.toFixed(0)}`));
      console.log(`runs without a long task until then: ${clean} of ${runs}${seen.length ? ` (${seen.join(', ')})` : ''}`);
    }
    console.log(`bytes over the wire until then:    ${median.transferBytes} (the page, its scripts and styles, API calls)`);
    console.log(`under Playwright (one run):         newest shown after ${scrolled.newestShownMs.toFixed(0)} ms, ${scrolled.startupLongTasks.count} long tasks until then\n`);
  }
}

try {
  for (const name of wanted) for (const visit of visits) for (const network of networks) await measureCase(name, visit, network);
} finally {
  await browser.close();
  await chrome.close();
  removeDir(profileDir);
  for (const { server } of builds) {
    await server.close();
    removeDir(server.dataDir);
  }
  removeDir(appDir);
}
