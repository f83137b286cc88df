/**
 * `npm run bench:list`: the message-list browser benchmark (bench/list/measure.ts) with the
 * production build of the app, the reference server in-process and Debian's Chromium.
 *
 *   npm run bench:list                      # 10 000 messages, 20 prepends
 *   npm run bench:list -- --messages 2000 --prepends 10
 *   npm run bench:list -- --profile phone     # a low-end phone: 4x CPU slowdown (Chromium throttling)
 *   npm run bench:list -- --profile both      # desktop and phone, side by side, same server and build
 */
import { parseArgs } from 'node:util';
import { buildApp, entryPath, launchBrowser, phoneContext, removeDir, startServer } from '../test/e2e/harness.js';
import { formatFigures, measureList, seedConversation } from './list/measure.js';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '10000' }, prepends: { type: 'string', default: '20' }, profile: { type: 'string', default: 'desktop' } },
});
const PROFILES = { desktop: { cpuSlowdown: 1 }, phone: { cpuSlowdown: 4 } } as const;
const wanted = values.profile === 'both' ? (['desktop', 'phone'] as const) : values.profile === 'phone' ? (['phone'] as const) : (['desktop'] as const);
const messages = Math.min(100_000, Math.max(1, Number(values.messages) || 10_000));
const prepends = Math.min(200, Math.max(1, Number(values.prepends) || 20));

const appDir = await buildApp();
const server = await startServer(appDir);
const browser = await launchBrowser();
try {
  for (const name of wanted) {
    // a visitor of its own per profile: each run starts from an empty browser storage
    const visitor = await seedConversation(server.store, messages);
    const context = await phoneContext(browser);
    const profile = PROFILES[name];
    const figures = { messages, ...(await measureList(await context.newPage(), `${server.url}${entryPath('zh')}`, visitor, prepends, profile)) };
    console.log(`message list, profile ${name} (Chromium ${browser.version()}, viewport 390x800, CPU slowdown ${profile.cpuSlowdown}x)\n${formatFigures(figures)}\n`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
  removeDir(server.dataDir);
  removeDir(appDir);
}
