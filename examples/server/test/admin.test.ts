/**
 * The admin command on the store of DATA_DIR: agents added with it log in (scrypt hash stored,
 * replacing the demo account), removed ones do not; visitors are blacklisted and banned.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin.js';
import { loadConfig } from '../src/config.js';
import { createServer, type RunningServer } from '../src/server.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { connectUrl, heldSecrets, keyExchange, TestSocket } from '../../../conformance/src/client/index.js';
import { removeDir, tempDir } from './helpers/start.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function admin(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await runAdmin(args, { env: { DATA_DIR: dataDir, ...env }, readPassword: async () => 'from-stdin-password\n', out: (l) => out.push(l) });
  return { code, out };
}

async function start(dataDir: string): Promise<RunningServer> {
  return createServer(loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, appDir: join(dataDir, 'none') }), { onError: () => undefined });
}

async function agentConnect(server: RunningServer, account: string, password: string): Promise<{ code: number; to?: unknown }> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, 'desk', { role: 'agent', account, password }), session);
  const result = await Promise.race([
    socket.closed.then((c) => ({ code: c.code })),
    socket.next((m) => m.type === 60, 5000).then((m) => ({ code: 0, to: m.to }), () => ({ code: -1 })),
  ]);
  if (result.code === 0) await socket.close();
  return result;
}

describe('npm run admin -- agent add/remove/list', () => {
  it('adds agents with scrypt hashes (password from AGENT_PASSWORD or stdin); they replace the demo account and log in; removed ones do not', async () => {
    const dir = tempDir();
    dirs.push(dir);
    expect((await admin(dir, ['agent', 'add', 'carol', '--name', 'Carol Chen'], { AGENT_PASSWORD: 'carol-password' })).code).toBe(0);
    expect((await admin(dir, ['agent', 'add', 'dave'])).code).toBe(0); // the password comes from stdin
    await expect(admin(dir, ['agent', 'add', 'eve'], { AGENT_PASSWORD: 'short' })).rejects.toThrow(/at least 8/);
    await expect(admin(dir, ['agent', 'add', 'bad name!'], { AGENT_PASSWORD: 'long-enough' })).rejects.toThrow(/account/);
    const listed = await admin(dir, ['agent', 'list']);
    expect(listed.out.map((l) => l.split('\t').slice(0, 2).join(' '))).toEqual(['carol Carol Chen', 'dave dave']);

    const store = new SqliteStore(join(dir, 'kefu.db'));
    const carol = await store.identity.agent('carol');
    await store.close();
    expect(carol?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(carol)).not.toContain('carol-password');

    const server = await start(dir);
    try {
      expect(server.config.demoAgent).toBe(false);
      expect(await agentConnect(server, 'carol', 'carol-password')).toEqual({ code: 0, to: 'agent:carol' });
      expect(await agentConnect(server, 'dave', 'from-stdin-password')).toEqual({ code: 0, to: 'agent:dave' });
      expect((await agentConnect(server, 'demo', 'demo')).code).toBe(4001);
      expect((await admin(dir, ['agent', 'remove', 'dave'])).code).toBe(0);
      expect((await agentConnect(server, 'dave', 'from-stdin-password')).code).toBe(4001);
      expect((await admin(dir, ['agent', 'remove', 'dave'])).code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('hash prints a scrypt hash that AGENTS accepts as account:scrypt$...', async () => {
    const { out } = await admin('unused', ['hash'], { AGENT_PASSWORD: 'hashed-password' });
    const hash = out[0] ?? '';
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    const config = loadConfig({ AGENTS: `frank:${hash}:Frank` });
    expect(config.agents).toEqual([{ account: 'frank', name: 'Frank', passwordHash: hash, merchants: ['M1001'] }]);
    expect(() => loadConfig({ AGENTS: 'frank:scrypt$1$2$3$x$y' })).toThrow(/not a valid scrypt/);
  });
});

describe('npm run admin -- visitor blacklist/ban', () => {
  it('bans and blacklists a visitor in the store; the server refuses it from then on', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await admin(dir, ['agent', 'add', 'carol'], { AGENT_PASSWORD: 'carol-password' });
    const server = await start(dir);
    try {
      const id = randomUUID();
      const session = await keyExchange(server.url);
      const first = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, {});
      await first.close();
      expect((await admin(dir, ['visitor', 'ban', 'nobody-known'])).code).toBe(1);
      expect((await admin(dir, ['visitor', 'blacklist', id])).out).toEqual([`visitor "${id}": blacklisted=true banned=false`]);
      expect((await admin(dir, ['visitor', 'ban', id])).code).toBe(0);
      const again = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, id, { clientSecret: secretOf(server, id) }), session);
      expect((await again.closed).code).toBe(4003);
      expect((await admin(dir, ['visitor', 'unban', id])).out).toEqual([`visitor "${id}": blacklisted=true banned=false`]);
    } finally {
      await server.close();
    }
  });

  it('runs as an npm script', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const run = promisify(execFile);
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'agent', 'list'], { cwd: join(__dirname, '..'), env: { ...process.env, DATA_DIR: dir } });
    expect(stdout).toContain('no agents in the store');
  }, 30_000);
});

/** The secret the test helper holds for `id` (it kept the welcome's secret). */
function secretOf(server: RunningServer, id: string): string {
  return heldSecrets.get(`${server.socketKey}|${id}`) ?? '';
}

describe('npm run admin -- merchant sneak-peek', () => {
  it('switches sneak peek on and off for a stored merchant (getMerchantById says so); unknown merchants and values are refused', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = new SqliteStore(join(dir, 'kefu.db'));
    await store.directory.putMerchant({ mchId: 'M9', name: 'Shop', kefuAvatar2: '', extra: { currency: 'CNY' } });
    await store.close();
    expect(await admin(dir, ['merchant', 'sneak-peek', 'M9', 'on'])).toEqual({ code: 0, out: ['merchant "M9": sneak peek on'] });
    expect((await admin(dir, ['merchant', 'sneak-peek', 'M0', 'on'])).code).toBe(1);
    await expect(admin(dir, ['merchant', 'sneak-peek', 'M9', 'maybe'])).rejects.toThrow(/on" or "off/);
    await expect(admin(dir, ['merchant', 'peek', 'M9'])).rejects.toThrow(/unknown merchant command/);
    const reopened = new SqliteStore(join(dir, 'kefu.db'));
    expect((await reopened.directory.merchant('M9'))?.extra).toEqual({ currency: 'CNY', sneakPeek: true });
    await reopened.close();
    expect((await admin(dir, ['merchant', 'sneak-peek', 'M9', 'off'])).code).toBe(0);
    const again = new SqliteStore(join(dir, 'kefu.db'));
    expect((await again.directory.merchant('M9'))?.extra).toEqual({ currency: 'CNY', sneakPeek: false });
    await again.close();
  });
});

describe('npm run admin -- agent capacity', () => {
  it('stores an agent capacity over the config, back to the config with "default"; bad values are refused', async () => {
    const dir = tempDir();
    dirs.push(dir);
    expect(await admin(dir, ['agent', 'capacity', 'alice', '5'])).toEqual({ code: 0, out: ['agent "alice": capacity 5'] });
    const store = new SqliteStore(join(dir, 'kefu.db'));
    expect((await store.chat.agentRouting(['agent:alice']))[0]?.capacity).toBe(5);
    await store.close();
    await expect(admin(dir, ['agent', 'capacity', 'alice', '-1'])).rejects.toThrow(/capacity is an integer/);
    await expect(admin(dir, ['agent', 'capacity', 'alice', ''])).rejects.toThrow(/capacity is an integer/);
    await expect(admin(dir, ['agent', 'capacity', 'bad name!', '2'])).rejects.toThrow(/account/);
    expect(await admin(dir, ['agent', 'capacity', 'alice', 'default'])).toEqual({ code: 0, out: ['agent "alice": capacity from the config'] });
    const again = new SqliteStore(join(dir, 'kefu.db'));
    expect((await again.chat.agentRouting(['agent:alice']))[0]?.capacity).toBeNull();
    await again.close();
  });
});

describe('npm run admin -- agent merchants', () => {
  it('a new agent works for the demo merchant unless --merchant says otherwise; merchants are set and listed; bad lists are refused', async () => {
    const dir = tempDir();
    dirs.push(dir);
    expect((await admin(dir, ['agent', 'add', 'carol'], { AGENT_PASSWORD: 'carol-password' })).code).toBe(0);
    expect((await admin(dir, ['agent', 'add', 'dave', '--merchant', 'M2002,M3003'], { AGENT_PASSWORD: 'dave-password' })).code).toBe(0);
    expect((await admin(dir, ['agent', 'list'])).out.map((l) => l.split('\t').slice(0, 3).join(' '))).toEqual(['carol carol merchants M1001', 'dave dave merchants M2002,M3003']);
    expect(await admin(dir, ['agent', 'merchants', 'carol', 'M1001,M2002'])).toEqual({ code: 0, out: ['agent "carol": merchants M1001,M2002 (not in the store yet: M1001,M2002)'] });
    // a new password keeps the merchants
    expect((await admin(dir, ['agent', 'add', 'dave'], { AGENT_PASSWORD: 'dave-password-2' })).code).toBe(0);
    await expect(admin(dir, ['agent', 'merchants', 'carol', ''])).rejects.toThrow(/names no merchant/);
    await expect(admin(dir, ['agent', 'merchants', 'carol', 'M 1'])).rejects.toThrow(/not a merchant id/);
    await expect(admin(dir, ['agent', 'add', 'erin', '--merchant', 'bad!'], { AGENT_PASSWORD: 'erin-password' })).rejects.toThrow(/not a merchant id/);
    expect((await admin(dir, ['agent', 'merchants', 'nobody', 'M1001'])).code).toBe(1);
    const store = new SqliteStore(join(dir, 'kefu.db'));
    expect((await store.identity.agent('carol'))?.merchants).toEqual(['M1001', 'M2002']);
    expect((await store.identity.agent('dave'))?.merchants).toEqual(['M2002', 'M3003']);
    expect(await store.identity.agent('erin')).toBeUndefined();
    await store.close();
  });
});

describe('npm run admin -- canned add/update/list/remove', () => {
  it('adds, updates, lists and removes a merchant’s canned replies; bad input is a usage error', async () => {
    const dir = tempDir();
    dirs.push(dir);
    expect(await admin(dir, ['canned', 'add', 'M1', 'hi', '--title', 'Greeting', '--text', 'Hello there'])).toMatchObject({ code: 0 });
    expect((await admin(dir, ['canned', 'list', 'M1'])).out.map((l) => l.split('\t').slice(0, 3).join('|'))).toEqual(['/hi|Greeting|Hello there']);
    await expect(admin(dir, ['canned', 'add', 'M1', 'hi', '--title', 'Again', '--text', 'x'])).rejects.toThrow(/taken/);
    await expect(admin(dir, ['canned', 'add', 'M1', 'bad shortcut', '--title', 'T', '--text', 'x'])).rejects.toThrow(/shortcut/);
    expect(await admin(dir, ['canned', 'remove', 'M1', '/nope'])).toMatchObject({ code: 1 });
    // update: any of title, text, shortcut; the rest stays; the rules are the service's
    expect(await admin(dir, ['canned', 'add', 'M1', 'bye', '--title', 'Bye', '--text', 'Goodbye'])).toMatchObject({ code: 0 });
    expect(await admin(dir, ['canned', 'update', 'M1', '/hi', '--text', 'Hello again', '--shortcut', 'hello'])).toEqual({ code: 0, out: ['updated /hello of merchant "M1"'] });
    expect((await admin(dir, ['canned', 'list', 'M1'])).out.map((l) => l.split('\t').slice(0, 3).join('|'))).toEqual(['/bye|Bye|Goodbye', '/hello|Greeting|Hello again']);
    await expect(admin(dir, ['canned', 'update', 'M1', 'bye', '--shortcut', 'hello'])).rejects.toThrow(/the shortcut \/hello is taken/);
    await expect(admin(dir, ['canned', 'update', 'M1', 'bye', '--title', ''])).rejects.toThrow(/title/);
    await expect(admin(dir, ['canned', 'update', 'M1', 'bye'])).rejects.toThrow(/say what changes/);
    expect(await admin(dir, ['canned', 'update', 'M1', '/nope', '--title', 'x'])).toMatchObject({ code: 1 });
    expect(await admin(dir, ['canned', 'remove', 'M1', 'bye'])).toMatchObject({ code: 0 });
    expect(await admin(dir, ['canned', 'remove', 'M1', '/hello'])).toMatchObject({ code: 0, out: ['removed /hello of merchant "M1"'] });
    expect((await admin(dir, ['canned', 'list', 'M1'])).out).toEqual(['no canned replies for merchant "M1"']);
  });
});
