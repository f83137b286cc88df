/**
 * Redis goes away under a running cluster node and comes back: chat on the node goes on (texts
 * acknowledged, delivered to an agent on the same node, limits counted in memory meanwhile), and
 * delivery between nodes resumes once Redis is back. A private `redis-server` on a free port is
 * started and killed by the test, so other test files' Redis is never touched. Skips when
 * `redis-server` is missing, except under CI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { isEvent, keyExchange, TestSocket } from '../../../conformance/src/client/index.js';
import { redisServerUnavailable, skipUnlessCi } from './helpers/prerequisites.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const skip = skipUnlessCi('redis-outage', redisServerUnavailable());

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a throwaway redis-server on `port`; resolves once it accepts connections. */
async function redisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}

const where = { mchId: 'M1001', platformId: 'P01' };
/** How ioredis fails a command while its server is away. */
const REDIS_AWAY = /max retries per request|Connection is closed|ECONNREFUSED|ECONNRESET|Stream isn't writeable/i;

describe.skipIf(skip)('Redis outage under a cluster node', () => {
  const dataDir = tempDir();
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    removeDir(dataDir);
  });

  it('keeps chat going on each node while Redis is away, and delivers between nodes again once it is back', async () => {
    const port = await freePort();
    children.push(await redisServer(port));
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, CLUSTER_NAME: `outage-${randomUUID()}` };
    const a = await startServer({ memoryDb: false, dataDir }, { ...env, NODE_ID: 'a' });
    const b = await startServer({ memoryDb: false, dataDir }, { ...env, NODE_ID: 'b' });
    try {
      // the agent on node A, the visitor on node A: they chat
      const agent = await TestSocket.connect(a.socketUrl, a.socketKey, await keyExchange(a.url), 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
      await agent.next((m) => m.type === 310);
      const id = randomUUID();
      const visitor = await TestSocket.connect(a.socketUrl, a.socketKey, await keyExchange(a.url), id, { ...where, language: 'en' });
      visitor.say(id, 301, '{}');
      await agent.next((m) => m.type === 310 && String(m.dataContent).includes(id));
      agent.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) });
      await visitor.next(isEvent('agent-joined'));

      // Redis goes away
      children[0]?.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      const during = visitor.say(id, 100, 'while Redis is away');
      await visitor.next((m) => m.fp === during, 10_000); // acknowledged
      expect(await agent.next((m) => m.fp === during, 10_000)).toMatchObject({ dataContent: 'while Redis is away' });
      const reply = agent.say('agent:alice', 100, 'still here', { to: id });
      await visitor.next((m) => m.fp === reply, 10_000);

      // Redis is back (same port): a second agent on node B hears node A's queue again
      children.push(await redisServer(port));
      const bob = await TestSocket.connect(b.socketUrl, b.socketKey, await keyExchange(b.url), 'desk', { role: 'agent', account: 'bob', password: 'secret2' });
      const other = randomUUID();
      const second = await TestSocket.connect(a.socketUrl, a.socketKey, await keyExchange(a.url), other, { ...where, language: 'en' });
      await second.next(isEvent('created'));
      await expect
        .poll(async () => {
          second.say(other, 301, '{}');
          return bob.log.some((m) => m.type === 310 && String(m.dataContent).includes(other));
        }, { timeout: 15_000, interval: 500 })
        .toBe(true);
      for (const socket of [agent, visitor, bob, second]) await socket.close();
      // what the nodes reported while Redis was away (throttled: one line per 10 s), and nothing else
      for (const node of [a, b]) {
        expect(node.errors.map(String).filter((e) => !REDIS_AWAY.test(e))).toEqual([]);
        node.errors.length = 0;
      }
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
