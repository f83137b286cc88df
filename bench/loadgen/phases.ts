/**
 * The coordinator's phases: each splits its work over the generator workers, marks every process
 * at the start of its window, gathers the workers' raw samples, and returns printable lines
 * (latencies, rates, and how the CPU was shared between the server and the generator).
 * @module
 */

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describeProcess, Samples, sleep, type ProcessStats } from '../load/stats.js';
import type { ChatResult } from './chat.js';
import { describeCounts, mergeCounts } from './counts.js';
import type { EchoResult } from './echo.js';
import type { HandshakeResult, IdleOpenResult } from './idle.js';
import type { Child } from './procs.js';

/** The processes of a run. */
export interface Rig {
  /** The reference server when the run started it (absent with `--url`). */
  server?: Child;
  /** The bare ws echo server. */
  echo?: Child;
  /** Generator workers. */
  workers: Child[];
}

/** Server figures (a {@link ProcessStats} plus its own counters). */
export interface ServerStats extends ProcessStats {
  /** Open sockets. */
  connections: number;
  /** Unexpected errors reported by the server since start. */
  errors: number;
  /** The first one. */
  firstError: string;
}

function samples(values: readonly number[][]): Samples {
  const out = new Samples();
  for (const list of values) for (const v of list) out.add(v);
  return out;
}

/** Splits `total` over `parts` as evenly as possible. */
export function split(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/** Busy and total CPU ticks of the whole machine (/proc/stat), or undefined off Linux. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

let machineMark = machineTicks();

async function markAll(rig: Rig): Promise<void> {
  machineMark = machineTicks();
  await Promise.all([rig.server?.request('mark'), rig.echo?.request('mark'), ...rig.workers.map((w) => w.request('mark'))]);
}

/**
 * CPU share lines of the processes since the last mark, and how the machine's cores were shared:
 * the server, the generator (workers and echo), and every other process on the machine.
 */
export async function cpuLines(rig: Rig, withEcho = false): Promise<string[]> {
  const lines: string[] = [];
  let ours = 0;
  let server = 0;
  let wall = 0;
  if (rig.server) {
    const s = await rig.server.request<ServerStats>('stats');
    server = s.cpuMs;
    wall = s.wallMs;
    lines.push(`  server    : ${describeProcess(s)}, ${s.connections} sockets, ${s.errors} unexpected errors${s.firstError ? ` (${s.firstError})` : ''}`);
  }
  if (withEcho && rig.echo) {
    const e = await rig.echo.request<ProcessStats>('stats');
    ours += e.cpuMs;
    lines.push(`  echo      : ${describeProcess(e)}`);
  }
  const stats = await Promise.all(rig.workers.map((w) => w.request<ProcessStats>('stats')));
  stats.forEach((s, i) => {
    ours += s.cpuMs;
    wall = Math.max(wall, s.wallMs);
    lines.push(`  worker ${i + 1}  : ${describeProcess(s)}`);
  });
  const now = machineTicks();
  if (now && machineMark && now.total > machineMark.total && wall > 0) {
    const cores = availableParallelism();
    const busyCores = (cores * (now.busy - machineMark.busy)) / (now.total - machineMark.total);
    const serverCores = server / wall;
    const generatorCores = ours / wall;
    const others = Math.max(0, busyCores - serverCores - generatorCores);
    const serverPart = rig.server ? `server ${serverCores.toFixed(2)} + ` : '';
    const rest = rig.server ? 'everything else on the machine' : 'everything else (the target, if local, and other work)';
    lines.push(`  cores     : ${busyCores.toFixed(2)} of ${cores} busy = ${serverPart}generator ${generatorCores.toFixed(2)} + ${rest} ${others.toFixed(2)}`);
  }
  return lines;
}

/**
 * Back-to-back handshakes for `seconds` with `concurrency` in flight (split over the workers),
 * after one unmeasured second that warms up both sides (JIT, connection pools, statements).
 */
export async function handshakePhase(rig: Rig, seconds: number, concurrency: number): Promise<{ rate: number; lines: string[] }> {
  const parts = split(concurrency, rig.workers.length);
  await Promise.all(rig.workers.map((w, i) => w.request<HandshakeResult>('handshakes', { durationMs: 1000, concurrency: Math.max(1, parts[i] ?? 1) })));
  await markAll(rig);
  const results = await Promise.all(rig.workers.map((w, i) => w.request<HandshakeResult>('handshakes', { durationMs: seconds * 1000, concurrency: Math.max(1, parts[i] ?? 1) })));
  const done = results.reduce((n, r) => n + r.done, 0);
  const wall = Math.max(...results.map((r) => r.wallMs));
  const rate = (done * 1000) / wall;
  // server CPU per handshake: robust to a shared machine (what a free core would sustain)
  const serverCpu = rig.server ? (await rig.server.request<ServerStats>('stats')).cpuMs : Number.NaN;
  const perHandshake = serverCpu / Math.max(1, done);
  const lines = [
    `handshakes: ${done} in ${(wall / 1000).toFixed(1)} s = ${rate.toFixed(0)}/s (key exchange: 2 HTTP calls; then socket connect to welcome), ${concurrency} in flight`,
    ...(rig.server ? [`  server CPU ${perHandshake.toFixed(2)} ms per handshake: one free core would sustain about ${(1000 / perHandshake).toFixed(0)}/s`] : []),
    `  key exchange ${samples(results.map((r) => r.keyExchange)).describe()}`,
    `  socket->welcome ${samples(results.map((r) => r.socket)).describe()}`,
    `  failures: ${describeCounts(mergeCounts(results.map((r) => r.errors)))}`,
    ...(await cpuLines(rig)),
  ];
  return { rate, lines };
}

/** Chat phase: `chats` visitors with `agents` agents, `rate` texts/s each for `seconds`. */
export async function chatPhase(
  rig: Rig,
  opts: { chats: number; agents: { account: string; password: string }[]; rate: number; seconds: number; rampSeconds: number; concurrency: number },
): Promise<{ lines: string[]; chatting: number }> {
  const visitorParts = split(opts.chats, rig.workers.length);
  const agentParts = split(opts.agents.length, rig.workers.length);
  let first = 0;
  const agentSlices = agentParts.map((n) => opts.agents.slice(first, (first += n)));
  await markAll(rig);
  const started = performance.now();
  const pending = rig.workers.map((w, i) =>
    w.request<ChatResult>(
      'chat',
      { worker: i + 1, visitors: visitorParts[i] ?? 0, agents: agentSlices[i] ?? [], rate: opts.rate, windowMs: opts.seconds * 1000, rampMs: opts.rampSeconds * 1000, concurrency: Math.max(1, Math.floor(opts.concurrency / rig.workers.length)) },
      (opts.rampSeconds + opts.seconds + 30) * 1000,
    ),
  );
  const results = await Promise.all(pending);
  const cpu = await cpuLines(rig);
  const chatting = results.reduce((n, r) => n + r.chatting, 0);
  const connected = results.reduce((n, r) => n + r.connected, 0);
  const sent = results.reduce((n, r) => n + r.sent, 0);
  const delivered = results.reduce((n, r) => n + r.delivered, 0);
  const answered = results.reduce((n, r) => n + r.answered, 0);
  // the server's CPU over the window alone (no connects): per text in (a visitor's and its answer), each stored, acknowledged and delivered
  const from = Math.min(...results.map((r) => r.window.from));
  const to = Math.max(...results.map((r) => r.window.to));
  const windowCpu = rig.server && from > 0 ? await rig.server.request<{ cpuMs: number; wallMs: number }>('cpu-between', { from, to }) : undefined;
  const textsIn = sent + delivered;
  const lines = [
    `chat: ${connected}/${opts.chats} visitors connected, ${chatting} chatting with ${opts.agents.length} agents after a ${(Math.max(...results.map((r) => r.rampMs)) / 1000).toFixed(1)} s ramp (${((performance.now() - started) / 1000).toFixed(1)} s in all)`,
    `  window ${opts.seconds} s at ${opts.rate}/s per visitor: sent ${sent}, delivered to agents ${delivered}, answers back ${answered}, not answered within the 3 s drain ${sent - answered}`,
    ...(windowCpu && windowCpu.wallMs > 0
      ? [`  server CPU in the window: ${((windowCpu.cpuMs * 1000) / Math.max(1, textsIn)).toFixed(0)} us per text in (${textsIn} texts: visitors' and agents' answers), ${(windowCpu.cpuMs / windowCpu.wallMs).toFixed(2)} of a core over ${(windowCpu.wallMs / 1000).toFixed(1)} s`]
      : []),
    `  acknowledgement (visitor send to the server's copy back) ${samples(results.map((r) => r.ack)).describe()}`,
    `  visitor->agent delivery ${samples(results.map((r) => r.toAgent)).describe()}`,
    `  round trip visitor->agent->visitor ${samples(results.map((r) => r.roundTrip)).describe()}`,
    `  failures: ${describeCounts(mergeCounts(results.map((r) => r.errors)))}; refusals: ${describeCounts(mergeCounts(results.map((r) => r.refusals)))}`,
    '  cpu over ramp + window:',
    ...cpu,
  ];
  return { lines, chatting };
}

/** Echo baseline: `clients` plain ws clients at `rate`/s for `seconds` against the echo child. */
export async function echoPhase(rig: Rig, url: string, clients: number, rate: number, seconds: number): Promise<string[]> {
  await markAll(rig);
  const parts = split(clients, rig.workers.length);
  const results = await Promise.all(rig.workers.map((w, i) => w.request<EchoResult>('echo', { url, clients: parts[i] ?? 0, rate, windowMs: seconds * 1000 }, (seconds + 30) * 1000)));
  const sent = results.reduce((n, r) => n + r.sent, 0);
  const echoed = results.reduce((n, r) => n + r.echoed, 0);
  const withoutServer: Rig = { workers: rig.workers, ...(rig.echo ? { echo: rig.echo } : {}) };
  return [
    `echo baseline: ${results.reduce((n, r) => n + r.connected, 0)}/${clients} plain ws clients, ${rate}/s each for ${seconds} s: sent ${sent}, echoed ${echoed}`,
    `  round trip ${samples(results.map((r) => r.roundTrip)).describe()}`,
    `  failures: ${describeCounts(mergeCounts(results.map((r) => r.errors)))}`,
    ...(await cpuLines(withoutServer, true)),
  ];
}

/** Idle phase: ramp `total` idle visitors, hold them `holdSeconds`, report what the server holds. */
export async function idlePhase(rig: Rig, total: number, concurrency: number, rampSeconds: number, holdSeconds: number): Promise<{ held: number; lines: string[] }> {
  await markAll(rig);
  const parts = split(total, rig.workers.length);
  const conc = split(concurrency, rig.workers.length);
  const opened = await Promise.all(rig.workers.map((w, i) => w.request<IdleOpenResult>('idle-open', { count: parts[i] ?? 0, concurrency: Math.max(1, conc[i] ?? 1), deadlineMs: rampSeconds * 1000 }, (rampSeconds + 30) * 1000)));
  const rampMs = Math.max(...opened.map((r) => r.rampMs));
  const rampCpu = await cpuLines(rig);
  await markAll(rig);
  await sleep(holdSeconds * 1000);
  const held = await Promise.all(rig.workers.map((w) => w.request<{ held: number; closes: Record<string, number> }>('idle-held')));
  const heldCount = held.reduce((n, h) => n + h.held, 0);
  const holdCpu = await cpuLines(rig);
  const lines = [
    `idle sockets: ${opened.reduce((n, r) => n + r.held, 0)}/${total} open after a ${(rampMs / 1000).toFixed(1)} s ramp (${((opened.reduce((n, r) => n + r.held, 0) * 1000) / rampMs).toFixed(0)} connects/s, ${concurrency} in flight); ${heldCount} still open after holding ${holdSeconds} s with heartbeats`,
    `  key exchange ${samples(opened.map((r) => r.keyExchange)).describe()}`,
    `  socket->welcome ${samples(opened.map((r) => r.socket)).describe()}`,
    `  ramp failures: ${describeCounts(mergeCounts(opened.map((r) => r.errors)))}; closed while held: ${describeCounts(mergeCounts(held.map((h) => h.closes)))}`,
    '  cpu over the ramp:',
    ...rampCpu,
    `  over the hold (server RSS and event-loop lag while holding ${heldCount} sockets):`,
    ...holdCpu,
  ];
  await Promise.all(rig.workers.map((w) => w.request('idle-release', undefined, 60_000)));
  return { held: heldCount, lines };
}
