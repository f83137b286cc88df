/**
 * The verified-identity admin commands on the store of DATA_DIR (protocol §3b): a merchant secret
 * added with the command is kept sealed (the database never holds it in clear), works for tokens
 * at once on a server of that store, is listed without its value, and stops working when
 * removed; `member token` mints a token the server accepts; a secret sealed under another key is
 * reported unreadable and never used.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin.js';
import { loadConfig } from '../src/config.js';
import { signIdentityToken } from '../src/identity/identity-token.js';
import { DEMO_MERCHANT_SECRET } from '../src/identity/merchant-secrets.js';
import { createServer, type RunningServer } from '../src/server.js';
import { connectUrl, keyExchange, TestSocket } from '../../../conformance/src/client/index.js';
import { removeDir, tempDir } from './helpers/start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function admin(dataDir: string, args: string[], env: Record<string, string> = {}, stdin = ''): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await runAdmin(args, { env: { DATA_DIR: dataDir, ...env }, readPassword: async () => stdin, out: (l) => out.push(l) });
  return { code, out };
}

/** A server of `dataDir` on a non-loopback-free config: no demo secret (MERCHANT_SECRETS names another merchant). */
async function start(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const config = loadConfig({ MERCHANT_SECRETS: `M9999:${'z'.repeat(40)}`, ...env }, { port: 0, host: '127.0.0.1', dataDir, appDir: join(dataDir, 'none') });
  return createServer(config, { onError: () => undefined });
}

async function connectWith(server: RunningServer, identityToken: string): Promise<{ code: number; reason?: string; to?: unknown }> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, randomUUID(), { mchId: 'M1001', platformId: 'P01', identityToken }), session);
  const result = await Promise.race([
    socket.closed.then((c) => ({ code: c.code, reason: c.reason })),
    socket.next((m) => m.type === 60, 5000).then((m) => ({ code: 0, to: m.to })),
  ]);
  if (result.code === 0) await socket.close();
  return result;
}

describe('merchant secret add|list|remove and member token', () => {
  it('a secret added with the command is sealed at rest, valid at once, listed without its value, and refused once removed', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    // the server first: it made the schema and the keys the sealing key derives from
    const server = await start(dataDir);
    try {
      const added = await admin(dataDir, ['merchant', 'secret', 'add', 'M1001']);
      expect(added.code).toBe(0);
      const secret = added.out[1] ?? '';
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const secretId = /secret "([^"]+)"/.exec(added.out[0] ?? '')?.[1] ?? '';
      // sealed: neither the store's row nor the database file holds the secret
      const [stored] = await server.store.members.merchantSecrets('M1001');
      expect(stored?.sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
      expect(stored?.sealed).not.toContain(secret);
      expect(readFileSync(join(dataDir, 'kefu.db')).includes(Buffer.from(secret))).toBe(false);

      const listed = await admin(dataDir, ['merchant', 'secret', 'list']);
      expect(listed.out.join('\n')).toContain(secretId);
      expect(listed.out.join('\n')).not.toContain(secret);

      const ok = await connectWith(server, await signIdentityToken({ mchId: 'M1001', sub: 'alice', ttlS: 600 }, secret));
      expect(ok.code).toBe(0);
      expect(String(ok.to)).toMatch(/^vm-/);
      const minted = await admin(dataDir, ['member', 'token', 'M1001', 'alice', '--ttl', '300']);
      expect(minted.code).toBe(0);
      expect(await connectWith(server, minted.out[0] ?? '')).toEqual({ code: 0, to: ok.to });

      expect((await admin(dataDir, ['merchant', 'secret', 'remove', 'M1001', secretId])).code).toBe(0);
      expect(await connectWith(server, await signIdentityToken({ mchId: 'M1001', sub: 'alice', ttlS: 600 }, secret))).toEqual({ code: 4006, reason: 'merchant' });
    } finally {
      await server.close();
    }
  });

  it('--stdin takes the secret from the first line; a short one is refused; a secret sealed under another key is unreadable and unused', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const server = await start(dataDir);
    await server.close();
    await expect(admin(dataDir, ['merchant', 'secret', 'add', 'M1001', '--stdin'], {}, 'short\n')).rejects.toThrow(/32-512 characters/);
    const given = 'a-merchant-chosen-secret-0123456789abcdef';
    expect((await admin(dataDir, ['merchant', 'secret', 'add', 'M1001', '--stdin'], {}, `${given}\n`)).out[1]).toBe(given);
    // another sealing key: the stored secret does not open, and the server does not use it
    const otherKey = { MERCHANT_SECRETS_KEY: 'ab'.repeat(32) };
    expect((await admin(dataDir, ['merchant', 'secret', 'list'], otherKey)).out.join('\n')).toContain('UNREADABLE');
    const again = await start(dataDir, otherKey);
    try {
      expect(await connectWith(again, await signIdentityToken({ mchId: 'M1001', sub: 'bob', ttlS: 600 }, given))).toEqual({ code: 4006, reason: 'merchant' });
    } finally {
      await again.close();
    }
  });

  it('a secret added for the demo merchant replaces the public demo secret (loopback, no MERCHANT_SECRETS)', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const server = await createServer(loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, appDir: join(dataDir, 'none') }), { onError: () => undefined });
    try {
      const demoToken = await signIdentityToken({ mchId: 'M1001', sub: 'demo-user', ttlS: 600 }, DEMO_MERCHANT_SECRET);
      expect(await server.members.demoSecretActive()).toBe(true);
      expect((await connectWith(server, demoToken)).code).toBe(0);
      expect((await admin(dataDir, ['merchant', 'secret', 'add', 'M1001'])).code).toBe(0);
      expect(await server.members.demoSecretActive()).toBe(false);
      expect(await connectWith(server, demoToken)).toEqual({ code: 4006, reason: 'invalid' });
    } finally {
      await server.close();
    }
  });
});
