#!/usr/bin/env node
// The steps `npm test` runs before vitest, in two lanes at once (CI has 2 cores; tsc and tsup's
// declaration build each keep one busy):
//   lane 1: typecheck, build:app, docs  (none needs the built packages: they read the sources;
//           typedoc treats a warning as an error, so undocumented exports fail the run)
//   lane 2: build, then check:package   (check:package lints what build wrote)
// Each step's output is printed whole when it ends, with its time; the first failure stops the
// other lane and the exit code is non-zero. `node scripts/prepare-tests.mjs --serial` runs the
// same steps one after the other.
import { spawn } from 'node:child_process';

/** @type {string[][]} */
const LANES = [
  ['typecheck', 'build:app', 'docs'],
  ['build', 'check:package'],
];

const serial = process.argv.includes('--serial');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
let failed = false;

/**
 * Runs one npm script; resolves with whether it passed.
 * @param {string} script
 * @returns {Promise<boolean>}
 */
function runStep(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    // its own process group, so that a failure elsewhere stops the whole step (npm and its children)
    const child = spawn(npm, ['run', script], { stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    running.add(child);
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      running.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(`\n=== npm run ${script}: ${ok ? 'passed' : `FAILED (${code ?? signal})`} in ${seconds} s ===\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(ok);
    });
  });
}

/** Stops every running step (each runs in its own process group). */
function stopAll() {
  for (const child of running) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
}

// the steps run in their own process groups: an interrupt of this script stops them too
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    stopAll();
    process.exit(1);
  });
}

/**
 * Runs a lane's steps in order, stopping at the first failure (or when the other lane failed).
 * @param {string[]} steps
 */
async function runLane(steps) {
  for (const step of steps) {
    if (failed) return;
    if (!(await runStep(step))) {
      failed = true;
      stopAll();
      return;
    }
  }
}

const started = Date.now();
if (serial) await runLane(LANES.flat());
else await Promise.all(LANES.map(runLane));
process.stdout.write(`\n=== before vitest: ${failed ? 'FAILED' : 'done'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===\n`);
process.exit(failed ? 1 : 0);
