/**
 * Which Chromium the browser tests drive (playwright-core never downloads one), and what happens
 * without one: like the cluster tests without PostgreSQL, Redis or HAProxy, the tests say why
 * (with the line that installs one) and skip; under CI (`CI` set) that is a failure.
 * @module
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeEach } from 'vitest';

/** Names a Chromium goes by on PATH: Debian's, Ubuntu's, Google's. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

/** What is looked at: the environment (`CHROMIUM_PATH`, `PATH`) and the file system. */
export interface ChromiumLookup {
  env: Record<string, string | undefined>;
  exists(path: string): boolean;
}

/** Where a Chromium was found, or why none was. */
export type ChromiumFound = { path: string; missing: null } | { path: null; missing: string };

/** The line that installs one, for the reason printed. */
export const INSTALL_CHROMIUM = 'apt-get install -y chromium (Debian; chromium-browser on Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome';

/**
 * Finds a Chromium: `CHROMIUM_PATH` when set (it must exist), else `/usr/bin/chromium`, else the
 * first of {@link CHROMIUM_NAMES} on `PATH`.
 * @param lookup - the environment and the file system (the real ones by default)
 */
export function findChromium(lookup: ChromiumLookup = { env: process.env, exists: existsSync }): ChromiumFound {
  const { env, exists } = lookup;
  const chosen = env['CHROMIUM_PATH'];
  if (chosen !== undefined && chosen !== '') {
    return exists(chosen) ? { path: chosen, missing: null } : { path: null, missing: `CHROMIUM_PATH=${chosen} does not exist; ${INSTALL_CHROMIUM}` };
  }
  if (exists('/usr/bin/chromium')) return { path: '/usr/bin/chromium', missing: null };
  const dirs = (env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      const path = join(dir, name);
      if (exists(path)) return { path, missing: null };
    }
  }
  return { path: null, missing: `no Chromium found (CHROMIUM_PATH, /usr/bin/chromium, ${CHROMIUM_NAMES.join(', ')} on PATH); install one: ${INSTALL_CHROMIUM}` };
}

/** The Chromium of this run. */
export const CHROMIUM: ChromiumFound = findChromium();

/**
 * A browser test file's requirement: without a Chromium it prints why and its tests skip (returns
 * true: the file's `beforeAll` then starts nothing); under CI it throws, failing the file.
 */
export function requireChromium(): boolean {
  if (CHROMIUM.missing === null) return false;
  if (process.env['CI']) throw new Error(`the browser tests must run under CI, but ${CHROMIUM.missing}`);
  console.warn(`[e2e] skipped: ${CHROMIUM.missing}`);
  beforeEach((context) => context.skip());
  return true;
}
