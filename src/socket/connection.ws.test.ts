import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { defaultTimers } from '../timers.js';
import { Connection } from './connection.js';

let server: WebSocketServer | undefined;
let connection: Connection | undefined;

afterEach(async () => {
  connection?.destroy();
  if (server) {
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  }
  server = undefined;
  connection = undefined;
});

/** Resolves with the context of the connection's next `open` event. */
const nextOpen = (conn: Connection) => new Promise<{ reconnected: boolean }>((resolve) => conn.once('open', resolve));
/** Resolves with the context of the connection's next `frame` event. */
const nextFrame = (conn: Connection) => new Promise<{ data: unknown }>((resolve) => conn.once('frame', resolve));
/** Resolves with the context of the connection's next `close` event. */
const nextClose = (conn: Connection) => new Promise<{ code: number; reason: string }>((resolve) => conn.once('close', resolve));

describe('Connection over a real socket (ws package, Node)', () => {
  it('connects, receives a frame, reconnects after the server closes, and destroys cleanly', async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const urls: string[] = [];
    const serverSockets: WebSocket[] = [];
    const received: string[] = [];
    server.on('connection', (socket, request) => {
      urls.push(request.url ?? '');
      serverSockets.push(socket);
      socket.on('message', (frame) => received.push(String(frame)));
      socket.send(JSON.stringify({ type: 60, to: 'visitor-1', sm: 1_700_000_000_000, n: urls.length }));
    });

    let n = 0;
    const conn = new Connection({
      createUrl: async () => `ws://127.0.0.1:${port}/ws?params=${++n}`,
      WebSocket,
      timers: defaultTimers,
      heartbeatInterval: 20_000,
      reconnectPolicy: () => 50,
      network: null,
      heartbeat: () => null,
    });
    connection = conn;
    const firstOpen = nextOpen(conn);
    const firstFrame = nextFrame(conn);
    conn.connect();
    expect(await firstOpen).toEqual({ reconnected: false });
    const { data } = await firstFrame;
    expect(typeof data).toBe('string');
    expect(JSON.parse(String(data))).toMatchObject({ type: 60, n: 1 });
    expect(conn.send('{"type":100,"dataContent":"hi"}')).toBe(true);
    await expect.poll(() => received).toEqual(['{"type":100,"dataContent":"hi"}']);

    const closed = nextClose(conn);
    const reopened = nextOpen(conn);
    const secondFrame = nextFrame(conn);
    serverSockets[0]?.close(4000, 'server restart');
    expect(await closed).toEqual({ code: 4000, reason: 'server restart' });
    expect(conn.state).toBe('reconnecting');
    expect(await reopened).toEqual({ reconnected: true });
    expect(JSON.parse(String((await secondFrame).data))).toMatchObject({ type: 60, n: 2 });
    expect(urls).toEqual(['/ws?params=1', '/ws?params=2']);

    const second = serverSockets[1];
    if (!second) throw new Error('no second server-side socket');
    const serverSawClose = once(second, 'close');
    conn.destroy();
    expect(conn.state).toBe('closed');
    const [code] = (await serverSawClose) as [number];
    expect(code).toBe(1000);
  });
});

describe('Connection over a real socket: closing a socket that is still connecting', () => {
  it('destroy() during the handshake and a refused port never raise an uncaught error', async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const errors: string[] = [];
    const make = (url: string) => {
      const conn = new Connection({
        createUrl: async () => url,
        WebSocket,
        timers: defaultTimers,
        heartbeatInterval: 20_000,
        reconnectPolicy: () => 60_000,
        network: null,
        heartbeat: () => null,
      });
      conn.on('error', ({ source }) => errors.push(source));
      return conn;
    };
    const handshaking = make(`ws://127.0.0.1:${port}/ws`);
    handshaking.connect();
    await new Promise((resolve) => setTimeout(resolve, 0));
    handshaking.destroy();

    const refused = make('ws://127.0.0.1:1/ws');
    connection = refused;
    const closed = nextClose(refused);
    refused.connect();
    expect((await closed).code).toBe(1006);
    expect(refused.state).toBe('reconnecting');
    expect(errors).toEqual(['connect']);
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
