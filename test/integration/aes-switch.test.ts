/**
 * The AES switch (protocol §1.5, §4), SDK against the real reference server: with the switch on,
 * every frame in both directions is AES-256-ECB under the user token on the wire, and the
 * conversation works end to end; with it off, frames are plain JSON.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { ALICE, Clients, DEMO_VISITOR, ecbDecrypt, frame, isEvent, open, recordingWebSocket, waitUntil } from './harness.js';

const clients = new Clients();
const servers: Awaited<ReturnType<typeof startServer>>[] = [];
afterEach(async () => {
  clients.destroyAll();
  for (const s of servers.splice(0)) {
    await s.close();
    removeDir(s.dataDir);
    expect(s.errors).toEqual([]);
  }
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Reads every raw frame: none is JSON, each decrypts under `userKey` to a message object. */
function decryptAll(frames: readonly string[], userKey: string): { type: number; fp?: string; dataContent?: string }[] {
  return frames.map((raw) => {
    expect(isJson(raw), `a frame went out in clear: ${raw.slice(0, 60)}`).toBe(false);
    return JSON.parse(ecbDecrypt(userKey, raw)) as { type: number; fp?: string; dataContent?: string };
  });
}

/** A visitor and an agent in a conversation, each with its raw traffic recorded. */
async function conversation(env: Record<string, string>) {
  const server = await startServer({}, env);
  servers.push(server);
  const vWire = recordingWebSocket();
  const aWire = recordingWebSocket();
  const visitor = clients.make(server, {
    WebSocket: vWire.WebSocket,
    limits: { heartbeatInterval: 100 },
    connectData: { ...DEMO_VISITOR, language: 'en' },
  });
  const agent = clients.make(server, { WebSocket: aWire.WebSocket, connectData: { ...ALICE } });
  await open(visitor);
  await open(agent);
  const v = visitor.client;
  const a = agent.client;

  v.transferToHuman();
  await frame(agent, (m) => m.type === 310 && (m.dataContent ?? '').includes(v.clientId));
  a.send({ type: 311, dataContent: JSON.stringify({ clientId: v.clientId }) });
  await frame(visitor, isEvent('agent-joined'));
  const hello = v.sendText('Hello face[微笑], is my deposit there? 你好');
  const seen = await frame(agent, (m) => m.fp === hello.fp);
  expect(seen.dataContent).toBe('Hello face[微笑], is my deposit there? 你好');
  const reply = a.sendText('Yes, it arrived: https://example.com/orders/1', { to: v.clientId });
  await frame(visitor, (m) => m.fp === reply.fp);
  await waitUntil(() => expect(v.messages.get(hello.fp!)?.sendState).toBe('sent'));
  await waitUntil(() => expect(a.messages.get(reply.fp!)?.isRead).toBe(1)); // the visitor's receipt
  await waitUntil(() => expect(visitor.frames.some((f) => f.message.type === 51)).toBe(true)); // a heartbeat answered
  const keys = { visitor: (await v.start()).session!, agent: (await a.start()).session! };
  return { server, visitor, agent, vWire, aWire, keys, hello, reply };
}

function types(frames: readonly { type: number }[]): Set<number> {
  return new Set(frames.map((f) => f.type));
}

describe('AES switch on: frames are encrypted both ways and everything still works', () => {
  it('sends and receives only ECB frames under each client\'s user token', async () => {
    const { visitor, agent, vWire, aWire, keys, hello, reply } = await conversation({ AES_SWITCH: 'true' });
    expect(visitor.client.aesSwitch).toBe(true);
    expect(keys.visitor.aesSwitch).toBe(true);
    expect(keys.visitor.userKey).not.toBe(keys.agent.userKey);

    const vOut = decryptAll(vWire.sent, keys.visitor.userKey);
    const vIn = decryptAll(vWire.received, keys.visitor.userKey);
    const aOut = decryptAll(aWire.sent, keys.agent.userKey);
    const aIn = decryptAll(aWire.received, keys.agent.userKey);
    expect([...types(vOut)]).toEqual(expect.arrayContaining([1, 100, 104, 301]));
    expect([...types(vIn)]).toEqual(expect.arrayContaining([51, 60, 100, 200, 201, 300]));
    expect([...types(aOut)]).toEqual(expect.arrayContaining([100, 311]));
    expect([...types(aIn)]).toEqual(expect.arrayContaining([60, 100, 104, 310]));
    expect(vOut.find((m) => m.fp === hello.fp)?.dataContent).toBe('Hello face[微笑], is my deposit there? 你好');
    expect(aOut.find((m) => m.fp === reply.fp)?.dataContent).toBe('Yes, it arrived: https://example.com/orders/1');

    // the SDK says which incoming frames were encrypted: all of them
    expect(visitor.frames.length).toBe(vWire.received.length);
    expect(visitor.frames.every((f) => f.encrypted)).toBe(true);
    expect(agent.frames.every((f) => f.encrypted)).toBe(true);
    expect(visitor.errors).toEqual([]);
    expect(agent.errors).toEqual([]);
  });
});

describe('AES switch off: frames are plain JSON', () => {
  it('sends and receives JSON text and reports the frames as not encrypted', async () => {
    const { visitor, agent, vWire, aWire, hello } = await conversation({ AES_SWITCH: 'false' });
    expect(visitor.client.aesSwitch).toBe(false);
    for (const raw of [...vWire.sent, ...vWire.received, ...aWire.sent, ...aWire.received]) expect(isJson(raw)).toBe(true);
    expect(vWire.sent.map((raw) => JSON.parse(raw) as { fp?: string }).some((m) => m.fp === hello.fp)).toBe(true);
    expect(visitor.frames.every((f) => !f.encrypted)).toBe(true);
    expect(agent.frames.every((f) => !f.encrypted)).toBe(true);
  });
});
