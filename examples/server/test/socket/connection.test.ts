/**
 * One connection alone: a fake socket and a fake messaging; no server.
 */
import { describe, expect, it } from 'vitest';
import type { ClientFrame } from '../../src/chat/messaging.js';
import { aesEcbEncrypt } from '../../src/crypto.js';
import { LOGGED_OUT_CLOSE, SERVER_ERROR_CLOSE } from '../../src/socket/close-codes.js';
import type { ConnectIdentity } from '../../src/socket/connect-check.js';
import { Connection, MAX_PENDING_FRAMES, OPEN, RESUME_PENDING_FRAMES, type ConnectionSocket } from '../../src/socket/connection.js';

class FakeSocket implements ConnectionSocket {
  readyState = OPEN;
  isPaused = false;
  readonly sent: string[] = [];
  readonly closes: [number, string][] = [];
  readonly flow: string[] = [];
  pause(): void {
    this.isPaused = true;
    this.flow.push('pause');
  }
  resume(): void {
    this.isPaused = false;
    this.flow.push('resume');
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(code: number, reason: string): void {
    this.closes.push([code, reason]);
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
  messages(): { type: number; dataContent?: string }[] {
    return this.sent.map((s) => JSON.parse(s) as { type: number; dataContent?: string });
  }
}

/** A messaging whose every frame waits until the test lets it go. */
class HeldMessaging {
  readonly handled: ClientFrame[] = [];
  private releases: (() => void)[] = [];
  failNext = false;
  handle = (_peer: unknown, frame: ClientFrame): Promise<void> => {
    this.handled.push(frame);
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('store away'));
    }
    return new Promise((resolve) => this.releases.push(resolve));
  };
  /** Lets the running frame finish. */
  async release(count = 1): Promise<void> {
    for (let i = 0; i < count; i++) {
      await waitFor(() => this.releases.length > 0);
      this.releases.shift()?.();
    }
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setImmediate(r));
  expect(condition()).toBe(true);
}

const identity = (role: 'visitor' | 'agent' = 'visitor'): ConnectIdentity => ({
  role,
  userId: role === 'agent' ? 'agent:alice' : 'v1',
  name: 'n',
  avatar: 'a',
  mchId: '',
  platformId: '',
  language: 'en',
  groupId: '',
  keySession: { saltKey: 'salt', requestKey: 'r', aesKey: 'k', token: '0123456789abcdef0123456789abcdef', createdAt: 0, lastUsed: 0, boundTo: null },
  connectId: 'u',
});

function setUp(options: { role?: 'visitor' | 'agent'; userKey?: Buffer | null; agentToken?: string; writes?: { hold(): void }; now?: () => number; keySessions?: { keepEvery: number; keep(saltKey: string): Promise<void> } } = {}) {
  const socket = new FakeSocket();
  const messaging = new HeldMessaging();
  const revoked: string[] = [];
  const loggedOut: string[] = [];
  const errors: unknown[] = [];
  const hubCalls: string[] = [];
  const connection = new Connection({
    socket,
    identity: identity(options.role),
    userKey: options.userKey ?? null,
    agentToken: options.agentToken,
    messaging,
    agentTokens: {
      revoke: async (token) => {
        revoked.push(token);
        return true;
      },
      revokeAll: async (account) => {
        revoked.push(`all of ${account}`);
        return 2;
      },
    },
    hub: {
      sendTo: (userId, message, skip) => {
        hubCalls.push(`sendTo ${userId} ${message.type} ${message.dataContent} skip=${skip === connection.peer}`);
        return 0;
      },
      disconnect: (userId, code, reason) => {
        hubCalls.push(`disconnect ${userId} ${code} ${reason}`);
        return 0;
      },
    },
    agentPresence: { loggedOut: (id) => void loggedOut.push(id) },
    onError: (e) => void errors.push(e),
    now: options.now ?? (() => 42),
    ...(options.writes ? { writes: options.writes } : {}),
    ...(options.keySessions ? { keySessions: options.keySessions } : {}),
  });
  return { socket, messaging, revoked, loggedOut, errors, hubCalls, connection };
}

const text = (i: number): string => JSON.stringify({ type: 100, from: 'v1', fp: `fp-${i}`, dataContent: `t${i}` });

describe('connection: frames are handled one at a time, in arrival order', () => {
  it('hands the next frame to messaging only when the one before is done', async () => {
    const { messaging, connection } = setUp();
    for (let i = 0; i < 3; i++) connection.receive(Buffer.from(text(i)), false);
    await waitFor(() => messaging.handled.length === 1);
    await messaging.release();
    await waitFor(() => messaging.handled.length === 2);
    await messaging.release(2);
    await connection.idle();
    expect(messaging.handled.map((f) => f.fp)).toEqual(['fp-0', 'fp-1', 'fp-2']);
  });
});

describe('connection: heartbeats are answered at once, whatever is waiting', () => {
  it('replies 51 to a heartbeat while a text waits for the store', async () => {
    const { socket, messaging, connection } = setUp();
    connection.receive(Buffer.from(text(0)), false);
    connection.receive(Buffer.from(JSON.stringify({ type: 1, from: 'v1' })), false);
    expect(socket.messages()).toEqual([{ type: 51, from: 'system', to: 'v1', sm: 42, dataContent: '{}' }]);
    await messaging.release();
    await connection.idle();
    expect(messaging.handled.map((f) => f.type)).toEqual([100]);
  });
});

describe('connection: an open socket keeps its key session alive', () => {
  it('keeps it once every keepEvery of frames (heartbeats are enough), never per frame; a failed keep is reported, the socket stays', async () => {
    let now = 1_000;
    const kept: string[] = [];
    let fail = false;
    const keySessions = {
      keepEvery: 500,
      keep: async (saltKey: string) => {
        kept.push(`${saltKey}@${now}`);
        if (fail) throw new Error('store away');
      },
    };
    const { socket, errors, connection } = setUp({ now: () => now, keySessions });
    const heartbeat = Buffer.from(JSON.stringify({ type: 1, from: 'v1' }));
    for (const t of [1_200, 1_499, 1_500, 1_700, 1_999, 2_100, 2_400]) {
      now = t;
      connection.receive(heartbeat, false);
    }
    expect(kept).toEqual(['salt@1500', 'salt@2100']);
    fail = true;
    now = 2_600;
    connection.receive(heartbeat, false);
    await new Promise((r) => setImmediate(r));
    expect(kept).toHaveLength(3);
    expect(errors).toHaveLength(1);
    expect(socket.closes).toEqual([]);
    expect(socket.messages().filter((m) => m.type === 51)).toHaveLength(8);
  });
});

describe('connection: backpressure', () => {
  it(`stops reading at ${MAX_PENDING_FRAMES} waiting frames and reads again at ${RESUME_PENDING_FRAMES}; none is dropped`, async () => {
    const { socket, messaging, connection } = setUp();
    for (let i = 0; i < MAX_PENDING_FRAMES + 10; i++) connection.receive(Buffer.from(text(i)), false);
    expect(socket.flow).toEqual(['pause']);
    expect(connection.pending).toBe(MAX_PENDING_FRAMES + 10);
    await messaging.release(MAX_PENDING_FRAMES + 10 - RESUME_PENDING_FRAMES - 1);
    await waitFor(() => connection.pending === RESUME_PENDING_FRAMES + 1);
    expect(socket.isPaused).toBe(true);
    await messaging.release();
    await waitFor(() => connection.pending === RESUME_PENDING_FRAMES);
    expect(socket.flow).toEqual(['pause', 'resume']);
    await messaging.release(RESUME_PENDING_FRAMES);
    await connection.idle();
    expect(messaging.handled.map((f) => f.fp)).toEqual(Array.from({ length: MAX_PENDING_FRAMES + 10 }, (_, i) => `fp-${i}`));
  });

  it('resumeUnlessBacklogged reads again after a pause of its own, but not while the queue is full', async () => {
    const { socket, messaging, connection } = setUp();
    socket.pause();
    connection.resumeUnlessBacklogged();
    expect(socket.isPaused).toBe(false);
    for (let i = 0; i < MAX_PENDING_FRAMES; i++) connection.receive(Buffer.from(text(i)), false);
    connection.resumeUnlessBacklogged();
    expect(socket.isPaused).toBe(true);
    await messaging.release(MAX_PENDING_FRAMES);
    await connection.idle();
  });
});

describe('connection: a frame the store could not handle', () => {
  it('closes with 1011 so the client reconnects and resends; the error is reported', async () => {
    const { socket, messaging, errors, connection } = setUp();
    messaging.failNext = true;
    connection.receive(Buffer.from(text(0)), false);
    await connection.idle();
    expect(socket.closes).toEqual([[SERVER_ERROR_CLOSE, 'server error']]);
    expect(errors).toHaveLength(1);
  });
});

describe('connection: decoding', () => {
  it('refuses an undecodable frame as bad-frame and keeps serving', async () => {
    const { socket, messaging, connection } = setUp();
    connection.receive(Buffer.from('not json'), false);
    connection.receive(Buffer.alloc(0), true);
    expect(socket.messages().map((m) => [m.type, JSON.parse(m.dataContent ?? '{}').reason])).toEqual([
      [500, 'bad-frame'],
      [500, 'bad-frame'],
    ]);
    connection.receive([Buffer.from(text(0).slice(0, 5)), Buffer.from(text(0).slice(5))], false);
    await messaging.release();
    await connection.idle();
    expect(messaging.handled.map((f) => f.fp)).toEqual(['fp-0']);
  });

  it('reads AES-ECB frames under the user key when the switch is on, and encrypts what it sends', async () => {
    const userKey = Buffer.from('0123456789abcdef0123456789abcdef', 'utf8');
    const { socket, messaging, connection } = setUp({ userKey });
    connection.receive(Buffer.from(aesEcbEncrypt(userKey, text(7))), false);
    await messaging.release();
    await connection.idle();
    expect(messaging.handled.map((f) => f.fp)).toEqual(['fp-7']);
    connection.peer.send({ type: 51, from: 'system', to: 'v1', dataContent: '{}' });
    expect(() => JSON.parse(socket.sent[0] ?? '')).toThrow();
  });
});

describe('connection: type 312, agent logout', () => {
  it('revokes the agent’s token, releases its visitors and closes with 1000', async () => {
    const { socket, revoked, loggedOut, connection } = setUp({ role: 'agent', agentToken: 'tok' });
    connection.receive(Buffer.from(JSON.stringify({ type: 312, from: 'agent:alice' })), false);
    await connection.idle();
    expect(revoked).toEqual(['tok']);
    expect(loggedOut).toEqual(['agent:alice']);
    expect(socket.closes).toEqual([[LOGGED_OUT_CLOSE, 'logged out']]);
  });

  it('everywhere: revokes every token of the account, tells the agent\'s other sockets (every node) and closes them all with 1000', async () => {
    const { socket, revoked, loggedOut, hubCalls, connection } = setUp({ role: 'agent', agentToken: 'tok' });
    connection.receive(Buffer.from(JSON.stringify({ type: 312, from: 'agent:alice', dataContent: '{"everywhere":true}' })), false);
    await connection.idle();
    expect(revoked).toEqual(['all of alice']);
    expect(loggedOut).toEqual(['agent:alice']);
    expect(hubCalls).toEqual(['sendTo agent:alice 312 {"everywhere":true} skip=true', `disconnect agent:alice ${LOGGED_OUT_CLOSE} logged out`]);
    expect(socket.closes).toEqual([[LOGGED_OUT_CLOSE, 'logged out']]);
  });

  it('anything but { everywhere: true } is a plain logout (malformed, a string "true", oversized)', async () => {
    for (const dataContent of ['not json', '{"everywhere":"true"}', 'null', `{"everywhere":true,"pad":"${'x'.repeat(300)}"}`, 42]) {
      const { revoked, hubCalls, connection } = setUp({ role: 'agent', agentToken: 'tok' });
      connection.receive(Buffer.from(JSON.stringify({ type: 312, from: 'agent:alice', dataContent })), false);
      await connection.idle();
      expect(revoked).toEqual(['tok']);
      expect(hubCalls).toEqual([]);
    }
  });

  it('refuses a visitor’s logout as not-allowed', async () => {
    const { socket, loggedOut, connection } = setUp();
    connection.receive(Buffer.from(JSON.stringify({ type: 312, from: 'v1' })), false);
    await connection.idle();
    expect(loggedOut).toEqual([]);
    expect(socket.messages().map((m) => JSON.parse(m.dataContent ?? '{}').reason)).toEqual(['not-allowed']);
    expect(socket.closes).toEqual([]);
  });
});

describe('connection: the peer', () => {
  it('sends nothing once the socket is closed, and reports a failing send instead of throwing', () => {
    const { socket, errors, connection } = setUp();
    socket.send = () => {
      throw new Error('broken pipe');
    };
    expect(() => connection.peer.send({ type: 51, from: 'system', to: 'v1', dataContent: '{}' })).not.toThrow();
    expect(errors).toHaveLength(1);
    socket.readyState = 3;
    connection.peer.send({ type: 51, from: 'system', to: 'v1', dataContent: '{}' });
    expect(errors).toHaveLength(1);
  });
});

describe('connection: writes batched per event-loop turn', () => {
  it('holds the batch before every frame it sends (heartbeat reply, refusal, pushes), encrypted frames included', () => {
    const order: string[] = [];
    const writes = { hold: () => void order.push('hold') };
    const { socket, connection } = setUp({ writes, userKey: Buffer.from('0123456789abcdef0123456789abcdef', 'utf8') });
    const send = socket.send.bind(socket);
    socket.send = (data: string) => {
      order.push('send');
      send(data);
    };
    connection.receive(Buffer.from(JSON.stringify({ type: 1, from: 'v1' })), false);
    connection.receive(Buffer.from('not a frame'), false);
    connection.peer.send({ type: 100, from: 'system', to: 'v1', dataContent: 'x' });
    expect(order).toEqual(['hold', 'send', 'hold', 'send', 'hold', 'send']);
    expect(socket.sent).toHaveLength(3);
    expect(socket.sent.every((frame) => !frame.startsWith('{'))).toBe(true);
  });
});
