import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { verifyPassword } from '../src/agents/password.js';
import { content, enc, isEvent, keyExchange, TestSocket, type Msg, type Session } from '../../../conformance/src/client/index.js';
import { removeDir, startServer } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server;
let session: Session;
const where = { mchId: 'M1001', platformId: 'P01' };

beforeAll(async () => {
  server = await startServer({}, { RATE_SOCKET_MAX: '100' });
  session = await keyExchange(server.url);
});
afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

describe('a bad frame never crashes a handler', () => {
  it('refuses odd frames as bad-frame or not-allowed and keeps serving the connection', async () => {
    const id = randomUUID();
    const session = await keyExchange(server.url); // a key session speaks for one identity (protocol §3a)
    const v = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, where);
    const frames: unknown[] = [
      [],
      { type: 'abc' },
      { type: 100 },
      { type: 100, fp: 12345678, dataContent: 'x' },
      { type: 100, fp: randomUUID(), dataContent: 5 },
      { type: 102, fp: randomUUID(), dataContent: 'not json' },
      { type: 102, fp: randomUUID(), dataContent: JSON.stringify({ name: 'x' }) },
      { type: 311, fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) },
      { type: 999, fp: randomUUID(), dataContent: '{}' },
      { type: 104, fp: randomUUID(), dataContent: 'no-such-message' },
    ];
    for (const frame of frames) v.send(frame as Record<string, unknown>);
    v.ws.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true });
    v.send({ type: 1, from: id, dataContent: '{}' });
    await v.next((m) => m.type === 51);
    await v.quiet();
    const reasons = v.log.filter((m) => m.type === 500).map((m) => content<{ reason: string }>(m).reason);
    // one refusal per frame, the binary one included; a receipt for an unknown message is dropped silently
    expect(reasons.length).toBe(frames.length);
    expect(new Set(reasons)).toEqual(new Set(['bad-frame', 'blank', 'not-allowed']));
    expect(server.errors).toEqual([]);
    await v.close();
  });

  it('an agent may not write to a visitor it has not accepted, nor accept one that is not queued', async () => {
    const agentSession = await keyExchange(server.url);
    const a = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'bob', password: 'secret2' });
    const fp = a.say('agent:bob', 100, 'hi', { to: 'someone' });
    expect(content(await a.next((m) => m.type === 500))).toEqual({ reason: 'not-allowed', fp });
    const acceptFp = randomUUID();
    a.send({ type: 311, from: 'agent:bob', fp: acceptFp, dataContent: JSON.stringify({ clientId: 'nobody' }) });
    await a.next((m) => m.type === 500 && content<{ fp: string }>(m).fp === acceptFp);
    await a.close();
  });
});

describe('the robot', () => {
  it('answers what it does not understand with a hint and the suggested questions again', async () => {
    const id = randomUUID();
    const session = await keyExchange(server.url); // a key session speaks for one identity (protocol §3a)
    const v = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, { ...where, language: 'en' });
    await v.next((m) => m.type === 201);
    const mark = v.log.length;
    v.say(id, 100, 'qwertyuiop');
    const hint = await v.next((m) => m.type === 200, 3000, mark);
    expect(hint.dataContent).toMatch(/^Sorry, I did not understand/);
    await v.next((m) => m.type === 201, 3000, mark);
    v.say(id, 100, 'how can I change the password?');
    await v.next((m) => m.type === 200 && String(m.dataContent).startsWith('Go to Me'));
    await v.close();
  });
});

describe('triggerUpdate: restart the chat', () => {
  it('re-sends the open session state and suggestions, and starts a new session after the end', async () => {
    const id = randomUUID();
    const session = await keyExchange(server.url); // a key session speaks for one identity (protocol §3a)
    const v = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, where);
    const first = content<{ sessionId: string }>(await v.next(isEvent('created'))).sessionId;
    const open = await enc<{ session: { sessionId: string; state: string } }>(server.url, session, 'POST', 'triggerUpdate', { clientId: id, ...where });
    expect(open.data.session).toEqual({ sessionId: first, state: 'robot' });
    v.say(id, 302, '{}');
    await v.next(isEvent('rate-invite'));
    const mark = v.log.length;
    const restarted = await enc<{ session: { sessionId: string; state: string } }>(server.url, session, 'POST', 'triggerUpdate', { clientId: id, ...where });
    expect(restarted.data.session.sessionId).not.toBe(first);
    const created = await v.next(isEvent('created'), 3000, mark);
    expect(content(created)).toMatchObject({ sessionId: restarted.data.session.sessionId });
    await v.next((m: Msg) => m.type === 201, 3000, mark);
    await v.close();
  });
});

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', aesSwitch: true, demoAgent: true, translateUrl: '' });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('refuses unusable values with a clear ConfigError', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(new ConfigError('PORT must be an integer between 0 and 65535, got "eighty"'));
    expect(() => loadConfig({ AGENTS: 'alice' })).toThrow(ConfigError);
    expect(() => loadConfig({ AES_SWITCH: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRANSLATE_URL: 'ftp://x' })).toThrow(ConfigError);
    // a node on the cluster's database without Redis would not hear the others: refused
    expect(() => loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1/kefu' })).toThrow(/DATABASE_URL needs REDIS_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x', REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/DATABASE_URL must be a PostgreSQL URL/);
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL must be a Redis URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1/kefu', REDIS_URL: 'redis://127.0.0.1:6379', FILES_DIR: '/srv/files', NODE_ID: 'n1' })).toMatchObject({
      databaseUrl: 'postgres://postgres@127.0.0.1/kefu',
      redisUrl: 'redis://127.0.0.1:6379',
      filesDir: '/srv/files',
      nodeId: 'n1',
    });
    expect(loadConfig({ AGENT_GRACE_MS: '1500', AGENT_SESSION_TTL_MS: '120000' }).agentSessions).toEqual({ graceMs: 1500, tokenTtlMs: 120_000 });
    expect(() => loadConfig({ AGENT_GRACE_MS: 'soon' })).toThrow(ConfigError);
  });

  it('gives agents their merchants from AGENT_MERCHANTS (account:M1|M2, * for the rest), the demo merchant by default', () => {
    expect(loadConfig({}).agents.map((a) => a.merchants)).toEqual([['M1001']]);
    expect(loadConfig({ AGENTS: 'alice:s1,bob:s2,carol:s3' }).agents.map((a) => a.merchants)).toEqual([['M1001'], ['M1001'], ['M1001']]);
    const agents = loadConfig({ AGENTS: 'alice:s1,bob:s2,carol:s3', AGENT_MERCHANTS: 'alice:M1|M2| M1 ,*:M3' }).agents;
    expect(agents.map((a) => [a.account, a.merchants])).toEqual([['alice', ['M1', 'M2']], ['bob', ['M3']], ['carol', ['M3']]]);
    expect(() => loadConfig({ AGENTS: 'alice:s1', AGENT_MERCHANTS: 'zed:M1' })).toThrow(/names "zed", which AGENTS does not/);
    expect(() => loadConfig({ AGENTS: 'alice:s1', AGENT_MERCHANTS: 'alice:M1,alice:M2' })).toThrow(/twice/);
    expect(() => loadConfig({ AGENTS: 'alice:s1', AGENT_MERCHANTS: 'alice:' })).toThrow(/names no merchant/);
    expect(() => loadConfig({ AGENTS: 'alice:s1', AGENT_MERCHANTS: 'alice:M 1' })).toThrow(ConfigError);
    expect(() => loadConfig({ AGENTS: 'alice:s1', AGENT_MERCHANTS: 'alice' })).toThrow(ConfigError);
  });

  it('reads agent accounts as account:password[:name], keeping only scrypt hashes of the passwords', async () => {
    const agents = loadConfig({ AGENTS: 'alice:s1:Alice Wang,bob:s2' }).agents;
    expect(agents.map((a) => [a.account, a.name])).toEqual([
      ['alice', 'Alice Wang'],
      ['bob', 'bob'],
    ]);
    for (const a of agents) expect(a.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(JSON.stringify(agents)).not.toMatch(/"s1"|"s2"/);
    expect(await verifyPassword('s1', agents[0]?.passwordHash ?? '')).toBe(true);
    expect(await verifyPassword('s2', agents[0]?.passwordHash ?? '')).toBe(false);
  });
});
