/**
 * `npm run bench:list`: the message-list browser benchmark (bench/list/measure.ts) with the
 * production build of the app, the reference server in-process and Debian's Chromium.
 *
 *   npm run bench:list                      # 10 000 messages, 20 prepends
 *   npm run bench:list -- --messages 2000 --prepends 10
 */
import { parseArgs } from 'node:util';
import { buildApp, entryPath, launchBrowser, phoneContext, removeDir, startServer } from '../test/e2e/harness.js';
import { formatFigures, measureList, seedConversation } from './list/measure.js';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '10000' }, prepends: { type: 'string', default: '20' } } });
const messages = Math.min(100_000, Math.max(1, Number(values.messages) || 10_000));
const prepends = Math.min(200, Math.max(1, Number(values.prepends) || 20));

const appDir = await buildApp();
const server = await startServer(appDir);
const browser = await launchBrowser();
try {
  const visitor = await seedConversation(server.store, messages);
  const context = await phoneContext(browser);
  const figures = { messages, ...(await measureList(await context.newPage(), `${server.url}${entryPath('zh')}`, visitor, prepends)) };
  console.log(`message list (Chromium ${browser.version()}, phone viewport 390x800)\n${formatFigures(figures)}`);
} finally {
  await browser.close();
  await server.close();
  removeDir(server.dataDir);
  removeDir(appDir);
}
