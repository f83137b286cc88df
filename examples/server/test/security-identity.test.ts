/**
 * The attacker's view of protocol §3a (issue 9): holding only the public configuration and a fresh
 * key session, plus a victim's client id, nothing of the victim's conversation can be read,
 * changed, received or sent; agents' passwords are hashed and brute force is throttled.
 * Real sockets and HTTP on loopback.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDemoAgent, ConfigError, loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import {
  boundSession,
  connectUrl,
  content,
  enc,
  isEvent,
  keyExchange,
  TestSocket,
  welcomeSecret,
  type Envelope,
  type Msg,
  type Session,
} from '../../../conformance/src/client/index.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server;
const where = { mchId: 'M1001', platformId: 'P01' };

beforeAll(async () => {
  server = await startServer({}, { RATE_SOCKET_MAX: '1000', UPLOAD_QUOTA_BYTES_PER_DAY: '1000', UPLOAD_MAX_BYTES: '5000' });
});
afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
  expect(server.errors).toEqual([]);
});

/** A victim: a visitor with a conversation (a question the robot answered). */
async function victim(): Promise<{ id: string; session: Session; socket: TestSocket; secret: string }> {
  const id = randomUUID();
  const session = await keyExchange(server.url);
  const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, id, where), session);
  const welcome = await socket.next((m) => m.type === 60);
  const secret = welcomeSecret(welcome);
  if (secret === undefined) throw new Error('no secret in the first welcome');
  await socket.next((m) => m.type === 201);
  const fp = socket.say(id, 100, 'my private order number is 4711');
  await socket.next((m) => m.fp === fp);
  await socket.quiet();
  return { id, session, socket, secret };
}

/** Opens a connect that the server is expected to refuse; what came back before the close. */
async function refused(url: string, session: Session): Promise<{ code: number; reason: string; frames: Msg[] }> {
  const socket = await TestSocket.open(url, session);
  const closed = await socket.closed;
  return { ...closed, frames: socket.log };
}

async function messageCount(clientId: string): Promise<number> {
  return (await server.store.chat.conversation(clientId, where.mchId, where.platformId, { size: 101 })).length;
}

describe('§3a.1 claim on first use: the welcome carries the secret once, the store keeps only its hash', () => {
  it('hands out 32 random bytes as base64url, stores SHA-256 of it, and never again', async () => {
    const v = await victim();
    expect(v.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hash = await server.store.identity.secretHash(v.id);
    expect(hash).toBe(createHash('sha256').update(v.secret).digest('hex'));
    expect(JSON.stringify(await server.store.chat.visitor(v.id))).not.toContain(v.secret);
    // the owner comes back with the secret on a new key session: welcomed, no new secret
    const again = await keyExchange(server.url);
    const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, again.saltKey, v.id, { ...where, clientSecret: v.secret }), again);
    const welcome = await socket.next((m) => m.type === 60);
    expect(welcomeSecret(welcome)).toBeUndefined();
    await Promise.all([socket.close(), v.socket.close()]);
  });
});

describe('§3a.2 a connect as the victim without its secret is refused with 4004 before any welcome', () => {
  it('no secret, a wrong secret, or another type: 4004, no frame pushed, and the victim\'s later messages never reach the attacker', async () => {
    const v = await victim();
    const attempts: Record<string, unknown>[] = [where, { ...where, clientSecret: 'x'.repeat(43) }, { ...where, clientSecret: randomBytes(32).toString('base64url') }, { ...where, clientSecret: 12345 }];
    for (const d of attempts) {
      const attacker = await keyExchange(server.url);
      const result = await refused(connectUrl(server.socketUrl, server.socketKey, attacker.saltKey, v.id, d), attacker);
      expect(result).toMatchObject({ code: 4004, frames: [] });
      // the refused connect bound nothing: the attacker's key session still reads nothing
      const history = await enc(server.url, attacker, 'POST', 'findMsgForCus', { clientId: v.id, ...where });
      expect(history).toMatchObject({ code: 4003, data: null });
    }
    // the attacker, connected as itself, hears nothing of the victim's next messages
    const attacker = await keyExchange(server.url);
    const own = await TestSocket.connect(server.socketUrl, server.socketKey, attacker, randomUUID(), where);
    await own.quiet();
    const mark = own.log.length;
    const fp = v.socket.say(v.id, 100, 'second secret: PIN 0000');
    await v.socket.next((m) => m.fp === fp);
    await Promise.all([v.socket.quiet(), own.quiet()]);
    expect(own.log.slice(mark).filter((m) => JSON.stringify(m).includes(v.id) || m.fp === fp)).toEqual([]);
    expect(server.connections()).toBe(2);
    await Promise.all([own.close(), v.socket.close()]);
  });

  it('a key session bound to one identity cannot connect as another (4004)', async () => {
    const session = await keyExchange(server.url);
    const first = await TestSocket.connect(server.socketUrl, server.socketKey, session, randomUUID(), where);
    await first.close();
    const other = await refused(connectUrl(server.socketUrl, server.socketKey, session.saltKey, randomUUID(), where), session);
    expect(other).toMatchObject({ code: 4004, frames: [] });
    const asAgent = await refused(connectUrl(server.socketUrl, server.socketKey, session.saltKey, 'desk', { role: 'agent', account: 'bob', password: 'secret2' }), session);
    expect(asAgent).toMatchObject({ code: 4004, frames: [] });
  });
});

describe('§3a.3 visitor-scoped calls need a key session bound to the visitor they name (4003, nothing changes)', () => {
  it('findMsgForCus with the victim\'s clientId from a fresh anonymous key session returns nothing', async () => {
    const v = await victim();
    const anonymous = await keyExchange(server.url);
    const res = await enc(server.url, anonymous, 'POST', 'findMsgForCus', { clientId: v.id, ...where, size: 100 });
    expect(res).toMatchObject({ code: 4003, data: null });
    expect(JSON.stringify(res)).not.toContain('4711');
    // bound to another visitor: the same
    const other = await boundSession(server, randomUUID(), where);
    expect(await enc(server.url, other, 'POST', 'findMsgForCus', { clientId: v.id, ...where })).toMatchObject({ code: 4003, data: null });
    // the owner reads its own
    const mine = await enc<{ list: Msg[] }>(server.url, v.session, 'POST', 'findMsgForCus', { clientId: v.id, ...where, size: 100 });
    expect(mine.code).toBe(0);
    expect(mine.data.list.map((m) => m.dataContent)).toContain('my private order number is 4711');
    await v.socket.close();
  });

  it('markScore, question, triggerUpdate, createMsg 400/401, getGroupInfo and clientGroupMsgList in the victim\'s name: 4003 and nothing changed', async () => {
    const v = await victim();
    v.socket.say(v.id, 302, '{}');
    await v.socket.next(isEvent('rate-invite'));
    await v.socket.quiet();
    const attacker = await boundSession(server, randomUUID(), where);
    const before = await messageCount(v.id);
    const questionId = (await server.store.directory.questions(where.mchId, where.platformId))[0]?.id ?? '';
    const calls: [string, 'GET' | 'POST', Record<string, unknown>][] = [
      ['markScore', 'POST', { clientId: v.id, ...where, score: 1, remark: 'terrible' }],
      ['question', 'POST', { clientId: v.id, ...where, questionId }],
      ['triggerUpdate', 'POST', { clientId: v.id, ...where }],
      ['createMsg', 'POST', { type: 401, from: v.id, fp: randomUUID(), ...where, dataContent: JSON.stringify({ contact: 'x', content: 'spoofed' }) }],
      ['createMsg', 'POST', { type: 400, from: v.id, fp: randomUUID(), ...where, dataContent: JSON.stringify({ account: 'a', description: 'spoofed', occurredAt: Date.now() }) }],
      ['getGroupInfo', 'GET', { groupId: 'G100', clientId: v.id }],
      ['clientGroupMsgList', 'POST', { clientId: v.id, groupId: 'G100' }],
    ];
    for (const [name, method, payload] of calls) {
      for (const session of [attacker, await keyExchange(server.url)]) {
        const res = await enc(server.url, session, method, name, payload);
        expect({ name, ...res }).toMatchObject({ name, code: 4003, data: null });
      }
    }
    await v.socket.quiet();
    expect(await messageCount(v.id)).toBe(before);
    expect((await server.store.chat.latestSession(v.id, where.mchId, where.platformId))?.score).toBeNull();
    expect(await server.store.records.leaveMessages(v.id)).toEqual([]);
    expect(await server.store.records.complaints(v.id)).toEqual([]);
    expect(await server.store.directory.member('G100', v.id)).toBeUndefined();
    // the victim can still rate its conversation
    const rated = await enc(server.url, v.session, 'POST', 'markScore', { clientId: v.id, ...where, score: 5 });
    expect(rated).toMatchObject({ code: 0, data: { score: 5 } });
    await v.socket.close();
  });

  it('calls that name no visitor need no binding', async () => {
    const anonymous = await keyExchange(server.url);
    const calls: [string, 'GET' | 'POST', Record<string, unknown>][] = [
      ['getMerchantById', 'POST', where],
      ['checkPlatform', 'GET', where],
      ['asConfig/categoryInfo', 'POST', where],
      ['questionLike', 'POST', { ...where, keyword: '密码' }],
    ];
    for (const [name, method, payload] of calls) expect({ name, code: (await enc(server.url, anonymous, method, name, payload)).code }).toEqual({ name, code: 0 });
  });
});

describe('§3a.4 frames: `from` must be the connection\'s own identity', () => {
  it('a message sent with from = the victim is refused (not-allowed), not stored, not delivered', async () => {
    const v = await victim();
    const attacker = await keyExchange(server.url);
    const a = await TestSocket.connect(server.socketUrl, server.socketKey, attacker, randomUUID(), where);
    const markVictim = v.socket.log.length;
    const fp = a.say(v.id, 100, 'I am the victim');
    expect(content(await a.next((m) => m.type === 500 && content<{ fp: string }>(m).fp === fp))).toEqual({ reason: 'not-allowed', fp });
    const transfer = a.say(v.id, 301, '{}');
    await a.next((m) => m.type === 500 && content<{ fp: string }>(m).fp === transfer);
    await v.socket.quiet();
    expect(await server.store.chat.message(fp)).toBeUndefined();
    expect(await server.store.chat.message(transfer)).toBeUndefined();
    expect(v.socket.log.slice(markVictim)).toEqual([]);
    await Promise.all([a.close(), v.socket.close()]);
  });
});

describe('group member privacy: member lists for members only, no other visitor\'s client id anywhere', () => {
  it('getGroupUserList refuses a non-member and gives members names and avatars with aliases; group frames and history carry aliases', async () => {
    const v = await victim();
    expect((await enc(server.url, v.session, 'GET', 'getGroupInfo', { groupId: 'G100', clientId: v.id })).code).toBe(0);
    const outsider = await boundSession(server, randomUUID(), where);
    expect(await enc(server.url, outsider, 'GET', 'getGroupUserList', { groupId: 'G100' })).toMatchObject({ code: 4003, data: null });
    expect((await enc(server.url, await keyExchange(server.url), 'GET', 'getGroupUserList', { groupId: 'G100' })).code).toBe(4003);

    const memberId = randomUUID();
    const memberSession = await keyExchange(server.url);
    const member = await TestSocket.connect(server.socketUrl, server.socketKey, memberSession, memberId, { ...where, groupId: 'G100' });
    const users = await enc<{ clientId: string; name: string; avatar: string; role: string }[]>(server.url, memberSession, 'GET', 'getGroupUserList', { groupId: 'G100' });
    expect(users.code).toBe(0);
    expect(JSON.stringify(users.data)).not.toContain(v.id);
    const victimName = (await server.store.chat.visitor(v.id))?.name;
    const victimEntry = users.data.find((u) => u.name === victimName);
    expect(victimEntry).toMatchObject({ clientId: expect.stringMatching(/^m-[0-9a-f]{16}$/), avatar: expect.any(String) });
    expect(users.data.find((u) => u.clientId === memberId)).toBeDefined(); // its own entry keeps its id

    const fp = v.socket.say(v.id, 100, 'hello group', { to: 'G100', isGroup: 1 });
    expect((await v.socket.next((m) => m.fp === fp)).from).toBe(v.id); // the sender sees its own id
    const got = await member.next((m) => m.fp === fp);
    expect(got.from).toBe(victimEntry?.clientId);
    const history = await enc<{ list: Msg[] }>(server.url, memberSession, 'POST', 'clientGroupMsgList', { clientId: memberId, groupId: 'G100', size: 100 });
    expect(history.data.list.find((m) => m.fp === fp)?.from).toBe(victimEntry?.clientId);
    expect(JSON.stringify(history.data)).not.toContain(v.id);
    await Promise.all([member.close(), v.socket.close()]);
  });
});

describe('uploads need a bound key session and count toward a per-identity daily quota', () => {
  async function upload(headers: Record<string, string>, bytes: number): Promise<{ status: number; body: Envelope }> {
    const form = new FormData();
    form.append('file', new Blob([randomBytes(bytes)], { type: 'image/png' }), 'x.png');
    const res = await fetch(`${server.url}/oss/aws/upload`, { method: 'POST', body: form, headers });
    return { status: res.status, body: (await res.json()) as Envelope };
  }
  const filesNow = (): number => readdirSync(join(server.dataDir, 'files')).length;

  it('refuses anonymous and unbound uploads (4003) and keeps no file', async () => {
    const count = filesNow();
    expect((await upload({}, 100)).body).toMatchObject({ code: 4003, data: null });
    const unbound = await keyExchange(server.url);
    expect((await upload({ 'x-salt-key': unbound.saltKey }, 100)).body).toMatchObject({ code: 4003, data: null });
    const init = await fetch(`${server.url}/oss/unifiedOss/chunk/init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-salt-key': unbound.saltKey },
      body: JSON.stringify({ fileName: 'a.png', fileSize: 2000, mime: 'image/png', chunkSize: 1024 }),
    });
    expect(((await init.json()) as Envelope).code).toBe(4003);
    expect(filesNow()).toBe(count);
  });

  it('over the quota: code 3002 with a clear message, nothing kept; another identity still uploads; another\'s upload id is refused', async () => {
    const s = await boundSession(server, randomUUID(), where);
    const headers = { 'x-salt-key': s.saltKey };
    expect((await upload(headers, 600)).body.code).toBe(0);
    const count = filesNow();
    const over = await upload(headers, 600);
    expect(over.body).toMatchObject({ code: 3002, data: null });
    expect(over.body.message).toMatch(/quota/);
    expect(filesNow()).toBe(count);
    const chunked = await fetch(`${server.url}/oss/unifiedOss/chunk/init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ fileName: 'b.png', fileSize: 500, mime: 'image/png', chunkSize: 1024 }),
    });
    expect(((await chunked.json()) as Envelope).code).toBe(3002);
    // the quota is per identity
    const t = await boundSession(server, randomUUID(), where);
    const init = await fetch(`${server.url}/oss/unifiedOss/chunk/init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-salt-key': t.saltKey },
      body: JSON.stringify({ fileName: 'c.png', fileSize: 900, mime: 'image/png', chunkSize: 1024 }),
    });
    const started = (await init.json()) as Envelope<{ uploadId: string }>;
    expect(started.code).toBe(0);
    const stolen = await fetch(`${server.url}/oss/unifiedOss/chunk/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ uploadId: started.data.uploadId }),
    });
    expect(((await stolen.json()) as Envelope).code).toBe(4003);
  });
});

describe('§3a.5 agents: key sessions bound to the agent, hashed passwords, throttled logins', () => {
  it('an agent\'s key session reads only the visitors assigned to it', async () => {
    const v = await victim();
    const other = await victim();
    const agentSession = await keyExchange(server.url);
    const a = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
    v.socket.say(v.id, 301, '{}');
    await v.socket.next(isEvent('queued'));
    a.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: v.id }) });
    await v.socket.next(isEvent('agent-joined'));
    const assigned = await enc<{ list: Msg[] }>(server.url, agentSession, 'POST', 'findMsgForCus', { clientId: v.id, ...where, size: 100 });
    expect(assigned.code).toBe(0);
    expect(assigned.data.list.map((m) => m.dataContent)).toContain('my private order number is 4711');
    expect(await enc(server.url, agentSession, 'POST', 'findMsgForCus', { clientId: other.id, ...where })).toMatchObject({ code: 4003, data: null });
    // bob's key session may not read alice's visitor either
    const bobSession = await keyExchange(server.url);
    const b = await TestSocket.connect(server.socketUrl, server.socketKey, bobSession, 'desk2', { role: 'agent', account: 'bob', password: 'secret2' });
    expect((await enc(server.url, bobSession, 'POST', 'findMsgForCus', { clientId: v.id, ...where })).code).toBe(4003);
    await Promise.all([a.close(), b.close(), v.socket.close(), other.socket.close()]);
  });

  it('stores scrypt hashes, never the plain password', () => {
    for (const agent of server.config.agents) {
      expect(agent.passwordHash).toMatch(/^scrypt\$/);
      expect(JSON.stringify(agent)).not.toMatch(/secret1|secret2/);
    }
  });

  it('brute force: three free failures, then growing waits, then a lockout that even the right password cannot pass', async () => {
    let now = 1_000_000;
    const s = await startServer({}, {}, { now: () => now });
    const attempt = async (password: string, account = 'alice'): Promise<{ code: number; reason: string }> => {
      const session = await keyExchange(s.url);
      const socket = await TestSocket.open(connectUrl(s.socketUrl, s.socketKey, session.saltKey, 'x', { role: 'agent', account, password }), session);
      const welcomed = socket.next((m) => m.type === 60, 5000).then(
        () => ({ code: 0, reason: 'welcome' }),
        () => socket.closed,
      );
      const closed = await Promise.race([socket.closed, welcomed]);
      if (closed.code === 0) await socket.close();
      return closed;
    };
    try {
      for (let i = 0; i < 3; i += 1) expect(await attempt('wrong')).toEqual({ code: 4001, reason: 'unauthorized' });
      // the 4th failure made the next attempt wait 0.5 s: even the right password is not checked now
      expect(await attempt('wrong')).toEqual({ code: 4001, reason: 'unauthorized' });
      expect(await attempt('secret1')).toEqual({ code: 4001, reason: 'too many attempts' });
      now += 500;
      expect(await attempt('wrong')).toEqual({ code: 4001, reason: 'unauthorized' });
      now += 500;
      expect(await attempt('wrong')).toEqual({ code: 4001, reason: 'too many attempts' }); // the wait doubled to 1 s
      // per address too: another account from the same address waits as well
      expect(await attempt('whatever', 'bob')).toEqual({ code: 4001, reason: 'too many attempts' });
      for (let failures = 5; failures < 10; failures += 1) {
        now += 60_000;
        expect(await attempt('wrong')).toEqual({ code: 4001, reason: 'unauthorized' });
      }
      // ten failures: locked for 15 minutes
      now += 14 * 60_000;
      expect(await attempt('secret1')).toEqual({ code: 4001, reason: 'too many attempts' });
      now += 60_000 + 1;
      expect(await attempt('secret1')).toEqual({ code: 0, reason: 'welcome' });
    } finally {
      await s.close();
      removeDir(s.dataDir);
    }
  });

  it('sixty wrong passwords at once: only the free failures and one more are even checked', async () => {
    // the throttle's clock stands still: the server's RSA work spreads the sixty over more than the first wait
    const s = await startServer({}, {}, { now: () => 5_000_000 });
    try {
      const sessions = await Promise.all(Array.from({ length: 60 }, () => keyExchange(s.url)));
      const started = Date.now();
      const results = await Promise.all(
        sessions.map(async (session, i) => {
          const socket = await TestSocket.open(connectUrl(s.socketUrl, s.socketKey, session.saltKey, 'x', { role: 'agent', account: 'alice', password: `guess-${i}` }), session);
          return socket.closed;
        }),
      );
      expect(results.every((r) => r.code === 4001)).toBe(true);
      expect(results.filter((r) => r.reason === 'unauthorized').length).toBeLessThanOrEqual(4);
      expect(results.filter((r) => r.reason === 'too many attempts').length).toBeGreaterThanOrEqual(56);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await s.close();
      removeDir(s.dataDir);
    }
  });

  it('agents logging in together from one address are not throttled', async () => {
    const logins = await Promise.all(
      [['alice', 'secret1'], ['bob', 'secret2']].map(async ([account, password], i) => {
        const session = await keyExchange(server.url);
        return TestSocket.connect(server.socketUrl, server.socketKey, session, `desk-${i}`, { role: 'agent', account, password });
      }),
    );
    expect(logins.map((l) => l.log[0]?.to)).toEqual(['agent:alice', 'agent:bob']);
    await Promise.all(logins.map((l) => l.close()));
  });

  it('the demo account (demo:demo) only on loopback: the server refuses to start on another interface with it', async () => {
    expect(() => checkDemoAgent({ demoAgent: true, host: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => checkDemoAgent({ demoAgent: true, host: '192.168.1.20' })).toThrow(/only allowed when listening on loopback/);
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]']) expect(() => checkDemoAgent({ demoAgent: true, host })).not.toThrow();
    expect(() => checkDemoAgent({ demoAgent: false, host: '0.0.0.0' })).not.toThrow();
    const dir = tempDir();
    try {
      const config = loadConfig({}, { host: '0.0.0.0', port: 0, memoryDb: true, dataDir: dir, appDir: join(dir, 'none') });
      expect(config.demoAgent).toBe(true);
      await expect(createServer(config, { onError: () => undefined })).rejects.toThrow(ConfigError);
    } finally {
      removeDir(dir);
    }
  });
});
