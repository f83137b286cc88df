/**
 * Availability over raw frames: business hours (MERCHANT_HOURS and the admin command), agents
 * available, the type-320 signal after the welcome and when agents come, the honest answer to a
 * transfer (type 301) when nobody can come, and the queue's estimated wait from recent accepts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { content, isEvent, keyExchange, TestSocket, type Msg } from '../../../conformance/src/client/index.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
    removeDir(server.dataDir);
  }
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const where = { mchId: 'M1001', platformId: 'P01' };
const isAvailability = (m: Msg): boolean => m.type === 320;

async function start(env: Record<string, string> = {}): Promise<Server> {
  const server = await startServer({}, env);
  servers.push(server);
  return server;
}

async function visitor(server: Server, language = 'en'): Promise<{ id: string; socket: TestSocket }> {
  const session = await keyExchange(server.url);
  const id = randomUUID();
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, { ...where, name: 'Ming', language });
  return { id, socket };
}

async function agent(server: Server): Promise<TestSocket> {
  const session = await keyExchange(server.url);
  return TestSocket.connect(server.socketUrl, server.socketKey, session, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
}

/** `HH:MM` (UTC) of `at`. */
const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);

/** Hours (UTC, every weekday) that open `fromNowMin` minutes from now for an hour. */
function hoursOpeningIn(fromNowMin: number): { hours: object; opensAt: number } {
  const opensAt = Math.floor(Date.now() / 60_000) * 60_000 + fromNowMin * 60_000;
  const range = [hhmm(opensAt), hhmm(opensAt + 3_600_000)];
  const days = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [range]]));
  return { hours: { timeZone: 'UTC', days }, opensAt };
}

describe('type 320: a visitor hears its merchant\'s availability after the welcome and when it changes', () => {
  it('no hours and no agent: open, nobody available; an agent logs in and the visitor hears it at once', async () => {
    const server = await start();
    const v = await visitor(server);
    expect(content(await v.socket.next(isAvailability))).toEqual({ open: true, agentsAvailable: false, nextOpenAt: expect.any(Number), nextChangeAt: null });
    const from = v.socket.log.length;
    const desk = await agent(server);
    const told = await v.socket.next(isAvailability, 3000, from);
    expect(content(told)).toMatchObject({ open: true, agentsAvailable: true });
    await desk.close();
    expect(content(await v.socket.next(isAvailability, 3000, v.socket.log.indexOf(told) + 1))).toMatchObject({ agentsAvailable: false });
  });

  it('outside MERCHANT_HOURS: closed, with the minute it opens next', async () => {
    const { hours, opensAt } = hoursOpeningIn(120);
    const server = await start({ MERCHANT_HOURS: JSON.stringify({ M1001: hours }) });
    const v = await visitor(server);
    expect(content(await v.socket.next(isAvailability))).toEqual({ open: false, agentsAvailable: false, nextOpenAt: opensAt, nextChangeAt: opensAt });
  });
});

describe('type 301 when nobody can come is answered at once', () => {
  it('outside hours: an `unavailable` event (closed, next opening) and the robot\'s word; the visitor is not queued', async () => {
    const { hours, opensAt } = hoursOpeningIn(120);
    const server = await start({ MERCHANT_HOURS: JSON.stringify({ '*': hours }) });
    const desk = await agent(server);
    const v = await visitor(server);
    await v.socket.next(isEvent('created'));
    const fp = v.socket.say(v.id, 301, '{}');
    await v.socket.next((m) => m.fp === fp);
    const answer = await v.socket.next(isEvent('unavailable'));
    expect(content(answer)).toMatchObject({ event: 'unavailable', reason: 'closed', open: false, agentsAvailable: true, nextOpenAt: opensAt });
    await v.socket.next((m) => m.type === 200 && String(m.dataContent).includes('business hours'));
    await v.socket.quiet();
    expect(v.socket.log.some(isEvent('queued'))).toBe(false);
    expect((await server.store.chat.latestSession(v.id, where.mchId, where.platformId))?.state).toBe('robot');
    await desk.close();
  });

  it('inside hours with no agent online: `unavailable` (no-agent) first, then queued and busy (the first agent to come serves it)', async () => {
    const server = await start();
    const v = await visitor(server, 'zh');
    await v.socket.next(isEvent('created'));
    v.socket.say(v.id, 301, '{}');
    const answer = await v.socket.next(isEvent('unavailable'));
    expect(content(answer)).toMatchObject({ reason: 'no-agent', open: true, agentsAvailable: false });
    const queued = await v.socket.next(isEvent('queued'));
    expect(v.socket.log.indexOf(answer)).toBeLessThan(v.socket.log.indexOf(queued));
    expect(content(queued)).toMatchObject({ position: 1, busy: true, etaMs: null });
  });
});

describe('the queue\'s estimated wait: the median of the latest accept waits times the position', () => {
  it('with waits of 60 s, 90 s and 120 s behind it, position 1 waits ~90 s and position 2 ~180 s', async () => {
    const server = await start();
    const t = Date.now() - 600_000;
    for (const [i, wait] of [60_000, 120_000, 90_000].entries()) {
      await server.store.chat.createSession({
        ...{ sessionId: randomUUID(), clientId: `past-${i}`, ...where, state: 'ended', agentId: 'agent:alice' },
        ...{ createdAt: t, queuedAt: t + i * 1000, acceptedAt: t + i * 1000 + wait, endedAt: t + 300_000, score: null, remark: null },
      });
    }
    const desk = await agent(server);
    const first = await visitor(server);
    first.socket.say(first.id, 301, '{}');
    expect(content(await first.socket.next(isEvent('queued')))).toMatchObject({ position: 1, busy: false, etaMs: 90_000 });
    const second = await visitor(server);
    second.socket.say(second.id, 301, '{}');
    expect(content(await second.socket.next(isEvent('queued')))).toMatchObject({ position: 2, etaMs: 180_000 });
    // the first is accepted after waiting: the second moves to position 1 with a new estimate
    desk.say('agent:alice', 311, JSON.stringify({ clientId: first.id }));
    const moved = await second.socket.next((m) => isEvent('queued')(m) && content<{ position: number }>(m).position === 1, 5000);
    expect(content<{ etaMs: number }>(moved).etaMs).toBeGreaterThan(0);
    await desk.close();
  });
});

describe('hours are set in config or with the admin command (which wins)', () => {
  it('MERCHANT_HOURS with bad hours is refused with a clear error', () => {
    expect(() => loadConfig({ MERCHANT_HOURS: '{"M1": {"timeZone": "Nowhere/City", "days": {}}}' })).toThrow(ConfigError);
    expect(() => loadConfig({ MERCHANT_HOURS: '{"M1": {"timeZone": "Nowhere/City", "days": {}}}' })).toThrow('MERCHANT_HOURS "M1": unknown time zone "Nowhere/City"');
    expect(() => loadConfig({ MERCHANT_HOURS: 'mon 9-18' })).toThrow(/must be JSON/);
    expect(() => loadConfig({ MERCHANT_HOURS_FILE: '/nonexistent/hours.json' })).toThrow(/cannot be read/);
  });

  it('admin hours set/show/clear on the store; the server then answers with them', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const out: string[] = [];
    const admin = (args: string[]): Promise<number> => runAdmin(args, { env: { DATA_DIR: dir }, readPassword: async () => '', out: (l) => out.push(l) });
    await expect(admin(['hours', 'set', 'M1001', '{"timeZone":"UTC","days":{"mon":[["25:00","26:00"]]}}'])).rejects.toThrow(/HH:MM/);
    await expect(admin(['hours', 'set', 'M1001', 'not json'])).rejects.toThrow(/not valid JSON/);
    expect(await admin(['hours', 'set', 'M1001', '{"timeZone":"UTC","days":{}}'])).toBe(0);
    expect(await admin(['hours', 'show', 'M1001'])).toBe(0);
    expect(out.at(-1)).toBe('{"timeZone":"UTC","days":{}}');
    // the stored hours win over MERCHANT_HOURS: never open
    const server = await startServer({ dataDir: dir, memoryDb: false }, { MERCHANT_HOURS: '{"*":{"timeZone":"UTC","days":{"mon":[["00:00","24:00"]],"tue":[["00:00","24:00"]],"wed":[["00:00","24:00"]],"thu":[["00:00","24:00"]],"fri":[["00:00","24:00"]],"sat":[["00:00","24:00"]],"sun":[["00:00","24:00"]]}}}' });
    try {
      const v = await visitor(server);
      expect(content(await v.socket.next(isAvailability))).toMatchObject({ open: false, nextOpenAt: null });
      await v.socket.close();
      expect(await admin(['hours', 'clear', 'M1001'])).toBe(0);
      const w = await visitor(server);
      expect(content(await w.socket.next(isAvailability))).toMatchObject({ open: true });
    } finally {
      await server.close();
    }
  });
});

describe('GET /im/api/permit/getAvailability answers what type 320 says', () => {
  it('the snapshot for a merchant; 1001 without mchId', async () => {
    const server = await start();
    const answer = (await (await fetch(`${server.url}/im/api/permit/getAvailability?mchId=M1001`)).json()) as { code: number; data: unknown };
    expect(answer).toMatchObject({ code: 0, data: { open: true, agentsAvailable: false, nextChangeAt: null } });
    const bad = (await (await fetch(`${server.url}/im/api/permit/getAvailability`)).json()) as { code: number };
    expect(bad.code).toBe(1001);
  });
});
