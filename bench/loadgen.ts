/**
 * Protocol-level load generator: measures the reference server, not a client. No SDK: the
 * virtual clients speak the wire protocol with node:crypto and `ws` (bench/loadgen/protocol.ts),
 * spread over several worker processes; the server (unless `--url`) and a bare `ws` echo server
 * run in their own processes. Phases: back-to-back handshakes, active chats (visitor <-> agent)
 * beside the echo baseline, and idle sockets held with heartbeats. Loopback only unless `--url`,
 * bounded in count and time, stops by itself. `npm run bench:server -- --help`.
 * @module
 */

import { parseArgs, UsageError, USAGE } from './loadgen/args.js';
import { agentAccounts, parseAgentList, parseServerEnv, RAISED_LIMITS } from './loadgen/limits.js';
import { chatPhase, echoPhase, handshakePhase, idlePhase } from './loadgen/phases.js';
import { killAll } from './loadgen/procs.js';
import { machineLine, startRig, stopRig } from './loadgen/rig.js';

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const o = parseArgs(process.argv.slice(2));
  const watchdog = setTimeout(() => {
    console.error(`loadgen: the run exceeded ${o.maxSeconds} s; stopping everything`);
    killAll();
    process.exit(3);
  }, o.maxSeconds * 1000);
  watchdog.unref();
  console.log(machineLine());
  const agents = o.url === '' ? agentAccounts(o.agents) : parseAgentList(process.env['LOADGEN_AGENTS'] ?? '');
  const { rig, info, echoUrl } = await startRig(o, o.phases.includes('chat'));
  console.log(
    `target: ${o.url === '' ? `reference server (child pid ${rig.server?.pid}, ${(rig.server?.info as { db?: string } | undefined)?.db ?? 'SQLite'}, RSA ${o.rsa}, AES switch ${o.aes ? 'on' : 'off'})` : `${o.url} (external)`} at ${info.url}; ${o.workers} generator workers (pids ${rig.workers.map((w) => w.pid).join(', ')})`,
  );
  if (o.url === '') {
    const extra = parseServerEnv(process.env['LOADGEN_SERVER_ENV'] ?? '');
    const limits = { ...RAISED_LIMITS, ...extra };
    console.log(`server limits: ${Object.entries(limits).map(([k, v]) => `${k}=${v}`).join(' ')} (RAISED_LIMITS in bench/loadgen/limits.ts, LOADGEN_SERVER_ENV)`);
  }
  try {
    for (const phase of o.phases) {
      console.log('');
      if (phase === 'handshake') {
        console.log((await handshakePhase(rig, o.handshakeSeconds, o.concurrency)).lines.join('\n'));
      } else if (phase === 'chat') {
        if (agents.length === 0) throw new UsageError('the chat phase against --url needs LOADGEN_AGENTS=account:password,...');
        const chat = await chatPhase(rig, { chats: o.chats, agents, rate: o.rate, seconds: o.seconds, rampSeconds: o.rampSeconds, concurrency: o.concurrency });
        console.log(chat.lines.join('\n'));
        console.log('');
        console.log((await echoPhase(rig, echoUrl, Math.max(1, chat.chatting), o.rate, o.seconds)).join('\n'));
      } else {
        console.log((await idlePhase(rig, o.idle, o.concurrency, o.rampSeconds, o.holdSeconds)).lines.join('\n'));
      }
    }
  } finally {
    await stopRig(rig);
    clearTimeout(watchdog);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error);
  killAll();
  process.exit(error instanceof UsageError ? 2 : 1);
});
