/**
 * Budget (issue 13; 150 kB in issue 5): the app's initial JavaScript is at most 120 kB min+gzip
 * on the production build; the dialogs, the agent desk and what the first chat view does not
 * need load lazily.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_BUDGET_BYTES, measureApp } from '../../examples/kefu/scripts/size-lib.mjs';
import { E2E_TIMEOUT, releaseApp, sharedApp } from './harness.js';

let appDir: string;

beforeAll(async () => {
  appDir = await sharedApp();
}, E2E_TIMEOUT);

afterAll(() => {
  if (appDir) releaseApp(appDir);
});

describe('issue 13 budget: initial JavaScript at most 120 kB min+gzip', () => {
  it('keeps the entry and its static imports within the budget', async () => {
    const size = await measureApp(appDir);
    expect(APP_BUDGET_BYTES).toBe(120 * 1024);
    expect(size.initial).toBeGreaterThan(10_000);
    expect(size.initial).toBeLessThanOrEqual(APP_BUDGET_BYTES);
  });

  it('loads the dialogs and the agent desk lazily (not in the initial files)', async () => {
    const size = await measureApp(appDir);
    const files = await readdir(join(appDir, 'assets'));
    const lazies = ['agent-desk', 'rating-dialog', 'complaint-dialog', 'leave-message-dialog', 'search-dialog', 'transfer-dialog'];
    // issue 13: the new dialogs, the emoji drawings and picker, the translate action
    lazies.push('faq-dialog', 'end-dialog', 'language-dialog', 'emoji-art', 'emoji-picker', 'translate-action');
    // issue 13 budget: the app texts of the nine languages other than zh, the upload tray, the
    // open-app actions
    lazies.push('app-text-translations', 'upload-tray', 'open-app-actions');
    for (const lazy of lazies) {
      const chunk = files.find((f) => f.startsWith(`${lazy}-`) && f.endsWith('.js'));
      expect(chunk, `${lazy} has its own chunk`).toBeDefined();
      expect(size.initialFiles).not.toContain(`assets/${chunk}`);
    }
  });
});

describe('issue 24 first screen on a phone: the start-up chunks are fetched with the page, not one after the other', () => {
  it('names the key exchange, the socket stack, the connect (RSA) and the tab election as modulepreload links, and no dialog', async () => {
    const html = await readFile(join(appDir, 'index.html'), 'utf8');
    const size = await measureApp(appDir);
    // the hints beyond the entry's own static imports (which Vite names too)
    const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/assets\/([^"]+)"/g)]
      .map((m) => m[1] ?? '')
      .filter((f) => !size.initialFiles.includes(`assets/${f}`));
    for (const chunk of ['startup-', 'stack-', 'connect-params-', 'coordination-']) {
      expect(preloaded.some((f) => f.startsWith(chunk)), `${chunk} is preloaded`).toBe(true);
    }
    // jsencrypt (the RSA of the connect) has a chunk of its own, preloaded too
    const rsa = await Promise.all(preloaded.map(async (f) => (await readFile(join(appDir, 'assets', f), 'utf8')).includes('JSEncrypt')));
    expect(rsa.some(Boolean)).toBe(true);
    // a hint, not an import: they stay out of the initial JS (they run when imported), and no
    // dialog is fetched early
    expect(preloaded.filter((f) => /dialog|agent-desk|emoji|upload/.test(f))).toEqual([]);
  });
});
