import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectUrl, gcm, keyExchange, TestSocket, type Session } from '../../../conformance/src/client/index.js';
import { removeDir, startServer } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server;
let session: Session;

beforeAll(async () => {
  server = await startServer();
  session = await keyExchange(server.url);
});
afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

async function refusedWith(url: string): Promise<{ code: number; reason: string; frames: number }> {
  const socket = await TestSocket.open(url, session);
  const closed = await socket.closed;
  return { ...closed, frames: socket.log.length };
}

describe('protocol §3: the connect check closes with 4001 on any failure', () => {
  it('accepts a correct connect and sends the welcome (type 60) with the user id in `to` and `sm`', async () => {
    const clientId = randomUUID();
    const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, clientId, { mchId: 'M1001', platformId: 'P01' });
    const welcome = socket.log[0];
    expect(welcome).toMatchObject({ type: 60, to: clientId });
    expect(typeof welcome?.sm).toBe('number');
    await socket.close();
  });

  it('refuses a bad HMAC signature', async () => {
    const url = connectUrl(server.socketUrl, server.socketKey, session.saltKey, randomUUID(), {}, { secret: 'wrong-secret' });
    expect(await refusedWith(url)).toMatchObject({ code: 4001, frames: 0 });
  });

  it('refuses a salt key that names no live key session', async () => {
    const url = connectUrl(server.socketUrl, server.socketKey, session.saltKey, randomUUID(), {}, { t: 'not-a-session' });
    expect(await refusedWith(url)).toMatchObject({ code: 4001, frames: 0 });
  });

  it('refuses garbage params, a missing params, a B that is not RSA for this key and an A under another key', async () => {
    const reasons = new Set<string>();
    const urls = [
      `${server.socketUrl}?params=garbage`,
      `${server.socketUrl}`,
      `${server.socketUrl}?params=${encodeURIComponent(Buffer.from('{"A":1}').toString('base64'))}`,
      connectUrl(server.socketUrl, server.socketKey, session.saltKey, randomUUID(), {}, { B: randomBytes(128).toString('base64') }),
      connectUrl(server.socketUrl, server.socketKey, session.saltKey, randomUUID(), {}, { A: gcm(randomBytes(32), '{}') }),
    ];
    for (const url of urls) {
      const result = await refusedWith(url);
      expect(result.code).toBe(4001);
      expect(result.frames).toBe(0);
      reasons.add(result.reason);
    }
    // the reason never tells which step failed
    expect([...reasons]).toEqual(['unauthorized']);
  });

  it('refuses an agent with a wrong password and accepts the configured one as agent:<account>', async () => {
    const session = await keyExchange(server.url); // the suite's session is bound to a visitor by now
    const bad = connectUrl(server.socketUrl, server.socketKey, session.saltKey, 'desk', { role: 'agent', account: 'alice', password: 'nope' });
    expect((await refusedWith(bad)).code).toBe(4001);
    const agent = await TestSocket.connect(server.socketUrl, server.socketKey, session, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
    expect(agent.log[0]).toMatchObject({ type: 60, to: 'agent:alice' });
    await agent.next((m) => m.type === 310);
    await agent.close();
  });

  it('keeps running after refusals: the server still answers', async () => {
    const res = await fetch(`${server.url}/im/api/permit/getServerTime`);
    expect(res.status).toBe(200);
    expect(server.errors).toEqual([]);
  });
});
