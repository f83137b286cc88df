/**
 * The attacker's view of the abuse limits (issue 9, SECURITY.md): real HTTP and sockets on
 * loopback against the real server, each attack asserting the refusal and that nothing was
 * stored or pushed beyond the limit.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boundSession, connectUrl, content, enc, heldSecrets, http, isEvent, keyExchange, TestSocket, type Msg, type Session } from '../../../conformance/src/client/index.js';
import { removeDir, startServer } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const where = { mchId: 'M1001', platformId: 'P01' };
const servers: Server[] = [];

async function serverWith(env: Record<string, string>, overrides: Parameters<typeof startServer>[0] = {}): Promise<Server> {
  const server = await startServer(overrides, env);
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const server of servers) {
    await server.close();
    removeDir(server.dataDir);
  }
});

const sockets: TestSocket[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
});

async function connect(server: Server, session: Session, id: string, d: Record<string, unknown> = where): Promise<TestSocket> {
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, d);
  sockets.push(socket);
  return socket;
}

describe('new key sessions per address: RATE_KEY_SESSIONS_MAX per RATE_KEY_SESSIONS_WINDOW_MS', () => {
  it('refuses the key session past the limit with HTTP 413 and creates nothing; known request keys still work', async () => {
    const server = await serverWith({ RATE_KEY_SESSIONS_MAX: '5', RATE_KEY_SESSIONS_WINDOW_MS: '60000' });
    const keys = Array.from({ length: 8 }, () => randomBytes(16).toString('hex'));
    const statuses: number[] = [];
    for (const key of keys) statuses.push((await http(`${server.url}/im/api/permit/getAesKey?requestKey=${key}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 413, 413, 413]);
    const refused = await http(`${server.url}/im/api/permit/getUserToken?requestKey=${keys[6]}`, { headers: { 'accept-language': 'en' } });
    expect(refused).toEqual({ status: 413, body: { code: 413, message: 'Requests too frequent, please try again later', data: null } });
    // nothing was created for the refused request keys
    expect(await Promise.all(keys.map(async (k) => (await server.store.keys.byRequestKey(k)) !== undefined))).toEqual([true, true, true, true, true, false, false, false]);
    // a client that got its key session before the flood finishes its exchange
    const token = await http<{ saltKey: string }>(`${server.url}/im/api/permit/getUserToken?requestKey=${keys[0]}`);
    expect(token.status).toBe(200);
    expect(token.body.data.saltKey).toBe((await server.store.keys.byRequestKey(keys[0] ?? ''))?.saltKey);
  });
});

describe('the address behind a reverse proxy: TRUST_PROXY', () => {
  const newSession = (server: Server, forwardedFor: string) =>
    http(`${server.url}/im/api/permit/getAesKey?requestKey=${randomBytes(16).toString('hex')}`, { headers: { 'x-forwarded-for': forwardedFor } }).then((r) => r.status);

  it('a client cannot escape the per-address limit by sending X-Forwarded-For itself', async () => {
    const server = await serverWith({ RATE_KEY_SESSIONS_MAX: '2' });
    expect([await newSession(server, '198.51.100.1'), await newSession(server, '198.51.100.2'), await newSession(server, '198.51.100.3')]).toEqual([200, 200, 413]);
  });

  it('behind a trusted proxy each forwarded client has its own allowance', async () => {
    const server = await serverWith({ RATE_KEY_SESSIONS_MAX: '2', TRUST_PROXY: 'loopback' });
    const one = [await newSession(server, '198.51.100.1'), await newSession(server, '198.51.100.1'), await newSession(server, '198.51.100.1')];
    expect(one).toEqual([200, 200, 413]);
    // a forged hop in front of the real one does not help: the proxy appended the real address
    expect(await newSession(server, '203.0.113.50, 198.51.100.1')).toBe(413);
    expect(await newSession(server, '198.51.100.2')).toBe(200);
  });
});

describe('open sockets per identity: MAX_SOCKETS_PER_IDENTITY', () => {
  it('refuses the 6th socket of one identity with 4005 and no welcome; the 5 open ones keep working', async () => {
    const server = await serverWith({});
    const id = randomUUID();
    const session = await keyExchange(server.url);
    const open: TestSocket[] = [];
    for (let i = 0; i < 5; i += 1) open.push(await connect(server, session, id));
    const secret = heldSecrets.get(`${server.socketKey}|${id}`);
    expect(secret).toEqual(expect.any(String));
    // a connect that does not prove the identity learns nothing about its sockets: 4004, not 4005
    const stranger = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, (await keyExchange(server.url)).saltKey, id, where), session);
    expect(await stranger.closed).toEqual({ code: 4004, reason: 'identity refused' });
    // the owner itself (its secret, its key session) gets 4005 on the 6th
    const sixth = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, id, { ...where, clientSecret: secret }), session);
    expect(await sixth.closed).toEqual({ code: 4005, reason: 'too many connections' });
    expect(sixth.log).toEqual([]);
    expect(server.connections()).toBe(5);
    // the first five still hear their own messages
    const fp = open[4]?.say(id, 100, 'still here') ?? '';
    await Promise.all(open.map((s) => s.next((m) => m.fp === fp)));
    // one closes: a new one is accepted
    await open[0]?.close();
    sockets.splice(sockets.indexOf(open[0] as TestSocket), 1);
    await connect(server, session, id);
    expect(server.connections()).toBe(5);
  });

  it('a 6th socket refused with 4005 binds nothing: the fresh key session it used stays free', async () => {
    const server = await serverWith({});
    const id = randomUUID();
    const session = await keyExchange(server.url);
    for (let i = 0; i < 5; i += 1) await connect(server, session, id);
    const fresh = await keyExchange(server.url);
    const secret = heldSecrets.get(`${server.socketKey}|${id}`);
    const sixth = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, fresh.saltKey, id, { ...where, clientSecret: secret }), fresh);
    expect(await sixth.closed).toEqual({ code: 4005, reason: 'too many connections' });
    expect((await server.store.keys.byRequestKey(fresh.requestKey))?.boundTo).toBeNull();
  });
});

describe('socket connects per address: RATE_CONNECTS_MAX per RATE_CONNECTS_WINDOW_MS', () => {
  it('answers the upgrade past the limit with HTTP 413 before any cryptographic work', async () => {
    const server = await serverWith({ RATE_CONNECTS_MAX: '3' });
    // one identity on its bound key session (a second id on it would be refused 4004, §3a)
    const session = await keyExchange(server.url);
    const id = randomUUID();
    for (let i = 0; i < 3; i += 1) await connect(server, session, id);
    const refused = await new Promise<number>((resolve, reject) => {
      const socket = TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, id, { ...where, clientSecret: heldSecrets.get(`${server.socketKey}|${id}`) }), session);
      socket.then(() => reject(new Error('the 4th connect was accepted')), (error: unknown) => resolve(String(error).includes('unexpected response') ? 413 : 0));
    });
    expect(refused).toBe(413);
    expect(server.connections()).toBe(3);
  });
});

describe('message rate per identity and per key session: RATE_SOCKET_MAX per RATE_SOCKET_WINDOW_MS', () => {
  it('one key session is capped across its sockets; other ids cannot join it to spread the flood', async () => {
    const server = await serverWith({ RATE_SOCKET_MAX: '3', RATE_SOCKET_WINDOW_MS: '60000' });
    const session = await keyExchange(server.url);
    const id = randomUUID();
    const own = [await connect(server, session, id), await connect(server, session, id)];
    // the key session is bound to `id`: 9 other ids on it are refused 4004, no welcome
    const others = Array.from({ length: 9 }, () => randomUUID());
    for (const other of others) {
      const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, other, where), session);
      expect(await socket.closed).toEqual({ code: 4004, reason: 'identity refused' });
      expect(socket.log).toEqual([]);
    }
    const sent = own.flatMap((socket) => [0, 1, 2].map((i) => ({ socket, fp: socket.say(id, 100, `flood ${i}`) })));
    const answers = await Promise.all(sent.map(({ socket, fp }) => socket.next((m) => m.fp === fp || (m.type === 500 && content<{ fp: string }>(m).fp === fp))));
    expect(answers.filter((m) => m.type === 100)).toHaveLength(3);
    const refused = answers.filter((m) => m.type === 500);
    expect(refused).toHaveLength(3);
    expect(new Set(refused.map((m) => content<{ reason: string }>(m).reason))).toEqual(new Set(['too-frequent']));
    // stored: exactly the accepted three, nothing for the refused ids
    expect((await server.store.chat.conversation(id, where.mchId, where.platformId, { size: 101 })).filter((m) => m.type === 100)).toHaveLength(3);
    for (const other of others) expect(await server.store.chat.conversation(other, where.mchId, where.platformId, { size: 101 })).toEqual([]);
  });

  it('one id on many key sessions shares one allowance too', async () => {
    const server = await serverWith({ RATE_SOCKET_MAX: '3', RATE_SOCKET_WINDOW_MS: '60000' });
    const id = randomUUID();
    const socketsOfId: TestSocket[] = [];
    for (let i = 0; i < 3; i += 1) socketsOfId.push(await connect(server, await keyExchange(server.url), id));
    const fps = socketsOfId.flatMap((s) => [s.say(id, 100, 'a'), s.say(id, 100, 'b')]);
    await socketsOfId[0]?.quiet(200);
    const stored = (await server.store.chat.conversation(id, where.mchId, where.platformId, { size: 101 })).filter((m) => m.type === 100);
    expect(stored).toHaveLength(3);
    const refusedFps = socketsOfId.flatMap((s) => s.log.filter((m) => m.type === 500 && content<{ reason: string }>(m).reason === 'too-frequent').map((m) => content<{ fp: string }>(m).fp));
    expect(refusedFps.sort()).toEqual(fps.filter((fp) => !stored.some((m) => m.fp === fp)).sort());
    expect(refusedFps).toHaveLength(3);
  });
});

describe('queue positions: coalesced, live, not stored (QUEUE_UPDATE_MS)', () => {
  it('60 visitors joining and leaving a queue cost O(N) frames and store no queue events', async () => {
    const N = 60;
    const dataDir = join((await import('node:os')).tmpdir(), `kefu-queue-${randomUUID()}`);
    const server = await serverWith({ RATE_HTTP_MAX: '100000' }, { dataDir, memoryDb: false });
    const visitors: { id: string; socket: TestSocket; session: Session }[] = [];
    for (let i = 0; i < N; i += 1) {
      const session = await keyExchange(server.url);
      const id = `queued-${String(i).padStart(2, '0')}-${randomUUID().slice(0, 8)}`;
      const socket = await connect(server, session, id);
      await socket.next((m) => m.type === 201);
      visitors.push({ id, socket, session });
    }
    const queuedFrames = (): number => visitors.reduce((n, v) => n + v.socket.log.filter(isEvent('queued')).length, 0);
    for (const v of visitors) {
      v.socket.say(v.id, 301, '{}');
      await v.socket.next(isEvent('queued'));
    }
    const joined = queuedFrames();
    expect(joined).toBe(N);
    // every visitor learned its own position
    expect(visitors.map((v) => content<{ position: number }>(v.socket.log.find(isEvent('queued')) as Msg).position)).toEqual(visitors.map((_, i) => i + 1));

    // all leave one after the other, the head of the queue first (the worst order: everyone
    // behind moves each time)
    for (const v of visitors) {
      v.socket.say(v.id, 302, '{}');
      await v.socket.next(isEvent('ended'));
    }
    await visitors[N - 1]?.socket.quiet(1200);
    const leaving = queuedFrames() - joined;
    expect(leaving).toBeLessThan(2 * N); // was N(N-1)/2 = 1,770
    expect(joined + leaving).toBeLessThan(3 * N);

    // nothing of it is stored: not in the database, not in the history
    const db = new Database(join(dataDir, 'kefu.db'), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare(`SELECT COUNT(*) AS n FROM messages WHERE type = 300 AND data_content LIKE '%"queued"%'`).get() as { n: number };
      expect(rows.n).toBe(0);
    } finally {
      db.close();
    }
    const last = visitors[N - 1] as (typeof visitors)[number];
    const history = await enc<{ list: Msg[] }>(server.url, last.session, 'POST', 'findMsgForCus', { clientId: last.id, ...where, size: 100 });
    expect(history.code).toBe(0);
    expect(history.data.list.filter(isEvent('queued'))).toEqual([]);
    expect(history.data.list.filter(isEvent('ended'))).toHaveLength(1);
  }, 30_000);

  it('a queued visitor that comes back (reload, second tab) is told its position live', async () => {
    const server = await serverWith({});
    const aheadId = randomUUID();
    const ahead = await connect(server, await keyExchange(server.url), aheadId);
    const id = randomUUID();
    const session = await keyExchange(server.url);
    const me = await connect(server, session, id);
    for (const [socket, who] of [[ahead, aheadId], [me, id]] as const) {
      await socket.next((m) => m.type === 201);
      socket.say(who, 301, '{}');
      await socket.next(isEvent('queued'));
    }
    await me.close();
    sockets.splice(sockets.indexOf(me), 1);
    const again = await connect(server, session, id);
    const told = await again.next(isEvent('queued'));
    expect(content(told)).toMatchObject({ event: 'queued', position: 2, busy: true });
  });
});

describe('malformed bodies get a 4xx envelope, never a 500', () => {
  const multipart = (boundary: string | null, body: string) => ({
    headers: { 'content-type': boundary === null ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}` },
    body,
  });
  const cases: { name: string; path: string; headers: Record<string, string>; body: string; status: number; code: number; message: RegExp }[] = [
    { name: 'a boundary that is not in the body', path: '/oss/aws/upload', ...multipart('abc', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nhi\r\n--xyz--\r\n'), status: 400, code: 1001, message: /^Malformed request body: / },
    { name: 'no boundary at all', path: '/oss/aws/upload', ...multipart(null, 'junk'), status: 400, code: 1001, message: /^Malformed request body: .*Boundary not found/ },
    { name: 'a body cut short inside the file', path: '/oss/aws/upload', ...multipart('abc', '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nhello'), status: 400, code: 1001, message: /^Malformed request body: / },
    { name: 'no file field', path: '/oss/aws/upload', ...multipart('abc', '--abc\r\nContent-Disposition: form-data; name="x"\r\n\r\nhello\r\n--abc--\r\n'), status: 400, code: 3001, message: /"file" field is missing/ },
    { name: 'a content type that is not multipart', path: '/oss/aws/upload', headers: { 'content-type': 'application/octet-stream' }, body: 'abc', status: 415, code: 1001, message: /^Unsupported content type: application\/octet-stream$/ },
    { name: 'a chunk body cut short', path: '/oss/unifiedOss/chunk/upload', ...multipart('abc', '--abc\r\nContent-Disposition: form-data; name="uploadId"\r\n\r\nhel'), status: 400, code: 1001, message: /^Malformed request body: / },
    { name: 'JSON that does not parse (upload)', path: '/oss/unifiedOss/chunk/init', headers: { 'content-type': 'application/json' }, body: '{"fileName":', status: 400, code: 1001, message: /^Malformed request body: .*not valid JSON/ },
    { name: 'JSON that does not parse (permit call)', path: '/im/api/permit/findMsgForCus', headers: { 'content-type': 'application/json' }, body: '{"data":', status: 400, code: 1001, message: /^Malformed request body: .*not valid JSON/ },
    { name: 'an empty JSON body', path: '/translate/google/translate', headers: { 'content-type': 'application/json' }, body: '', status: 400, code: 1001, message: /^Malformed request body: / },
    { name: 'XML', path: '/im/api/permit/findMsgForCus', headers: { 'content-type': 'application/xml' }, body: '<a/>', status: 415, code: 1001, message: /^Unsupported content type/ },
  ];

  let server: Server;
  let saltKey: string;
  beforeAll(async () => {
    server = await serverWith({});
    // uploads need a key session bound by a socket connect (§3a): the bodies are read only then
    saltKey = (await boundSession(server, randomUUID(), where)).saltKey;
  });

  it('an upload from a key session that speaks for nobody is refused 4003 before its body is read', async () => {
    const unbound = await keyExchange(server.url);
    const response = await fetch(`${server.url}/oss/aws/upload`, { method: 'POST', headers: { 'accept-language': 'en', 'x-salt-key': unbound.saltKey, ...multipart('abc', 'junk').headers }, body: 'junk' });
    const envelope = (await response.json()) as { code: number; data: unknown };
    expect(envelope).toMatchObject({ code: 4003, data: null });
    expect(server.errors).toEqual([]);
  });

  it.each(cases)('$name', async ({ path, headers, body, status, code, message }) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'accept-language': 'en', 'x-salt-key': saltKey, ...headers }, body });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const envelope = (await response.json()) as { code: number; message: string; data: unknown };
    expect(envelope).toEqual({ code, message: expect.stringMatching(message) as unknown as string, data: null });
    expect(server.errors).toEqual([]);
  });
});
