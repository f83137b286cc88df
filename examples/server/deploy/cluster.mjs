#!/usr/bin/env node
/**
 * `npm run cluster -w @kefu-im/server -- [--nodes N] [--port P]`: a local demo of the server as
 * N nodes behind HAProxy. Node i listens on P+i (P = 8080 by default, HAProxy on P), all with the
 * same environment.
 *
 * With `DATABASE_URL` and `REDIS_URL` set (the real cluster), the nodes keep everything in
 * PostgreSQL, deliver to each other through Redis and share `FILES_DIR`. Without them, the nodes
 * share one DATA_DIR (one SQLite file in WAL mode and one key pair) and, with `REDIS_URL` alone,
 * still deliver to each other. Ctrl-C stops everything.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const serverDir = resolve(here, '..');
const { values } = parseArgs({ options: { nodes: { type: 'string', default: '2' }, port: { type: 'string', default: process.env.PORT ?? '8080' } } });
const nodes = Number(values.nodes);
const port = Number(values.port);
if (!Number.isInteger(nodes) || nodes < 1 || nodes > 16) throw new Error(`--nodes must be 1-16, got ${values.nodes}`);
if (!Number.isInteger(port) || port < 1 || port + nodes > 65535) throw new Error(`--port must be a free port, got ${values.port}`);
const haproxy = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((p) => existsSync(p));
if (!haproxy) {
  console.error('HAProxy is not installed (Debian: apt-get install -y haproxy).');
  process.exit(2);
}
if (!existsSync(join(serverDir, 'dist', 'main.js'))) {
  console.error('The server is not built: run `npm run build` at the repository root first.');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'kefu-cluster-'));
const publicUrl = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  HOST: '127.0.0.1',
  PUBLIC_URL: process.env.PUBLIC_URL ?? publicUrl,
  TRUST_PROXY: process.env.TRUST_PROXY ?? '127.0.0.1',
  DATA_DIR: process.env.DATA_DIR ?? join(work, 'data'),
  FILES_DIR: process.env.FILES_DIR ?? join(work, 'files'),
};
const clustered = (env.DATABASE_URL ?? '') !== '';
const delivering = (env.REDIS_URL ?? '') !== '';
const children = [];
function stop(code = 0) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => {
    rmSync(work, { recursive: true, force: true });
    process.exit(code);
  }, 1500).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

function start(name, command, args, extra = {}) {
  const child = spawn(command, args, { cwd: serverDir, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const prefix = (chunk) => chunk.toString('utf8').split('\n').filter((l) => l !== '').map((l) => `[${name}] ${l}`).join('\n');
  child.stdout.on('data', (c) => console.log(prefix(c)));
  child.stderr.on('data', (c) => console.error(prefix(c)));
  child.on('exit', (code, signal) => console.log(`[${name}] exited (${code ?? signal})`));
  return child;
}

/** Resolves once `url` answers 200 (or rejects after `ms`). */
async function ready(url, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

try {
  await run();
} catch (error) {
  console.error(`cluster failed: ${error instanceof Error ? error.message : error}`);
  stop(1);
}

async function run() {
// the first node creates the schema, the keys and the demo data; the others start after it
for (let i = 1; i <= nodes; i++) {
  start(`node${i}`, process.execPath, ['dist/main.js'], {
    PORT: String(port + i),
    NODE_ID: `node${i}`,
    // on SQLite the nodes share DATA_DIR; on PostgreSQL each keeps its own (only logs live there)
    ...(clustered ? { DATA_DIR: join(work, `data-node${i}`) } : {}),
  });
  await ready(`http://127.0.0.1:${port + i}/readyz`);
}
const template = readFileSync(join(here, 'haproxy.cfg'), 'utf8');
const servers = Array.from({ length: nodes }, (_, k) => `  server node${k + 1} 127.0.0.1:${port + k + 1} check`).join('\n');
const config = template.replace(/bind 127\.0\.0\.1:\d+/, `bind 127.0.0.1:${port}`).replace(/  # nodes\n(  server .*\n?)+/, `  # nodes\n${servers}\n`);
const cfgFile = join(work, 'haproxy.cfg');
writeFileSync(cfgFile, config);
const balancer = start('haproxy', haproxy, ['-db', '-f', cfgFile]);
balancer.on('exit', () => stop(1));
await ready(`${publicUrl}/readyz`);
console.log(`\nkefu-im cluster: ${nodes} node(s) behind HAProxy at ${publicUrl}`);
console.log(`  visitor entry and agent desk: as printed by the nodes, on ${publicUrl}`);
console.log(clustered ? `  store: PostgreSQL (${env.DATABASE_URL.replace(/\/\/[^@/]*@/, '//***@')}), files in ${env.FILES_DIR}` : `  store: one shared SQLite file in ${env.DATA_DIR} (WAL mode; set DATABASE_URL for PostgreSQL)`);
console.log(delivering ? '  delivery between nodes: Redis' : '  note: REDIS_URL is not set: a message reaches the sockets of the node that accepted it at once;\n        clients on other nodes get it at their next catch-up (by seq)');
console.log('  Ctrl-C stops everything.');
}
