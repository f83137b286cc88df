/**
 * The getting-started guide cannot rot (issue 23): its Node scripts are the files of
 * `docs/examples/`, shown in the guide word for word (checked here; `node scripts/guide-examples.mjs`
 * copies them in), and each runs here as an integrator would run it (`npx tsx <file> <args>`, a
 * process of its own) against the reference server. A script that prints the wrong thing, never
 * ends (a timer or socket left after `destroy()`), or tries a dead server forever fails.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { guideBlocks } from '../../scripts/guide-examples.mjs';
import { sharedServer, type TestServer } from './harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

let server: TestServer;
sharedServer((s) => (server = s));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `docs/examples/<file>` with tsx in a process of its own; kills it after `timeout` ms. */
function runExample(file: string, args: string[], timeout: number): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, `docs/examples/${file}`, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** A loopback port nobody listens on (a dead server). */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('docs/getting-started.md: the guide shows the example files word for word', () => {
  it('every example of docs/examples/ is in the guide, as it is on disk', () => {
    const blocks = guideBlocks();
    expect(blocks.map((b) => b.file).sort()).toEqual(['ask-the-robot.ts', 'connect-or-give-up.ts']);
    for (const block of blocks) expect(block.shown, `${block.file}: run node scripts/guide-examples.mjs`).toBe(block.onDisk);
  });
});

describe('docs/getting-started.md: its scripts run against the reference server', () => {
  it("ask-the-robot.ts prints the robot's answer to the question (not the welcome) and ends", async () => {
    const run = await runExample('ask-the-robot.ts', [server.url, 'How do I change my password?'], 60_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const robot = run.stdout.split('\n').filter((line) => line.startsWith('robot: '));
    expect(robot).toHaveLength(1);
    expect(robot[0]).toMatch(/Security - Change password/);
  });

  it('connect-or-give-up.ts connects to a live server and ends', async () => {
    const run = await runExample('connect-or-give-up.ts', [server.url, server.socketKey], 60_000);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('connected');
    expect(run.code).toBe(0);
  });

  it('connect-or-give-up.ts gives up on a dead server after its bound (3 attempts 500 ms apart) and ends, exit code 1', async () => {
    const port = await deadPort();
    const run = await runExample('connect-or-give-up.ts', [`http://127.0.0.1:${port}`, server.socketKey], 60_000);
    expect(run.stderr).toBe('');
    const gaveUp = /^gave up \(failed, last close code none\) after (\d+) ms and (\d+) errors\n$/.exec(run.stdout);
    expect(gaveUp, run.stdout).not.toBeNull();
    // 3 attempts 500 ms apart, each refused at once: well under 10 s even on a loaded machine
    expect(Number(gaveUp?.[1])).toBeLessThan(10_000);
    expect(run.code).toBe(1);
    console.log(`[guide] the dead-server script gave up after ${gaveUp?.[1]} ms (${gaveUp?.[2]} error events); the process ended after ${run.ms.toFixed(0)} ms`);
  });
});
