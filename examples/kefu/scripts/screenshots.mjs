#!/usr/bin/env node
// Saves docs/screenshots/chat.png (the visitor's chat on a phone) and
// docs/screenshots/agent-desk.png (the agent desk) from a real session: it builds the app, starts
// the reference server on a free port with a temporary data directory, and drives Debian's
// Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with playwright-core.
//
//   node examples/kefu/scripts/screenshots.mjs [--lang en]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { build } from 'vite';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const repo = here('../../../');
const outDir = join(repo, 'docs/screenshots');
const langArg = process.argv.indexOf('--lang');
const language = langArg > 0 ? process.argv[langArg + 1] : 'en';

/** A small PNG encoder (RGB, no filter) for a picture to send. */
function png(width, height, pixel) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const i = y * (width * 3 + 1) + 1 + x * 3;
      raw[i] = r;
      raw[i + 1] = g;
      raw[i + 2] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A receipt-like picture: a light card with a few bars. */
const picture = png(240, 150, (x, y) => {
  if (y < 28) return [31, 91, 214];
  const bar = (y - 40) % 24 < 10 && x > 20 && x < 60 + ((y * 7) % 150);
  return bar ? [180, 192, 210] : [246, 248, 252];
});

const work = mkdtempSync(join(tmpdir(), 'kefu-shots-'));
const appDir = join(work, 'app');
let server;
let browser;
try {
  process.env.NODE_ENV = 'production';
  await build({ configFile: here('../vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: appDir, emptyOutDir: true } });
  const { loadConfig } = await tsImport('../../server/src/config.ts', import.meta.url);
  const { createServer } = await tsImport('../../server/src/server.ts', import.meta.url);
  server = await createServer(loadConfig({}, { port: 0, host: '127.0.0.1', dataDir: join(work, 'data'), appDir, seed: true, log: false }), { onError: () => undefined });
  const base = server.url;
  // the browser tests' flags: among them, no address-bar popup preloaded per context (test/e2e/chromium-args.ts)
  const { PLAYWRIGHT_ARGS } = await tsImport('../../../test/e2e/chromium-args.ts', import.meta.url);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: [...PLAYWRIGHT_ARGS] });
  const visitor = await (await browser.newContext({ viewport: { width: 390, height: 780 }, deviceScaleFactor: 2 })).newPage();
  const agent = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();

  const { en } = await tsImport('../../../src/i18n/locales/en.ts', import.meta.url);
  const { zh } = await tsImport('../../../src/i18n/locales/zh.ts', import.meta.url);
  const t = language === 'zh' ? zh : en;
  const agentTexts = t;

  await agent.goto(`${base}/agent`);
  // the desk starts in the browser's language (a headless Chromium's: English)
  await agent.getByLabel(/^(语言|Language)$/).selectOption(language);
  await agent.getByLabel(agentTexts.account).fill('demo');
  await agent.getByLabel(agentTexts.password).fill('demo');
  await agent.getByRole('button', { name: agentTexts.login }).click();
  await agent.getByText(`${agentTexts.online} 1`).waitFor();

  const entry = Buffer.from(`data3:kefu:M1001:P01:demo:${language}:0:0:null`, 'utf8').toString('base64url');
  await visitor.goto(`${base}/kefu/${entry}`);
  const chips = visitor.getByRole('navigation', { name: t.suggestedQuestions }).getByRole('button');
  await chips.first().click();
  await visitor.locator('.msg.theirs').nth(1).waitFor();
  await visitor.getByRole('button', { name: t.transferToHuman }).click();
  await visitor.getByRole('dialog').getByRole('button', { name: t.confirm }).click();
  await agent.getByRole('button', { name: new RegExp(`^${agentTexts.accept}`) }).first().click();
  const agentInput = agent.getByLabel(agentTexts.inputPlaceholder);
  await agentInput.fill('Hi, this is Demo Agent face[微笑] Please send a photo of the receipt. Details: https://example.com/help');
  await agentInput.press('Enter');
  await visitor.locator('.msg.theirs').filter({ hasText: 'Demo Agent' }).last().waitFor();
  await visitor.locator('.composer input[type="file"]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: picture });
  await visitor.locator('.msg.mine .img-btn img').waitFor();
  const input = visitor.getByLabel(t.inputPlaceholder);
  await input.fill('Here it is face[强] My deposit has not arrived yet face[流泪]');
  await input.press('Enter');
  await agent.locator('.msg.theirs').filter({ hasText: 'deposit has not arrived' }).waitFor();
  await agent.locator('.msg.mine .read-mark.is-read').first().waitFor();
  await agentInput.fill('Thanks! I can see the order face[OK] It will arrive within 5 minutes.');
  await agentInput.press('Enter');
  await visitor.locator('.msg.theirs').filter({ hasText: 'within 5 minutes' }).waitFor();
  await visitor.locator('.msg.mine .read-mark.is-read').last().waitFor();
  await visitor.locator('body').click({ position: { x: 5, y: 5 } });
  await visitor.waitForTimeout(400);

  mkdirSync(outDir, { recursive: true });
  await visitor.screenshot({ path: join(outDir, 'chat.png') });
  await agent.locator('body').click({ position: { x: 5, y: 700 } });
  await agent.waitForTimeout(300);
  await agent.screenshot({ path: join(outDir, 'agent-desk.png') });
  console.log(`Saved ${join(outDir, 'chat.png')} and ${join(outDir, 'agent-desk.png')}`);
} finally {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}
