/**
 * The server's per-text work, before and after, in one process and one run (`npm run
 * bench:server-paths`): CPU time per operation (the best of several rounds), which a loaded
 * machine disturbs far less than rates or latencies do.
 * 1. An agent's text finds its session with the visitor: all the agent's active sessions read and
 *    searched (before) against the one read by index (`activeSessionWith`), on SQLite in memory
 *    with 1000 active sessions over 50 agents (the chat phase of `bench:server`).
 * 2. A frame's AES-ECB: `createCipheriv` per frame and a thrown `JSON.parse` before decrypting
 *    (before) against the connection's `FrameCipher` and no throw (after).
 * @module
 */

import { randomUUID } from 'node:crypto';
import { aesEcbDecrypt, aesEcbEncrypt } from '../examples/server/src/crypto.js';
import { decodeFrame, encodeFrame } from '../examples/server/src/socket/codec.js';
import { FrameCipher } from '../examples/server/src/socket/frame-cipher.js';
import { SqliteStore } from '../examples/server/src/store/sqlite-store.js';
import type { ServiceSession } from '../examples/server/src/store/types.js';

const ROUNDS = 7;
const ROUND_MS = 300;

/** The best (lowest) CPU microseconds per call of `fn` over {@link ROUNDS} rounds of about {@link ROUND_MS}. */
async function cpuPerCall(fn: () => unknown | Promise<unknown>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round += 1) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    let calls = 0;
    while (performance.now() - start < ROUND_MS) {
      for (let i = 0; i < 50; i += 1) await fn();
      calls += 50;
    }
    const used = process.cpuUsage(cpu);
    best = Math.min(best, (used.user + used.system) / calls);
  }
  return best;
}

function line(what: string, before: number, after: number): string {
  return `  ${what.padEnd(58)} before ${before.toFixed(1).padStart(6)} us   after ${after.toFixed(1).padStart(6)} us   (${(before / after).toFixed(1)}x)`;
}

async function sessionLookup(): Promise<string[]> {
  const store = new SqliteStore(':memory:');
  const now = Date.now();
  for (let i = 0; i < 1000; i += 1) {
    const session: ServiceSession = {
      sessionId: `s${i}`,
      clientId: `v${i}`,
      mchId: 'm1',
      platformId: 'p1',
      state: 'active',
      agentId: `agent:a${i % 50}`,
      createdAt: now,
      queuedAt: now,
      acceptedAt: now + i,
      endedAt: null,
      score: null,
      remark: null,
      endedBy: null,
    };
    await store.chat.createSession(session);
  }
  let k = 0;
  const before = await cpuPerCall(async () => {
    const i = k++ % 1000;
    return (await store.chat.activeSessions(`agent:a${i % 50}`)).find((s) => s.clientId === `v${i}`);
  });
  const after = await cpuPerCall(async () => {
    const i = k++ % 1000;
    return store.chat.activeSessionWith(`agent:a${i % 50}`, `v${i}`);
  });
  await store.close();
  return [line("an agent's text: its session with the visitor (20 of 1000)", before, after)];
}

async function frames(): Promise<string[]> {
  const key = Buffer.from('0123456789abcdefghijABCDEFGHIJ!#', 'utf8');
  const cipher = new FrameCipher(key);
  const message = { type: 100, from: 'agent:loadgen-agent-1', to: randomUUID(), fp: randomUUID(), dataContent: 'lg1#12#3#123456.789', createTime: Date.now(), seq: 12 };
  const wire = cipher.encrypt(JSON.stringify(message));
  const encodeBefore = await cpuPerCall(() => aesEcbEncrypt(key, JSON.stringify(message)));
  const encodeAfter = await cpuPerCall(() => encodeFrame(message, cipher));
  const decodeBefore = await cpuPerCall(() => {
    try {
      return JSON.parse(wire) as unknown;
    } catch {
      return JSON.parse(aesEcbDecrypt(key, wire.trim())) as unknown;
    }
  });
  const decodeAfter = await cpuPerCall(() => decodeFrame(wire, cipher));
  return [line('a frame out: JSON + AES-ECB', encodeBefore, encodeAfter), line('a frame in: AES-ECB + JSON', decodeBefore, decodeAfter)];
}

async function main(): Promise<void> {
  console.log(`server paths: CPU per call, best of ${ROUNDS} rounds of ${ROUND_MS} ms, before and after in this run (load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  console.log([...(await sessionLookup()), ...(await frames())].join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
