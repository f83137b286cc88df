import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { content, enc, isEvent, keyExchange, TestSocket, type Msg } from '../../../conformance/src/client/index.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const dataDir = tempDir();
afterAll(() => removeDir(dataDir));

const where = { mchId: 'M1001', platformId: 'P01' };
const agentData = { role: 'agent', account: 'alice', password: 'secret1' };

describe('persistence: a restart with the same DATA_DIR keeps keys, key sessions and the conversation', () => {
  it('the client reconnects with its salt key, resends what was not acknowledged, and fetches what it missed', async () => {
    let server = await startServer({ dataDir, memoryDb: false });
    expect(existsSync(join(dataDir, 'kefu.db'))).toBe(true);
    const port = Number(new URL(server.url).port);
    const socketKey = server.socketKey;
    const visitorSession = await keyExchange(server.url);
    const agentSession = await keyExchange(server.url);
    const id = randomUUID();
    let v = await TestSocket.connect(server.socketUrl, socketKey, visitorSession, id, where);
    let a = await TestSocket.connect(server.socketUrl, socketKey, agentSession, 'desk', agentData);
    v.say(id, 301, '{}');
    await a.next((m) => m.type === 310 && m.dataContent !== undefined && String(m.dataContent).includes(id));
    a.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) });
    await v.next(isEvent('agent-joined'));
    const beforeFp = v.say(id, 100, 'before the restart');
    await v.next((m) => m.fp === beforeFp);
    await a.next((m) => m.fp === beforeFp);

    // the server goes down: the sockets close with 1012 (service restart: reconnect at once)
    await server.close();
    expect((await v.closed).code).toBe(1012);
    await a.closed;
    const held = v.log.filter((m) => typeof m.createTime === 'number' && m.type !== 500);
    const newest = Math.max(...held.map((m) => Number(m.createTime)));

    // restart on the same port and data directory
    server = await startServer({ dataDir, memoryDb: false, port });
    expect(server.socketKey).toBe(socketKey);
    a = await TestSocket.connect(server.socketUrl, socketKey, agentSession, 'desk', agentData);
    const snapshot = await a.next((m) => m.type === 310);
    expect(content<{ sessions: { clientId: string }[] }>(snapshot).sessions.map((s) => s.clientId)).toEqual([id]);
    // the agent writes while the visitor is still away
    const missedFp = a.say('agent:alice', 100, 'written while you were away', { to: id });
    await a.next((m) => m.fp === missedFp);

    // the visitor reconnects with the same salt key: no new session is started
    v = await TestSocket.connect(server.socketUrl, socketKey, visitorSession, id, where);
    await v.quiet();
    expect(v.log.filter(isEvent('created'))).toHaveLength(0);
    // it resends a message that was never acknowledged, and one that was (stored once)
    const pendingFp = randomUUID();
    v.send({ type: 100, from: id, fp: pendingFp, dataContent: 'sent as the server went down' });
    v.send({ type: 100, from: id, fp: beforeFp, dataContent: 'before the restart' });
    await v.next((m) => m.fp === pendingFp);
    await v.next((m) => m.fp === beforeFp);
    await a.next((m) => m.fp === pendingFp);

    // it fetches what is newer than the newest message it holds: the missed one is there, once
    const missed = await enc<{ list: Msg[] }>(server.url, visitorSession, 'POST', 'findMsgForCus', { clientId: id, ...where, after: newest });
    expect(missed.code).toBe(0);
    const fps = missed.data.list.map((m) => m.fp);
    expect(fps).toContain(missedFp);
    expect(fps).toContain(pendingFp);
    expect(fps).not.toContain(beforeFp);
    const all = await enc<{ list: Msg[] }>(server.url, visitorSession, 'POST', 'findMsgForCus', { clientId: id, ...where, size: 100 });
    const counts = new Map<unknown, number>();
    for (const m of all.data.list) counts.set(m.fp, (counts.get(m.fp) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(all.data.list.map((m) => m.dataContent)).toEqual(expect.arrayContaining(['before the restart', 'written while you were away', 'sent as the server went down']));
    // createTime strictly increases across the restart
    const times = all.data.list.map((m) => Number(m.createTime));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(new Set(times).size).toBe(times.length);

    await v.close();
    await a.close();
    await server.close();
  });
});

describe('history paging (findMsgForCus)', () => {
  it('pages backwards with before and size, and reports hasMore', async () => {
    const server = await startServer({}, { RATE_SOCKET_MAX: '100' });
    const session = await keyExchange(server.url);
    const id = randomUUID();
    const v = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, where);
    v.say(id, 301, '{}'); // queue, so that the robot stays quiet
    await v.next(isEvent('queued'));
    for (let i = 0; i < 12; i += 1) {
      const fp = v.say(id, 100, `m${i}`);
      await v.next((m) => m.fp === fp);
    }
    const last = await enc<{ list: Msg[]; hasMore: boolean }>(server.url, session, 'POST', 'findMsgForCus', { clientId: id, ...where, size: 5 });
    expect(last.data.list.map((m) => m.dataContent)).toEqual(['m7', 'm8', 'm9', 'm10', 'm11']);
    expect(last.data.hasMore).toBe(true);
    const older = await enc<{ list: Msg[]; hasMore: boolean }>(server.url, session, 'POST', 'findMsgForCus', {
      clientId: id,
      ...where,
      size: 5,
      before: last.data.list[0]?.createTime,
    });
    expect(older.data.list.map((m) => m.dataContent)).toEqual(['m2', 'm3', 'm4', 'm5', 'm6']);
    const bad = await enc(server.url, session, 'POST', 'findMsgForCus', { clientId: id, ...where, size: 1000 });
    expect(bad).toMatchObject({ code: 1001, message: 'size must be an integer between 1 and 100' });
    await v.close();
    await server.close();
    removeDir(server.dataDir);
  });
});
