import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixedDelayPolicy, type ReconnectContext } from '../options.js';
import { FakeWebSocket } from './test-utils.js';
import { openConnection, settle, setup, socketAt } from './connection.fixture.js';

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Socket connection: "Connecting, open, closed, then automatic reconnect"', () => {
  it('starts closed and goes connecting -> open, with a fresh URL from createUrl()', async () => {
    const { conn, createUrl, states } = setup();
    expect(conn.state).toBe('closed');
    conn.connect();
    expect(conn.state).toBe('connecting');
    await settle();
    expect(createUrl).toHaveBeenCalledTimes(1);
    expect(socketAt(0).url).toBe('ws://test.local/ws?params=1');
    expect(socketAt(0).binaryType).toBe('arraybuffer');
    socketAt(0).open();
    expect(conn.state).toBe('open');
    expect(states).toEqual(['connecting', 'open']);
  });

  it('connect() is a no-op while connecting or open', async () => {
    const { conn, createUrl } = setup();
    conn.connect();
    conn.connect();
    await settle();
    conn.connect();
    socketAt(0).open();
    conn.connect();
    await settle();
    expect(createUrl).toHaveBeenCalledTimes(1);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});

describe('"On open: reconnect locks and counters are reset, a \'socket login\' event is emitted and the heartbeat starts"', () => {
  it('emits open { reconnected: false } on the first open and true after a reconnect', async () => {
    const { opens } = await openConnection();
    socketAt(0).serverClose(1001, 'going away');
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(1).open();
    expect(opens).toEqual([false, true]);
  });

  it('"Heartbeat: type 1 ... every 20 s" while open', async () => {
    const { socket } = await openConnection();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(socket.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.sent).toEqual(['{"type":1,"dataContent":"{}"}']);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(socket.sent).toHaveLength(3);
  });

  it('skips a beat when heartbeat() returns null, and reports a throwing heartbeat() without stopping', async () => {
    let beat = 0;
    const { socket, errors } = await openConnection({
      heartbeat: () => {
        beat++;
        if (beat === 1) return null;
        if (beat === 2) throw new Error('no user id');
        return 'beat';
      },
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.sent).toEqual(['beat']);
    expect(errors.map((e) => e.error.message)).toEqual(['no user id']);
  });

  it('resets the attempt counter when a socket opens', async () => {
    const policy = vi.fn((_ctx: ReconnectContext) => 5_000);
    const { conn } = setup({ reconnectPolicy: policy });
    conn.connect();
    await settle();
    socketAt(0).serverClose(1006);
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(1).serverClose(1006);
    expect(conn.attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(2).open();
    expect(conn.attempts).toBe(0);
    socketAt(2).serverClose(4001, 'bad params');
    expect(policy.mock.calls.map(([ctx]) => ctx)).toEqual([
      { attempt: 1, elapsedMs: 0, closeCode: 1006, reason: 'close', visible: true, online: true },
      { attempt: 2, elapsedMs: 5_000, closeCode: 1006, reason: 'close', visible: true, online: true },
      { attempt: 1, elapsedMs: 0, closeCode: 4001, reason: 'bad params', visible: true, online: true },
    ]);
  });
});

describe('"On close or error: the heartbeat stops and a reconnect is scheduled" (5000 ms)', () => {
  it('after a server close: state reconnecting, no heartbeat, a new socket after 5000 ms', async () => {
    const { conn, socket, closes, createUrl } = await openConnection();
    socket.serverClose(1001, 'restart');
    expect(closes).toEqual([{ code: 1001, reason: 'restart' }]);
    expect(conn.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(createUrl).toHaveBeenCalledTimes(2);
    expect(socketAt(1).url).toBe('ws://test.local/ws?params=2');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.sent).toEqual([]);
  });

  it('after an error: reports it and schedules ONE reconnect even though close follows the error', async () => {
    const { conn, socket, errors } = await openConnection();
    socket.fail();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.source).toBe('socket');
    expect(conn.state).toBe('reconnecting');
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('a failing createUrl() (e.g. an RSA error) is an error event with source connect and a failed attempt', async () => {
    const createUrl = vi.fn().mockRejectedValueOnce(new Error('RSA encryption failed')).mockResolvedValue('ws://test.local/ok');
    const { conn, errors } = setup({ createUrl });
    conn.connect();
    await settle();
    expect(errors.map((e) => [e.source, e.error.message])).toEqual([['connect', 'RSA encryption failed']]);
    expect(conn.state).toBe('reconnecting');
    expect(conn.attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(socketAt(0).url).toBe('ws://test.local/ok');
  });

  it('a WebSocket constructor that throws (bad URL) is a failed attempt, never thrown', async () => {
    class ThrowingSocket extends FakeWebSocket {
      constructor(url: string) {
        super(url);
        throw new SyntaxError(`Invalid URL: ${url}`);
      }
    }
    const { conn, errors } = setup({ WebSocket: ThrowingSocket });
    expect(() => conn.connect()).not.toThrow();
    await settle();
    expect(errors[0]?.source).toBe('connect');
    expect(errors[0]?.error).toBeInstanceOf(SyntaxError);
    expect(conn.state).toBe('reconnecting');
  });

  it('a late event from a replaced socket does nothing', async () => {
    const { conn, socket, opens } = await openConnection();
    const frames: unknown[] = [];
    conn.on('frame', ({ data }) => frames.push(data));
    socket.serverClose(1006);
    await vi.advanceTimersByTimeAsync(5_000);
    socket.receive('late frame');
    socket.open();
    socket.serverClose(1006);
    expect(frames).toEqual([]);
    expect(opens).toEqual([false]);
    expect(conn.state).toBe('reconnecting');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('"Reconnect limit value 10": at most 10 attempts in a row, then failed', () => {
  it('enters failed after the 10th reconnect attempt fails, with no timer left', async () => {
    const { conn, states } = setup();
    conn.connect();
    await settle();
    socketAt(0).fail();
    for (let i = 1; i <= 10; i++) {
      expect(conn.state).toBe('reconnecting');
      await vi.advanceTimersByTimeAsync(5_000);
      socketAt(i).fail();
    }
    expect(FakeWebSocket.instances).toHaveLength(11);
    expect(conn.state).toBe('failed');
    expect(states.at(-1)).toBe('failed');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(11);
  });

  it('connect() leaves failed with a fresh budget', async () => {
    const { conn } = setup({ reconnectPolicy: fixedDelayPolicy(5_000, 1) });
    conn.connect();
    await settle();
    socketAt(0).fail();
    await vi.advanceTimersByTimeAsync(5_000);
    socketAt(1).fail();
    expect(conn.state).toBe('failed');
    conn.connect();
    expect(conn.state).toBe('connecting');
    await settle();
    socketAt(2).fail();
    expect(conn.state).toBe('reconnecting');
    expect(conn.attempts).toBe(1);
  });

  it('a policy that throws or returns a bad delay gives up instead of crashing', async () => {
    const { conn, errors } = setup({
      reconnectPolicy: () => {
        throw new Error('policy bug');
      },
    });
    conn.connect();
    await settle();
    socketAt(0).serverClose(1006);
    expect(conn.state).toBe('failed');
    expect(errors.map((e) => e.error.message)).toEqual(['policy bug']);
    const nan = setup({ reconnectPolicy: () => Number.NaN });
    nan.conn.connect();
    await settle();
    socketAt(1).serverClose(1006);
    expect(nan.conn.state).toBe('failed');
  });
});

describe('"Plain-text sending to the socket happens only when the socket is open"', () => {
  it('send() returns false before open and after close, true while open', async () => {
    const { conn } = setup();
    expect(conn.send('x')).toBe(false);
    conn.connect();
    await settle();
    expect(conn.send('x')).toBe(false);
    socketAt(0).open();
    expect(conn.send('hello')).toBe(true);
    conn.close();
    expect(conn.send('x')).toBe(false);
    expect(socketAt(0).sent).toEqual(['hello']);
  });

  it('a frame over maxFrameSize is not sent and is reported', async () => {
    const { conn, socket, errors } = await openConnection({ maxFrameSize: 10 });
    expect(conn.send('é'.repeat(5))).toBe(true);
    expect(conn.send('é'.repeat(6))).toBe(false);
    expect(socket.sent).toEqual(['ééééé']);
    expect(errors[0]?.error.message).toBe('Frame of 12 bytes exceeds the maximum of 10 bytes.');
  });

  it('a socket whose send() throws gives false and an error event', async () => {
    const { conn, socket, errors } = await openConnection();
    socket.send = () => {
      throw new Error('boom');
    };
    expect(conn.send('x')).toBe(false);
    expect(errors.map((e) => e.source)).toEqual(['socket']);
  });
});

describe('Incoming frames are emitted raw; "it never throws out of the socket handler"', () => {
  it('emits every frame as { data } and survives a throwing listener', async () => {
    const { conn, socket, errors } = await openConnection();
    const frames: unknown[] = [];
    conn.on('frame', ({ data }) => frames.push(data));
    conn.on('frame', () => {
      throw new Error('listener bug');
    });
    expect(() => socket.receive('one')).not.toThrow();
    const bytes = new Uint8Array([123, 125]).buffer;
    socket.receive(bytes);
    expect(frames).toEqual(['one', bytes]);
    expect(errors.map((e) => [e.source, e.error.message])).toEqual([
      ['socket', 'listener bug'],
      ['socket', 'listener bug'],
    ]);
    expect(conn.state).toBe('open');
  });

  it('a listener of open that throws does not keep the heartbeat from starting', async () => {
    const ctx = setup();
    ctx.conn.on('open', () => {
      throw new Error('login handler bug');
    });
    ctx.conn.connect();
    await settle();
    socketAt(0).open();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(socketAt(0).sent).toHaveLength(1);
    expect(ctx.errors.map((e) => e.error.message)).toEqual(['login handler bug']);
  });
});
