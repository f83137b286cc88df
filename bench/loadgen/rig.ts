/**
 * The processes of a load-generator run: the server under test (unless `--url`), the bare `ws`
 * echo server, and the generator workers, started and stopped together.
 * @module
 */

import { execSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import type { LoadgenOptions } from './args.js';
import { SERVER_CONFIG_VAR } from './ipc.js';
import { parseServerEnv, serverEnv } from './limits.js';
import type { Rig } from './phases.js';
import { startChild, type Child } from './procs.js';
import { fetchServerInfo, type ServerInfo } from './protocol.js';

/** Starts the processes of a run: server (unless `url`), echo server, workers (initialised). */
export async function startRig(o: Pick<LoadgenOptions, 'url' | 'workers' | 'agents' | 'aes' | 'rsa' | 'maxSeconds'> & Partial<Pick<LoadgenOptions, 'db'>>, withEcho: boolean): Promise<{ rig: Rig; info: ServerInfo; echoUrl: string }> {
  const selfLimit = { LOADGEN_SELF_LIMIT_MS: String((o.maxSeconds + 30) * 1000) };
  const rig: Rig = { workers: [] };
  let info: ServerInfo;
  if (o.url === '') {
    const env = serverEnv(o.agents, o.aes, parseServerEnv(process.env['LOADGEN_SERVER_ENV'] ?? ''));
    // LOADGEN_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": Node flags of the server only
    const nodeArgs = (process.env['LOADGEN_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter((a) => a.startsWith('--'));
    rig.server = await startChild('server', './server-child.ts', ['--server', `--rsa=${o.rsa}`, `--db=${o.db ?? 'memory'}`], { ...selfLimit, [SERVER_CONFIG_VAR]: JSON.stringify(env) }, 60_000, nodeArgs);
    info = rig.server.info as ServerInfo;
  } else {
    info = await fetchServerInfo(o.url);
  }
  let echoUrl = '';
  if (withEcho) {
    rig.echo = await startChild('echo', './server-child.ts', ['--echo'], selfLimit, 60_000);
    echoUrl = (rig.echo.info as { url: string }).url;
  }
  rig.workers = await Promise.all(Array.from({ length: o.workers }, (_, i) => startChild(`worker ${i + 1}`, './worker.ts', [], selfLimit, 60_000)));
  await Promise.all(rig.workers.map((w) => w.request('init', { info })));
  return { rig, info, echoUrl };
}

/** Stops every process of a run. */
export async function stopRig(rig: Rig): Promise<void> {
  const all: Child[] = [...rig.workers, ...(rig.echo ? [rig.echo] : []), ...(rig.server ? [rig.server] : [])];
  await Promise.all(all.map((c) => c.stop()));
}

/** One line about the machine: cores, load, fd limit. */
export function machineLine(): string {
  let fds = '?';
  try {
    fds = execSync('ulimit -Hn', { shell: '/bin/sh' }).toString().trim();
  } catch {
    // unknown
  }
  return `machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}, fd hard limit ${fds} (children raise their soft limit to it)`;
}

