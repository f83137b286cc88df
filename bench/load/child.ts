/**
 * Child-process entry of the load bench (started by `spawn.ts`, never by hand): `--server` runs
 * the reference server, `--echo` a bare `ws` echo server, both on 127.0.0.1 port 0. It reports
 * where it listens and its figures over IPC, and exits when the parent says `close`, when the
 * parent goes away, or after 75 s whatever happens.
 * @module
 */

import { WebSocketServer } from 'ws';
import { CHILD_CONFIG_VAR, isToChild, type FromChild } from './ipc.js';
import { LOOPBACK, startBenchServer, type BenchServer } from './server.js';
import { ProcessSampler } from './stats.js';

/** A frame larger than the reference server accepts is refused by the echo server as well. */
const MAX_FRAME_BYTES = 64 * 1024;
const SELF_LIMIT_MS = 75_000;

function tell(message: FromChild): void {
  process.send?.(message);
}

async function startEcho(sampler: ProcessSampler): Promise<BenchServer> {
  const wss = new WebSocketServer({ host: LOOPBACK, port: 0, maxPayload: MAX_FRAME_BYTES });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  let echoed = 0;
  wss.on('connection', (ws) => {
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      echoed += 1;
      ws.send(data, { binary: isBinary });
    });
  });
  const address = wss.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    info: { url: `ws://${LOOPBACK}:${port}`, socketUrl: `ws://${LOOPBACK}:${port}`, socketKey: '' },
    mark: () => sampler.mark(),
    stats: () => ({ ...sampler.read(), connections: wss.clients.size, errors: 0, firstError: `echoed ${echoed}` }),
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

async function main(): Promise<void> {
  const selfLimit = setTimeout(() => process.exit(4), SELF_LIMIT_MS);
  selfLimit.unref();
  const sampler = new ProcessSampler();
  const server = process.argv.includes('--echo')
    ? await startEcho(sampler)
    : await startBenchServer(JSON.parse(process.env[CHILD_CONFIG_VAR] ?? '{}') as Record<string, string>, sampler);
  let closing = false;
  const close = (): void => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 5_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('disconnect', close);
  process.on('message', (message: unknown) => {
    if (!isToChild(message)) return;
    if (message.cmd === 'mark') server.mark();
    else if (message.cmd === 'stats') tell({ kind: 'stats', id: message.id, stats: server.stats() });
    else close();
  });
  tell({ kind: 'ready', info: server.info });
}

main().catch((error: unknown) => {
  tell({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
