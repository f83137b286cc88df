/**
 * Verified identity (protocol §3b, issue 22) over real sockets, on SQLite and on PostgreSQL (+
 * Redis): a merchant's member is one visitor on every device; bad tokens are refused 4006 with
 * nothing bound; an anonymous conversation that logs in is merged and its id retired; member ids
 * cannot be forged; the member's rows join the export and the deletion. Tokens are signed with
 * `jose` (`SignJWT`), the attacker's ones built by hand where `jose` would refuse to make them.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIdentityToken } from '../src/identity/identity-token.js';
import {
  connectUrl,
  content,
  enc,
  keyExchange,
  TestSocket,
  welcomeSecret,
  type Msg,
  type Session,
} from '../../../conformance/src/client/index.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from './helpers/pg-database.js';
import { redisUnavailable, skipUnlessCi, TEST_REDIS_URL } from './helpers/prerequisites.js';
import { removeDir, startServer } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;

const SECRET_A = 'merchant-a-secret-0123456789abcdefghijklmnop';
const SECRET_A_NEXT = 'merchant-a-rotated-secret-0123456789abcdefgh';
const SECRET_B = 'merchant-b-secret-0123456789abcdefghijklmnop';
const A = { mchId: 'M1001', platformId: 'P01' };
const B = { mchId: 'M2002', platformId: 'P01' };
const ADMIN_TOKEN = 'admin-token-for-the-verified-identity-tests-0123';
const ENV = { MERCHANT_SECRETS: `M1001:${SECRET_A},M1001:${SECRET_A_NEXT},M2002:${SECRET_B}`, RATE_SOCKET_MAX: '1000', ADMIN_TOKEN };

const pgSkip = skipUnlessCi('verified-identity on PostgreSQL', (await postgresUnavailable()) ?? (await redisUnavailable()));

/** A token as a merchant's backend signs it. */
function token(sub: string, extra: { mchId?: string; secret?: string; ttlS?: number; now?: number; name?: string } = {}): Promise<string> {
  return signIdentityToken({ mchId: extra.mchId ?? A.mchId, sub, ttlS: extra.ttlS ?? 600, ...(extra.name ? { name: extra.name } : {}) }, extra.secret ?? SECRET_A, extra.now);
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function suite(kind: 'sqlite' | 'postgres'): void {
  let server: Server;
  let db: TestDatabase | undefined;

  beforeAll(async () => {
    const env: Record<string, string> = { ...ENV };
    if (kind === 'postgres') {
      db = await freshDatabase('verified_identity');
      Object.assign(env, { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, CLUSTER_NAME: `test-${randomUUID()}` });
    }
    server = await startServer(kind === 'postgres' ? { memoryDb: false } : {}, env);
    await server.store.directory.putMerchant({ mchId: B.mchId, name: 'Shop B', kefuAvatar2: '', extra: {} });
    await server.store.directory.putPlatform({ mchId: B.mchId, platformId: B.platformId, name: 'Web', enabled: true });
  });
  afterAll(async () => {
    await server?.close();
    removeDir(server.dataDir);
    await db?.drop();
    expect(server.errors).toEqual([]);
  });

  /** Connects and answers the welcome, or the close when refused. */
  async function connect(u: string, d: Record<string, unknown>, session?: Session): Promise<{ socket: TestSocket; session: Session; welcome?: Msg; closed?: { code: number; reason: string } }> {
    const s = session ?? (await keyExchange(server.url));
    const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, s.saltKey, u, d), s);
    const first = await Promise.race([socket.next((m) => m.type === 60).then((welcome) => ({ welcome })), socket.closed.then((closed) => ({ closed }))]);
    return { socket, session: s, ...first };
  }

  async function say(socket: TestSocket, from: string, text: string): Promise<void> {
    const fp = socket.say(from, 100, text);
    await socket.next((m) => m.fp === fp && m.type === 100);
  }

  async function history(session: Session, clientId: string): Promise<string[]> {
    const res = await enc<{ list: Msg[] }>(server.url, session, 'POST', 'findMsgForCus', { clientId, ...A, size: 100 });
    expect(res.code).toBe(0);
    return res.data.list.filter((m) => m.type === 100).map((m) => String(m.dataContent));
  }

  describe('§3b.2 the same member on two devices is one visitor with one history', () => {
    it('two anonymous ids with one member token get the same visitor id, verified, without a §3a secret, and see every message', async () => {
      const sub = `member-${randomUUID()}`;
      const phone = await connect(randomUUID(), { ...A, identityToken: await token(sub, { name: 'Ann' }) });
      expect(phone.welcome).toBeDefined();
      const memberId = String(phone.welcome?.to);
      expect(memberId).toMatch(/^vm-[0-9a-f-]{36}$/);
      expect(content(phone.welcome as Msg)).toMatchObject({ verified: true, userId: memberId, name: 'Ann' });
      expect(welcomeSecret(phone.welcome as Msg)).toBeUndefined();
      await say(phone.socket, memberId, 'sent from the phone');
      await phone.socket.close();

      const laptop = await connect(randomUUID(), { ...A, identityToken: await token(sub) });
      expect(laptop.welcome?.to).toBe(memberId);
      await say(laptop.socket, memberId, 'sent from the laptop');
      expect(await history(laptop.session, memberId)).toEqual(['sent from the phone', 'sent from the laptop']);
      // the member id itself as `u`, with its token, is fine too (the client adopts `to`)
      const again = await connect(memberId, { ...A, identityToken: await token(sub) });
      expect(again.welcome?.to).toBe(memberId);
      await Promise.all([laptop.socket.close(), again.socket.close()]);
      expect(await server.store.members.member(A.mchId, sub)).toMatchObject({ clientId: memberId });
      expect(await server.store.identity.secretHash(memberId)).toBeUndefined();
    });

    it('a token signed with either secret of a rotation is accepted', async () => {
      const sub = `rot-${randomUUID()}`;
      const first = await connect(randomUUID(), { ...A, identityToken: await token(sub) });
      const second = await connect(randomUUID(), { ...A, identityToken: await token(sub, { secret: SECRET_A_NEXT }) });
      expect(second.welcome?.to).toBe(first.welcome?.to);
      await Promise.all([first.socket.close(), second.socket.close()]);
    });
  });

  describe('§3b.3 a bad token is refused with 4006 and a reason; nothing is bound', () => {
    async function refusedWith(identityToken: unknown, where = A): Promise<{ code: number; reason: string }> {
      const session = await keyExchange(server.url);
      const u = randomUUID();
      const r = await connect(u, { ...where, identityToken }, session);
      expect(r.welcome).toBeUndefined();
      // nothing bound: the key session still serves a fresh anonymous visitor
      expect((await server.store.keys.bySaltKey(session.saltKey))?.boundTo).toBeNull();
      expect(await server.store.chat.visitor(u)).toBeUndefined();
      return r.closed ?? { code: 0, reason: '' };
    }
    const now = Date.now();
    const sub = 'victim-member';

    it('a token for merchant A on merchant B: merchant', async () => {
      expect(await refusedWith(await token(sub), B)).toEqual({ code: 4006, reason: 'merchant' });
      // and one signed with B's secret that names A, on B
      expect(await refusedWith(await token(sub, { secret: SECRET_B }), B)).toEqual({ code: 4006, reason: 'merchant' });
    });
    it('expired: expired', async () => {
      expect(await refusedWith(await token(sub, { now: now - 3_600_000, ttlS: 60 }))).toEqual({ code: 4006, reason: 'expired' });
    });
    it('more than 24 h ahead, wrong signature, tampered payload, alg none, HS512, RS256, garbage, a number, too long: invalid', async () => {
      const good = await token(sub);
      const [header, , signature] = good.split('.');
      const tampered = `${header}.${b64url({ mch: A.mchId, sub: 'someone-else', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 600 })}.${signature}`;
      const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ mch: A.mchId, sub, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 600 })}.`;
      const claims = { mch: A.mchId };
      const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).setSubject(sub).setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(SECRET_A));
      const { privateKey } = await generateKeyPair('RS256');
      const rs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).setSubject(sub).setIssuedAt().setExpirationTime('10m').sign(privateKey);
      const noExp = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt().sign(new TextEncoder().encode(SECRET_A));
      const cases: [string, unknown][] = [
        ['48 h ahead', await token(sub, { ttlS: 48 * 3600 }).then(() => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt().setExpirationTime('48h').sign(new TextEncoder().encode(SECRET_A)))],
        ['wrong secret', await token(sub, { secret: 'a-wrong-secret-0123456789abcdefghijklmnopq' })],
        ['tampered', tampered],
        ['alg none', none],
        ['HS512', hs512],
        ['RS256', rs256],
        ['no exp', noExp],
        ['garbage', 'not.a.jwt'],
        ['a number', 42],
        ['too long', `${good}${'x'.repeat(5000)}`],
      ];
      for (const [name, t] of cases) expect({ name, ...(await refusedWith(t)) }).toEqual({ name, code: 4006, reason: 'invalid' });
    });
  });

  describe('§3b.4 merge: an anonymous conversation that logs in is kept, and its id retired', () => {
    it('the anonymous messages join the member history; the old id with its secret is refused 4004 afterwards', async () => {
      const anon = randomUUID();
      const first = await connect(anon, A);
      const secret = welcomeSecret(first.welcome as Msg);
      expect(secret).toBeDefined();
      await say(first.socket, anon, 'asked before logging in');
      await first.socket.close();

      const sub = `merge-${randomUUID()}`;
      // the member already talked on another device
      const other = await connect(randomUUID(), { ...A, identityToken: await token(sub) });
      const memberId = String(other.welcome?.to);
      await say(other.socket, memberId, 'said on the other device');
      await other.socket.close();

      // same browser, same key session: logs in with its anonymous id and secret
      const login = await connect(anon, { ...A, clientSecret: secret, identityToken: await token(sub) }, first.session);
      expect(login.welcome?.to).toBe(memberId);
      expect((await history(login.session, memberId)).sort()).toEqual(['asked before logging in', 'said on the other device']);
      // the sequence stays one line without duplicates
      const seqs = (await server.store.chat.conversation(memberId, A.mchId, A.platformId, { size: 100 })).map((m) => m.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      await login.socket.close();
      expect(await server.store.chat.visitor(anon)).toBeUndefined();

      const reused = await connect(anon, { ...A, clientSecret: secret });
      expect(reused.closed).toEqual({ code: 4004, reason: 'identity refused' });
    });

    it('a valid token with a wrong anonymous secret merges nothing', async () => {
      const anon = randomUUID();
      const first = await connect(anon, A);
      await say(first.socket, anon, 'private anonymous question');
      await first.socket.close();
      const login = await connect(anon, { ...A, clientSecret: 'wrong', identityToken: await token(`thief-${randomUUID()}`) });
      const memberId = String(login.welcome?.to);
      expect(await history(login.session, memberId)).toEqual([]);
      expect(await server.store.chat.visitor(anon)).toBeDefined();
      await login.socket.close();
    });
  });

  describe('attacker: forged member ids', () => {
    it('a member id as `u` without a token is refused 4004, and with another member\'s token it serves that member only', async () => {
      const victim = await connect(randomUUID(), { ...A, identityToken: await token(`victim-${randomUUID()}`) });
      const victimId = String(victim.welcome?.to);
      await say(victim.socket, victimId, 'the victim\'s secret');
      await victim.socket.close();
      expect((await connect(victimId, A)).closed).toEqual({ code: 4004, reason: 'identity refused' });
      expect((await connect(`vm-${randomUUID()}`, A)).closed).toEqual({ code: 4004, reason: 'identity refused' });
      const attacker = await connect(victimId, { ...A, identityToken: await token(`attacker-${randomUUID()}`) });
      expect(attacker.welcome?.to).not.toBe(victimId);
      expect((await enc(server.url, attacker.session, 'POST', 'findMsgForCus', { clientId: victimId, ...A, size: 100 })).code).toBe(4003);
      await attacker.socket.close();
    });
  });

  describe('privacy: the member rows join the export and the deletion', () => {
    it('exports the member (sub, merchant) and deletes it leaving nothing; the next login starts a new id', async () => {
      const sub = `gdpr-${randomUUID()}`;
      const c = await connect(randomUUID(), { ...A, identityToken: await token(sub) });
      const memberId = String(c.welcome?.to);
      await say(c.socket, memberId, 'please forget me');
      await c.socket.close();
      const admin = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };
      const exported = (await (await fetch(`${server.url}/admin/api/visitors/${memberId}`, admin)).json()) as { data: { member: unknown; messages: Msg[] } };
      expect(exported.data.member).toMatchObject({ mchId: A.mchId, sub });
      expect(exported.data.messages.some((m) => m.dataContent === 'please forget me')).toBe(true);
      expect((await fetch(`${server.url}/admin/api/visitors/${memberId}`, { ...admin, method: 'DELETE' })).status).toBe(200);
      expect(await server.store.members.member(A.mchId, sub)).toBeUndefined();
      expect(await server.store.members.memberByClientId(memberId)).toBeUndefined();
      expect(await server.store.chat.visitor(memberId)).toBeUndefined();
      expect(await server.store.privacy.visitorRecords(memberId)).toMatchObject({ visitor: undefined, member: undefined, sessions: [], messages: [], keySessions: 0 });
      const back = await connect(randomUUID(), { ...A, identityToken: await token(sub) });
      expect(back.welcome?.to).not.toBe(memberId);
      expect(await history(back.session, String(back.welcome?.to))).toEqual([]);
      await back.socket.close();
      expect((await connect(memberId, { ...A, identityToken: await token(sub) })).closed).toEqual({ code: 4004, reason: 'identity refused' });
    });
  });
}

describe('verified identity on SQLite', () => suite('sqlite'));
describe.skipIf(pgSkip)('verified identity on PostgreSQL + Redis', () => suite('postgres'));
