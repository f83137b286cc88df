import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../bench/loadgen/args.js';
import { runChat } from '../bench/loadgen/chat.js';
import { ConnectFailed, VirtualClient } from '../bench/loadgen/client.js';
import { IdleFleet, runHandshakes } from '../bench/loadgen/idle.js';
import { parseServerEnv, RAISED_LIMITS, serverEnv } from '../bench/loadgen/limits.js';
import { fetchServerInfo, parseSocketKey, type Frame, type ServerInfo } from '../bench/loadgen/protocol.js';
import { removeDir, startServer } from '../examples/server/test/helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server;
let info: ServerInfo;

beforeAll(async () => {
  // the run's limits, as the load generator starts its server: on a quiet machine the 400 ms of
  // handshakes below went past the default 300 HTTP calls a minute from one address (HTTP 413)
  server = await startServer({}, { ...RAISED_LIMITS });
  info = await fetchServerInfo(server.url);
});
afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

describe('load generator: its protocol client against the reference server', () => {
  it('reads the public config and connects a new visitor (welcome, AES-ECB heartbeat reply)', async () => {
    expect(info).toMatchObject({ socketUrl: server.socketUrl, socketKey: server.socketKey, aesSwitch: true });
    const client = new VirtualClient(info, parseSocketKey(info.socketKey), {});
    const times = await client.connect(5000);
    expect(client.userId).toBe(client.clientId);
    expect(times.keyExchangeMs).toBeGreaterThan(0);
    const reply = new Promise<Frame>((resolve) => {
      client.onFrame = (frame) => {
        if (frame.type === 51) resolve(frame);
      };
    });
    client.heartbeat();
    expect(typeof (await reply).sm).toBe('number');
    await client.close();
  });

  it('logs an agent in and reports a refused connect as closed 4001', async () => {
    const agent = new VirtualClient(info, parseSocketKey(info.socketKey), { role: 'agent', account: 'alice', password: 'secret1' });
    await agent.connect(5000);
    expect(agent.userId).toBe('agent:alice');
    await agent.close();
    const wrong = new VirtualClient(info, parseSocketKey(info.socketKey), { role: 'agent', account: 'alice', password: 'nope' });
    await expect(wrong.connect(5000)).rejects.toThrow(ConnectFailed);
    await expect(new VirtualClient(info, parseSocketKey(info.socketKey), { role: 'agent', account: 'alice', password: 'nope' }).connect(5000)).rejects.toThrow(/closed 4001/);
  });

  it('runs handshakes, holds idle visitors, and chats visitor <-> agent with every message answered', async () => {
    const key = parseSocketKey(info.socketKey);
    const handshakes = await runHandshakes(info, key, 400, 2);
    expect(handshakes.done).toBeGreaterThan(0);
    expect(handshakes.errors).toEqual({});

    const fleet = new IdleFleet(info, key);
    const opened = await fleet.open(6, 3, 10_000);
    expect(opened.held).toBe(6);
    expect(server.connections()).toBeGreaterThanOrEqual(6);
    await fleet.release();

    const chat = await runChat(info, key, { worker: 1, visitors: 4, agents: [{ account: 'alice', password: 'secret1' }], rate: 5, windowMs: 600, rampMs: 10_000, concurrency: 4 });
    expect(chat).toMatchObject({ connected: 4, chatting: 4, errors: {}, refusals: {} });
    expect(chat.sent).toBeGreaterThan(4);
    expect(chat.delivered).toBe(chat.sent);
    expect(chat.answered).toBe(chat.sent);
    expect(chat.roundTrip).toHaveLength(chat.sent);
    // every text acknowledged (the server's copy with the same fp), never before it was sent
    expect(chat.ack).toHaveLength(chat.sent);
    expect(Math.min(...chat.ack)).toBeGreaterThanOrEqual(0);
    expect(chat.window.to).toBeGreaterThan(chat.window.from);
    expect(server.errors).toEqual([]);
  });
});

describe('load generator: options and server environment', () => {
  it('bounds every option and refuses a cluster without a balancer URL', () => {
    expect(parseArgs([])).toMatchObject({ workers: 2, chats: 1000, idle: 10_000, phases: ['handshake', 'chat', 'idle'] });
    expect(parseArgs(['--url', 'http://127.0.0.1:8080/', '--phases', 'idle', '--idle', '50'])).toMatchObject({ url: 'http://127.0.0.1:8080', phases: ['idle'], idle: 50 });
    expect(() => parseArgs(['--idle', '40000'])).toThrow(UsageError);
    expect(() => parseArgs(['--phases', 'soak'])).toThrow(UsageError);
    expect(() => parseArgs(['--nodes', '2'])).toThrow(/balancer/);
    expect(() => parseArgs(['--url', 'ftp://x'])).toThrow(UsageError);
    expect(parseArgs([]).db).toBe('memory');
    expect(parseArgs(['--db', 'file']).db).toBe('file');
    expect(() => parseArgs(['--db', 'disk'])).toThrow(UsageError);
  });

  it('raises the limits and lets LOADGEN_SERVER_ENV override or add variables', () => {
    const env = serverEnv(2, true, parseServerEnv('RATE_SOCKET_MAX=5  RATE_CONNECT_PER_IP_MAX=999999'));
    expect(env).toMatchObject({ RATE_SOCKET_MAX: '5', RATE_CONNECT_PER_IP_MAX: '999999', RATE_HTTP_MAX: '1000000', AGENT_LOGIN_CONCURRENCY: '1000', AES_SWITCH: 'true' });
    expect(env['AGENTS']?.split(',')).toHaveLength(2);
    expect(() => parseServerEnv('lower=1')).toThrow(/NAME=value/);
  });
});
