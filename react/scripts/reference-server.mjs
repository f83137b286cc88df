#!/usr/bin/env node
// Starts the reference server (examples/server) on a free loopback port with an in-memory
// database, for the bindings' network tests, in a process of its own: the tests run in a DOM
// environment whose globals (URL, fetch) a Node server must not see.
// Run with `node --import tsx react/scripts/reference-server.mjs`; prints one JSON line
// `{ "url": ... }` once listening, stops on SIGTERM or when stdin closes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../examples/server/src/config.ts';
import { createServer } from '../../examples/server/src/server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'kefu-react-server-'));
const config = loadConfig(
  { AGENTS: 'alice:secret1:Alice' },
  { port: 0, host: '127.0.0.1', memoryDb: true, log: false, dataDir, appDir: join(dataDir, 'no-app') },
);
const server = await createServer(config, { onError: (error) => console.error('[reference-server]', error) });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
