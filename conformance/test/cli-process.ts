/**
 * Runs the kit's built command (`bin/kefu-im-conformance.js` -> `dist/cli.js`) as a child process,
 * the way `npx kefu-im-conformance` does; builds the kit first when `dist/` is missing.
 * @module
 */

import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const KIT_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The command's launcher (the package's `bin`). */
export const BIN = fileURLToPath(new URL('../bin/kefu-im-conformance.js', import.meta.url));

/** What a run of the command printed and how it exited. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Builds the kit unless `dist/cli.js` exists (`npm test` builds it before vitest runs). */
export function ensureBuilt(): void {
  if (!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) {
    execFileSync('npm', ['run', 'build'], { cwd: KIT_DIR, stdio: 'ignore' });
  }
}

/**
 * Runs `kefu-im-conformance <args>` with node and collects its output.
 * @param args - the command's arguments
 * @param timeoutMs - kill it after this long
 */
export function runCli(args: string[], timeoutMs = 120_000): Promise<CliRun> {
  ensureBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The `N passed, N failed` summary line of a run's output, as numbers.
 * @param stdout - what the command printed
 */
export function summaryOf(stdout: string): { passed: number; failed: number; skipped: number } | undefined {
  const match = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)? \(/m.exec(stdout);
  return match ? { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3] ?? 0) } : undefined;
}
