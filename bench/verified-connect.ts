/**
 * What verified identity (protocol §3b) costs a connect, side by side in one run: the token check
 * alone (`jose` HS256 verify + claims) in this process, then whole connects on loopback (key
 * exchange, socket connect, welcome, close) to the reference server (in this process, SQLite in
 * memory): anonymous, verified as a new member, verified as a returning member, and an anonymous
 * visitor logging in (merge of 5 messages). The kinds run interleaved, round by round, so that
 * load on the machine hits them alike.
 *
 * `npx tsx bench/verified-connect.ts [--rounds 40]`
 * @module
 */

import { randomUUID } from 'node:crypto';
import { signIdentityToken, verifyIdentityToken } from '../examples/server/src/identity/identity-token.js';
import { loadConfig } from '../examples/server/src/config.js';
import { createServer } from '../examples/server/src/server.js';
import { connectUrl, keyExchange, TestSocket, welcomeSecret } from '../conformance/src/client/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SECRET = 'bench-merchant-secret-0123456789abcdefghijklmn';
const where = { mchId: 'M1001', platformId: 'P01' };

function rounds(): number {
  const i = process.argv.indexOf('--rounds');
  const n = i < 0 ? 40 : Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error('--rounds is 1-10000');
  return n;
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

async function main(): Promise<void> {
  const n = rounds();
  const token = await signIdentityToken({ mchId: where.mchId, sub: 'bench', ttlS: 600 }, SECRET);
  for (let i = 0; i < 200; i += 1) await verifyIdentityToken(token, where.mchId, [SECRET], Date.now());
  const ops = 2000;
  const start = performance.now();
  for (let i = 0; i < ops; i += 1) await verifyIdentityToken(token, where.mchId, [SECRET], Date.now());
  console.log(`token check alone: ${(((performance.now() - start) / ops) * 1000).toFixed(1)} µs per token (${ops} tokens)`);

  const dataDir = mkdtempSync(join(tmpdir(), 'kefu-bench-'));
  const config = loadConfig(
    { MERCHANT_SECRETS: `${where.mchId}:${SECRET}`, RATE_KEY_SESSIONS_MAX: '1000000', RATE_CONNECTS_MAX: '1000000', RATE_SOCKET_MAX: '1000', RATE_HTTP_MAX: '1000000' },
    { port: 0, host: '127.0.0.1', memoryDb: true, dataDir, appDir: join(dataDir, 'none') },
  );
  const server = await createServer(config, { onError: (e) => console.error(e) });
  const connect = async (u: string, d: Record<string, unknown>): Promise<{ ms: number; socket: TestSocket; secret?: string }> => {
    const t0 = performance.now();
    const session = await keyExchange(server.url);
    const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, u, { ...where, ...d }), session);
    const welcome = await socket.next((m) => m.type === 60, 10_000);
    const ms = performance.now() - t0;
    const secret = welcomeSecret(welcome);
    return { ms, socket, ...(secret === undefined ? {} : { secret }) };
  };
  const times: Record<string, number[]> = { anonymous: [], 'verified, new member': [], 'verified, returning': [], 'login with merge (5 messages)': [] };
  const returning = await signIdentityToken({ mchId: where.mchId, sub: 'returning', ttlS: 600 }, SECRET);
  try {
    for (let round = 0; round < n; round += 1) {
      const a = await connect(randomUUID(), {});
      times['anonymous']?.push(a.ms);
      const fresh = await connect(randomUUID(), { identityToken: await signIdentityToken({ mchId: where.mchId, sub: `new-${randomUUID()}`, ttlS: 600 }, SECRET) });
      times['verified, new member']?.push(fresh.ms);
      const back = await connect(randomUUID(), { identityToken: returning });
      times['verified, returning']?.push(back.ms);
      // the anonymous visitor of this round says 5 things, then logs in on a new key session
      for (let i = 0; i < 5; i += 1) {
        const fp = a.socket.say(String(a.socket.log.find((m) => m.type === 60)?.to), 100, `message ${i}`);
        await a.socket.next((m) => m.fp === fp);
      }
      await a.socket.close();
      const anonId = String(a.socket.log.find((m) => m.type === 60)?.to);
      const merged = await connect(anonId, { clientSecret: a.secret, identityToken: await signIdentityToken({ mchId: where.mchId, sub: `login-${randomUUID()}`, ttlS: 600 }, SECRET) });
      times['login with merge (5 messages)']?.push(merged.ms);
      await Promise.all([fresh.socket.close(), back.socket.close(), merged.socket.close()]);
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`whole connects (key exchange + socket + welcome), ${n} rounds, interleaved:`);
  for (const [kind, values] of Object.entries(times)) {
    console.log(`  ${kind.padEnd(32)} p50 ${quantile(values, 0.5).toFixed(1)} ms   p90 ${quantile(values, 0.9).toFixed(1)} ms`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
