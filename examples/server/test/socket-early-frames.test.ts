/**
 * No frame of a client is lost silently: frames sent right after the socket opens, before the
 * connect is admitted (admission reads the store), are held and handled in order once it is. An
 * SDK that comes back from an outage resends its whole outbox at once, before the welcome.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectUrl, keyExchange, TestSocket, type Msg } from '../../../conformance/src/client/index.js';
import { serverForFile } from './helpers/file-server.js';

// the burst is the point here, not the "sending too often" rule
const server = serverForFile({}, { RATE_SOCKET_MAX: '100000' });

const where = { mchId: 'M1001', platformId: 'P01' };

/**
 * Makes the store's key-session binding (an admission step) take `ms`, as a database across a
 * network: the client's frames surely arrive before its welcome.
 */
function slowAdmission(ms: number): void {
  const identity = server.store.identity as { bindKeySession: (saltKey: string, identity: string) => Promise<boolean> };
  const bind = identity.bindKeySession;
  identity.bindKeySession = async (saltKey, id) => {
    await new Promise((r) => setTimeout(r, ms));
    return bind(saltKey, id);
  };
  onTestFinished(() => {
    identity.bindKeySession = bind;
  });
}

/** Makes the connect check's key-session lookup take `ms`. */
function slowConnectCheck(ms: number): void {
  const keys = server.store.keys as { bySaltKey: (saltKey: string) => Promise<unknown> };
  const lookUp = keys.bySaltKey;
  keys.bySaltKey = async (saltKey) => {
    await new Promise((r) => setTimeout(r, ms));
    return lookUp(saltKey);
  };
  onTestFinished(() => {
    keys.bySaltKey = lookUp;
  });
}

/** Opens a raw socket and, before any answer, sends `count` texts; resolves with their fps and the socket. */
async function burstAtOpen(count: number): Promise<{ id: string; fps: string[]; socket: TestSocket }> {
  const session = await keyExchange(server.url);
  const id = randomUUID();
  const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, id, where), session);
  const fps = Array.from({ length: count }, (_, i) => socket.say(id, 100, `early ${i}`));
  expect(socket.log).toEqual([]); // nothing answered yet: every text went before the welcome
  return { id, fps, socket };
}

/** The acknowledgements (the visitor's own texts echoed back with their fp) among `log`, in arrival order. */
function acksOf(log: readonly Msg[], id: string, fps: readonly string[]): string[] {
  const sent = new Set(fps);
  return log.filter((m) => m.type === 100 && m.from === id && typeof m.fp === 'string' && sent.has(m.fp)).map((m) => String(m.fp));
}

async function allAcknowledged(socket: TestSocket, id: string, fps: readonly string[]): Promise<void> {
  const last = fps[fps.length - 1];
  await socket.next((m) => m.type === 100 && m.fp === last, 15_000);
  await socket.quiet(200);
  expect(acksOf(socket.log, id, fps)).toEqual(fps);
}

describe('no silent frame loss: frames sent before the welcome', () => {
  it('acknowledges 100 texts sent right after opening, before the welcome, each exactly once and in order', { timeout: 30_000 }, async () => {
    slowAdmission(100);
    const { id, fps, socket } = await burstAtOpen(100);
    await allAcknowledged(socket, id, fps);
    expect(socket.log.findIndex((m) => m.type === 60)).toBe(0); // the welcome came first
    await socket.close();
  });

  it('on a slow store (the connect check still reading it while the texts arrive), all 100 are acknowledged once, in order', { timeout: 30_000 }, async () => {
    slowConnectCheck(300);
    const { id, fps, socket } = await burstAtOpen(100);
    await allAcknowledged(socket, id, fps);
    await socket.close();
  });

  it('600 texts before admission (the socket is paused past 256 held frames, then read again): all acknowledged once, in order', { timeout: 30_000 }, async () => {
    slowAdmission(300);
    const { id, fps, socket } = await burstAtOpen(600);
    await allAcknowledged(socket, id, fps);
    // the connection stays open and keeps serving
    const after = socket.say(id, 100, 'after the burst');
    await socket.next((m) => m.type === 100 && m.fp === after, 5_000);
    await socket.close();
  });

  it('a heartbeat sent before the welcome is answered once admitted', { timeout: 30_000 }, async () => {
    slowAdmission(200);
    const session = await keyExchange(server.url);
    const id = randomUUID();
    const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, id, where), session);
    socket.send({ type: 1, from: id, dataContent: '{}' });
    await socket.next((m) => m.type === 51, 5_000);
    expect(socket.log.findIndex((m) => m.type === 60)).toBe(0);
    await socket.close();
  });

  it('a refused connect that sent 600 frames (its socket paused) is closed with 4001 promptly, its close handshake complete', { timeout: 30_000 }, async () => {
    slowConnectCheck(300);
    const session = await keyExchange(server.url);
    const id = randomUUID();
    const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, id, where, { t: 'no-such-salt-key' }), session);
    const started = Date.now();
    for (let i = 0; i < 600; i++) socket.say(id, 100, `early ${i}`);
    const closed = await socket.closed;
    expect(closed.code).toBe(4001);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(socket.log.filter((m) => m.type === 100)).toEqual([]);
  });
});
