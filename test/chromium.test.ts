/**
 * `npm test` on a machine without Chromium (issue 23): the browser tests look for one, and
 * without one they print why with the install line and skip, unless `CI` is set, where that fails
 * (as the cluster tests do without PostgreSQL, Redis or HAProxy).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findChromium, INSTALL_CHROMIUM } from './e2e/chromium.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

/** A file system holding only `paths`. */
const only = (...paths: string[]) => (path: string) => paths.includes(path);

describe('finding a Chromium', () => {
  it('takes CHROMIUM_PATH first, and says so when it points at nothing', () => {
    expect(findChromium({ env: { CHROMIUM_PATH: '/opt/chrome/chrome' }, exists: only('/opt/chrome/chrome', '/usr/bin/chromium') })).toEqual({ path: '/opt/chrome/chrome', missing: null });
    const wrong = findChromium({ env: { CHROMIUM_PATH: '/nowhere/chrome' }, exists: only('/usr/bin/chromium') });
    expect(wrong.path).toBeNull();
    expect(wrong.missing).toContain('CHROMIUM_PATH=/nowhere/chrome does not exist');
  });

  it("then Debian's /usr/bin/chromium, then chromium, chromium-browser, google-chrome on PATH", () => {
    expect(findChromium({ env: { PATH: '/usr/local/bin:/snap/bin' }, exists: only('/usr/bin/chromium', '/snap/bin/chromium') }).path).toBe('/usr/bin/chromium');
    expect(findChromium({ env: { PATH: '/usr/local/bin:/snap/bin' }, exists: only('/snap/bin/chromium') }).path).toBe('/snap/bin/chromium');
    expect(findChromium({ env: { PATH: '/a:/b' }, exists: only('/b/chromium-browser', '/a/google-chrome') }).path).toBe('/b/chromium-browser');
    expect(findChromium({ env: { PATH: '/a:/b' }, exists: only('/b/google-chrome') }).path).toBe('/b/google-chrome');
  });

  it('without any, says where it looked and how to install one', () => {
    const none = findChromium({ env: { PATH: '/usr/bin' }, exists: only() });
    expect(none.path).toBeNull();
    expect(none.missing).toContain('no Chromium found');
    expect(none.missing).toContain(INSTALL_CHROMIUM);
    expect(INSTALL_CHROMIUM).toContain('apt-get install -y chromium');
  });
});

/** Runs browser test files in a vitest of their own, with CHROMIUM_PATH pointing at nothing. */
function runBrowserTests(files: string[], ci: boolean): { status: number | null; output: string } {
  const env: Record<string, string | undefined> = { ...process.env, CHROMIUM_PATH: '/nowhere/chromium', NO_COLOR: '1' };
  delete env['FORCE_COLOR'];
  if (ci) env['CI'] = 'true';
  else delete env['CI'];
  const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'e2e', ...files], { cwd: root, env, encoding: 'utf8', timeout: 180_000 });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe('browser tests without a Chromium', () => {
  it('print why with the install line and skip (a file with the shared environment and one with its own)', () => {
    const run = runBrowserTests(['test/e2e/routes.e2e.test.ts', 'test/e2e/server-restart.e2e.test.ts'], false);
    expect(run.output).toContain('[e2e] skipped: CHROMIUM_PATH=/nowhere/chromium does not exist');
    expect(run.output).toContain(INSTALL_CHROMIUM);
    // every test skipped, none failed or run
    expect(run.output).toMatch(/Tests\s+(\d+) skipped \(\1\)/);
    expect(run.status, run.output).toBe(0);
  }, 200_000);

  it('fail under CI', () => {
    const run = runBrowserTests(['test/e2e/routes.e2e.test.ts'], true);
    expect(run.output).toContain('the browser tests must run under CI, but CHROMIUM_PATH=/nowhere/chromium does not exist');
    expect(run.status).not.toBe(0);
  }, 200_000);
});
