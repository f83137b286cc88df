/**
 * Entry of the process under test (forked by the coordinator, never run by hand): `--server`
 * runs the reference server (`createServer`, 127.0.0.1, port 0, in-memory database or with `--db=file` a file in a temporary
 * data directory; configuration from the JSON environment in `LOADGEN_SERVER_CONFIG`; RSA
 * decryption native or, with `--rsa=jsencrypt`, the old pure-JS path), `--echo` a bare `ws` echo
 * server. It reports its address, and its CPU, event-loop lag, memory and connections on request.
 * @module
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { loadConfig } from '../../examples/server/src/config.js';
import { rsaPrivateKey, rsaPrivateKeyJs } from '../../examples/server/src/crypto.js';
import { createServer } from '../../examples/server/src/server.js';
import { ProcessSampler } from '../load/stats.js';
import { SERVER_CONFIG_VAR, serveRequests } from './ipc.js';

const LOOPBACK = '127.0.0.1';
const SELF_LIMIT_MS = Number(process.env['LOADGEN_SELF_LIMIT_MS'] ?? 600_000);

interface Target {
  info: unknown;
  connections(): number;
  close(): Promise<void>;
}

let errors = 0;
let firstError = '';

async function startReference(): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-loadgen-'));
  // removed however the process ends (a forced exit while 10 000 sockets close included)
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const env = JSON.parse(process.env[SERVER_CONFIG_VAR] ?? '{}') as Record<string, string>;
  const memoryDb = !process.argv.includes('--db=file');
  const config = loadConfig(env, { port: 0, host: LOOPBACK, memoryDb, dataDir, appDir: join(dataDir, 'no-app'), log: false });
  const js = process.argv.includes('--rsa=jsencrypt');
  const server = await createServer(config, {
    rsaKey: js ? rsaPrivateKeyJs : rsaPrivateKey,
    onError: (error) => {
      errors += 1;
      if (firstError === '') firstError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    },
  });
  return {
    info: { url: server.url, socketUrl: server.socketUrl, socketKey: server.socketKey, aesSwitch: config.aesSwitch, rsa: js ? 'jsencrypt' : 'native', db: memoryDb ? 'in-memory SQLite' : `SQLite file (WAL, synchronous ${config.sqliteSynchronous})` },
    connections: () => server.connections(),
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startEcho(): Promise<Target> {
  const wss = new WebSocketServer({ host: LOOPBACK, port: 0, maxPayload: 64 * 1024, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('connection', (ws) => {
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
  const address = wss.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    info: { url: `ws://${LOOPBACK}:${port}` },
    connections: () => wss.clients.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** This process's CPU time (ms) every 250 ms, so that the CPU of a window known only afterwards can be read. */
const cpuTrail: { at: number; cpuMs: number }[] = [];

function sampleCpu(): void {
  const usage = process.cpuUsage();
  cpuTrail.push({ at: Date.now(), cpuMs: (usage.user + usage.system) / 1000 });
  if (cpuTrail.length > 4 * 1200) cpuTrail.shift();
}

/** CPU ms and wall ms between the samples around `from` and `to` (epoch ms). */
function cpuBetween(args: unknown): { cpuMs: number; wallMs: number } {
  const { from, to } = args as { from: number; to: number };
  sampleCpu();
  const start = [...cpuTrail].reverse().find((s) => s.at <= from) ?? cpuTrail[0];
  const end = cpuTrail.find((s) => s.at >= to) ?? cpuTrail[cpuTrail.length - 1];
  if (!start || !end) return { cpuMs: 0, wallMs: 0 };
  return { cpuMs: end.cpuMs - start.cpuMs, wallMs: end.at - start.at };
}

async function main(): Promise<void> {
  setTimeout(() => process.exit(4), SELF_LIMIT_MS).unref();
  sampleCpu();
  setInterval(sampleCpu, 250).unref();
  const sampler = new ProcessSampler();
  const target = process.argv.includes('--echo') ? await startEcho() : await startReference();
  serveRequests(async (cmd, args) => {
    if (cmd === 'mark') return sampler.mark();
    if (cmd === 'cpu-between') return cpuBetween(args);
    if (cmd === 'stats') return { ...sampler.read(), connections: target.connections(), errors, firstError };
    if (cmd === 'exit') {
      setTimeout(() => process.exit(0), 5000).unref();
      await target.close();
      setTimeout(() => process.exit(0), 10);
      return true;
    }
    throw new Error(`unknown command ${cmd}`);
  });
  process.send?.({ ready: true, info: target.info });
}

main().catch((error: unknown) => {
  console.error('[loadgen server]', error);
  process.exit(1);
});
