/**
 * Load bench: N visitor clients and N/20 agents (the SDK's `ImClient` from `src/`, over `ws`)
 * against the reference server on 127.0.0.1, beside a bare `ws` echo of the same frames.
 *
 *   npx tsx bench/load.ts [-n 200] [--agents 10] [-d 10] [--rate 1] [--server child|inproc]
 *
 * Bounded: at most 2000 visitors, a window of at most 20 s, and the whole run (server start,
 * ramp, window, drain, baseline, teardown) stops by itself within 60 s, closing everything.
 * See bench/README.md for what each figure means.
 * @module
 */

import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { BOUNDS, parseOptions, USAGE, UsageError, type LoadOptions } from './load/args.js';
import { Baseline } from './load/baseline.js';
import { SdkLoad } from './load/sdk-run.js';
import { benchServerEnv, LOOPBACK, RAISED_LIMITS, startBenchServer, type BenchServerInfo, type BenchServerStats } from './load/server.js';
import { killChildren, spawnChild } from './load/spawn.js';
import { describeProcess, ms, perSecond, ProcessSampler, sleep, type ProcessStats } from './load/stats.js';

/** The server as the bench drives it, in this process or in a child. */
interface ServerHandle {
  info: BenchServerInfo;
  mark(): void;
  stats(): Promise<BenchServerStats>;
  close(): Promise<void>;
  where: string;
}

const started = performance.now();
const remaining = (): number => started + BOUNDS.totalBudgetMs - performance.now();
const DRAIN_MS = 3_000;
const BASELINE_MAX_MS = 5_000;
const RAMP_MAX_MS = 30_000;
const log = (line = ''): void => console.log(line);

function openFileLimit(): number {
  const result = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' });
  const value = Number(result.stdout.trim());
  return Number.isFinite(value) ? value : Number.POSITIVE_INFINITY; // "unlimited"
}

function loadAverage(): string {
  return os.loadavg().map((x) => x.toFixed(2)).join(' / ');
}

function machine(opts: LoadOptions): void {
  const cpus = os.cpus();
  const limit = openFileLimit();
  // one socket per client in the bench process and one per client in the server, plus HTTP
  // keep-alive sockets of the start-up calls and the process's own files
  const needed = opts.visitors + opts.agents + opts.rampConcurrency + opts.agents + 64;
  log(`machine: ${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `Node ${process.version}, ${os.platform()} ${os.arch()}; open-file limit (ulimit -n) ${limit}, this run needs about ${needed} per process`);
  log(`         load average ${loadAverage()} at the start (other processes on this machine share its CPUs)`);
  if (limit < needed) log(`WARNING: raise the open-file limit first (ulimit -n ${Math.ceil(needed / 1024) * 1024 + 1024}): sockets will fail with EMFILE`);
}

async function startServer(opts: LoadOptions, sampler: ProcessSampler): Promise<ServerHandle> {
  const env = benchServerEnv(opts.agents, opts.aes);
  if (opts.server === 'child') {
    const child = await spawnChild('server', env, Math.min(20_000, remaining()));
    return { ...child, where: `in a child process (pid ${child.pid})` };
  }
  const server = await startBenchServer(env, sampler);
  return { ...server, stats: async () => server.stats(), where: 'in the bench process' };
}

function limitsLine(): string {
  return `RATE_SOCKET_MAX=${RAISED_LIMITS.RATE_SOCKET_MAX}/${RAISED_LIMITS.RATE_SOCKET_WINDOW_MS} ms, ` +
    `RATE_HTTP_MAX=${RAISED_LIMITS.RATE_HTTP_MAX}/${RAISED_LIMITS.RATE_HTTP_WINDOW_MS} ms (defaults 10/5000 ms and 300/60000 ms), ` +
    `RATE_KEY_SESSIONS_MAX=${RAISED_LIMITS.RATE_KEY_SESSIONS_MAX} and RATE_CONNECTS_MAX=${RAISED_LIMITS.RATE_CONNECTS_MAX} per address and minute (defaults 60 and 60)`;
}

function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of process.getActiveResourcesInfo()) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

function resourceDiff(before: Map<string, number>, after: Map<string, number>): string {
  const parts: string[] = [];
  for (const [name, n] of after) {
    const diff = n - (before.get(name) ?? 0);
    if (diff > 0) parts.push(`+${diff} ${name}`);
  }
  return parts.length === 0 ? 'none beyond those before the clients were created' : parts.join(', ');
}

async function runSdk(opts: LoadOptions, sampler: ProcessSampler): Promise<void> {
  const server = await startServer(opts, sampler);
  log(`server:  the reference server ${server.where}, ${server.info.url}, in-memory SQLite, AES switch ${opts.aes ? 'on' : 'off'}`);
  log(`         rate limits raised for this run so that it measures throughput, not refusals: ${limitsLine()}`);
  const before = resourceCounts();
  const load = new SdkLoad({ server: server.info, visitors: opts.visitors, agents: opts.agents, rate: opts.rate, rampConcurrency: opts.rampConcurrency });
  try {
    await load.connectAgents(Math.min(10_000, remaining() - 20_000));
    const baselineMs = opts.baseline ? Math.min(opts.durationMs, BASELINE_MAX_MS) + 6_000 : 0;
    const rampBudget = Math.min(RAMP_MAX_MS, remaining() - (opts.durationMs + DRAIN_MS + 3_000 + baselineMs + 2_000));
    if (rampBudget < 2_000) throw new Error('the time budget leaves no room for the ramp (shorten --duration)');
    server.mark();
    sampler.mark();
    const rampStart = performance.now();
    await load.rampVisitors(rampBudget);
    const rampMs = performance.now() - rampStart;
    const rampServer = await server.stats();
    const rampBench = sampler.read();

    server.mark();
    sampler.mark();
    await load.measure(opts.durationMs);
    const windowServer = await server.stats();
    const windowBench = sampler.read();
    const held = load.held();
    await load.drain(DRAIN_MS);
    const lost = load.lost;
    load.destroy();
    await sleep(300);
    const closed = await server.stats();
    await server.close();
    await sleep(200);
    const after = resourceCounts();
    reportSdk(opts, load, { rampMs, rampBudgetMs: rampBudget, rampServer, rampBench, windowServer, windowBench, held, lost, closed, leaks: resourceDiff(before, after) });
  } finally {
    load.destroy();
    await server.close().catch(() => undefined);
  }
}

interface SdkFigures {
  rampMs: number;
  rampBudgetMs: number;
  rampServer: BenchServerStats;
  rampBench: ProcessStats;
  windowServer: BenchServerStats;
  windowBench: ProcessStats;
  held: { visitors: number; agents: number };
  lost: { undelivered: number; unacked: number };
  closed: BenchServerStats;
  leaks: string;
}

function reportSdk(opts: LoadOptions, load: SdkLoad, f: SdkFigures): void {
  const d = opts.durationMs;
  const target = opts.visitors + opts.agents;
  const errors = [load.errors.describe(), load.refusals.describe(), load.drops.describe()].filter((s) => s !== 'none');
  log();
  log(`SDK clients through the reference server (${opts.visitors} visitors, ${opts.agents} agents, ${opts.rate} msg/s per visitor, ${d / 1000} s window)`);
  log(`  connections held      ${f.held.visitors + f.held.agents}/${target} at the end of the window (visitors ${f.held.visitors}/${opts.visitors}, agents ${f.held.agents}/${opts.agents}; the server counted ${f.windowServer.connections})`);
  const waiting = load.opened - load.ready;
  log(`  ramp                  ${load.ready}/${opts.visitors} visitors chatting with an agent after ${ms(f.rampMs)}` +
    `${f.rampMs >= f.rampBudgetMs ? ` (the ramp's ${ms(f.rampBudgetMs)} budget ran out)` : ''}; ${opts.rampConcurrency} handshakes in flight at most`);
  log(`                        not chatting: ${waiting} connected but still waiting for an agent, ${load.cutOff} handshakes cut off by the ramp's end, ${load.failed} failed`);
  log(`  handshake             start+connect ${load.handshake.describe()}`);
  log(`                        start (key exchange) ${load.startup.describe()}`);
  log(`                        socket open ${load.socketOpen.describe()}`);
  log(`                        agents start+connect ${load.agentHandshake.describe()}`);
  log(`  transfer to agent     301 -> agent-joined ${load.joinWait.describe()}`);
  log(`  messages              sent ${load.sent} (${perSecond(load.sent, d)} offered); delivered to agents ${load.deliveredInWindow} within the window = ${perSecond(load.deliveredInWindow, d)}, ${load.delivered} after the drain; undelivered ${f.lost.undelivered}, unacknowledged ${f.lost.unacked}, duplicates ${load.duplicates}`);
  log(`  delivery latency      send -> agent receives: ${load.delivery.describe()}`);
  log(`  ack latency           send -> 'sent' on the visitor: ${load.ack.describe()}`);
  log(`  read receipts         ${load.receiptsBack} receipts (104) from the agents' SDKs reached the visitors`);
  log(`  errors/refusals       ${errors.length === 0 ? 'none' : errors.join('; ')}`);
  log(`  server errors         ${f.closed.errors}${f.closed.firstError ? ` (first: ${f.closed.firstError})` : ''}`);
  const serverLabel = opts.server === 'child' ? 'server process' : 'server+bench process';
  log(`  ${serverLabel.padEnd(22)}ramp: ${describeProcess(f.rampServer)}`);
  log(`                        window: ${describeProcess(f.windowServer)}`);
  if (opts.server === 'child') {
    log(`  bench process         ramp: ${describeProcess(f.rampBench)}`);
    log(`                        window: ${describeProcess(f.windowBench)}`);
  }
  log(`  after destroy()       server connections ${f.closed.connections}; active handles left in the bench process: ${f.leaks}`);
}

async function runBaseline(opts: LoadOptions, sampler: ProcessSampler): Promise<void> {
  const durationMs = Math.min(opts.durationMs, BASELINE_MAX_MS, remaining() - 8_000);
  if (durationMs < 1_000) {
    log('\nBaseline skipped: the 60 s budget is spent.');
    return;
  }
  const echo = await spawnChild('echo', {}, Math.min(10_000, remaining() - durationMs - 3_000));
  const baseline = new Baseline({ url: echo.info.url, clients: opts.visitors, rate: opts.rate, concurrency: opts.rampConcurrency });
  try {
    await baseline.open(Math.min(10_000, remaining() - durationMs - 4_000));
    echo.mark();
    sampler.mark();
    await baseline.measure(durationMs);
    const echoStats = await echo.stats();
    const benchStats = sampler.read();
    const held = baseline.held();
    await baseline.drain(1_000);
    log();
    log(`Baseline: bare ws echo (child process, ${echo.info.url}), ${opts.visitors} plain ws clients, the same JSON frames (${baseline.frameBytes} bytes, unencrypted), ${opts.rate} msg/s each, ${durationMs / 1000} s window`);
    log(`  connections held      ${held}/${opts.visitors}; connect ${baseline.connect.describe()}`);
    log(`  messages              sent ${baseline.sent} (${perSecond(baseline.sent, durationMs)} offered); echoed ${baseline.echoedInWindow} within the window = ${perSecond(baseline.echoedInWindow, durationMs)}, ${baseline.echoed} after the drain; lost ${baseline.lost}`);
    log(`  round trip            send -> echo received: ${baseline.roundTrip.describe()}`);
    log(`  errors                ${baseline.errors.describe()}`);
    log(`  echo process          ${describeProcess(echoStats)}`);
    log(`  bench process         ${describeProcess(benchStats)}`);
  } finally {
    await baseline.close();
    await echo.close();
  }
}

async function main(): Promise<number> {
  let opts: LoadOptions | 'help';
  try {
    opts = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (opts === 'help') {
    log(USAGE);
    return 0;
  }
  const watchdog = setTimeout(() => {
    console.error(`\nABORTED: the run passed its ${BOUNDS.totalBudgetMs / 1000} s budget; children killed.`);
    killChildren();
    process.exit(3);
  }, BOUNDS.totalBudgetMs);
  watchdog.unref();
  log(`kefu-im load bench: ${opts.visitors} visitors, ${opts.agents} agents, ${opts.rate} msg/s per visitor, ${opts.durationMs / 1000} s window, all on ${LOOPBACK}`);
  machine(opts);
  const sampler = new ProcessSampler();
  try {
    await runSdk(opts, sampler);
    if (opts.baseline) await runBaseline(opts, sampler);
  } finally {
    sampler.stop();
    killChildren();
  }
  log(`\ndone in ${ms(performance.now() - started)}; load average ${loadAverage()} at the end`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('load bench failed:', error instanceof Error ? error.message : error);
    killChildren();
    process.exit(1);
  },
);
