/**
 * Entry of a generator worker process (forked by the coordinator, never run by hand). It holds
 * its own share of the virtual clients and runs the phase the coordinator asks for; answers go
 * back over IPC. It exits when the coordinator says `exit`, when the coordinator goes away, or
 * after its self-limit.
 * @module
 */

import { ProcessSampler } from '../load/stats.js';
import { runChat, type ChatArgs } from './chat.js';
import { runEcho, type EchoArgs } from './echo.js';
import { IdleFleet, runHandshakes } from './idle.js';
import { serveRequests } from './ipc.js';
import { parseSocketKey, type ServerInfo, type SocketKey } from './protocol.js';

const SELF_LIMIT_MS = Number(process.env['LOADGEN_SELF_LIMIT_MS'] ?? 600_000);
setTimeout(() => process.exit(4), SELF_LIMIT_MS).unref();

const sampler = new ProcessSampler();
let target: { info: ServerInfo; key: SocketKey } | undefined;
let fleet: IdleFleet | undefined;

function server(): { info: ServerInfo; key: SocketKey } {
  if (!target) throw new Error('init first');
  return target;
}

serveRequests(async (cmd, args) => {
  const a = (args ?? {}) as Record<string, unknown>;
  switch (cmd) {
    case 'init': {
      const info = a['info'] as ServerInfo;
      target = { info, key: parseSocketKey(info.socketKey) };
      return true;
    }
    case 'handshakes':
      return runHandshakes(server().info, server().key, Number(a['durationMs']), Number(a['concurrency']));
    case 'idle-open':
      fleet ??= new IdleFleet(server().info, server().key);
      return fleet.open(Number(a['count']), Number(a['concurrency']), Number(a['deadlineMs']));
    case 'idle-held':
      return { held: fleet?.held() ?? 0, closes: fleet?.closedByServer() ?? {} };
    case 'idle-release':
      await fleet?.release();
      fleet = undefined;
      return true;
    case 'chat':
      return runChat(server().info, server().key, a as unknown as ChatArgs);
    case 'echo':
      return runEcho(a as unknown as EchoArgs);
    case 'mark':
      sampler.mark();
      return true;
    case 'stats':
      return sampler.read();
    case 'exit':
      setTimeout(() => process.exit(0), 10);
      return true;
    default:
      throw new Error(`unknown command ${cmd}`);
  }
});
process.send?.({ ready: true });
