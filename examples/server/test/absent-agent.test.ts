/**
 * An agent serving a visitor who is online nowhere, with no grace period running for it (the
 * server restarted; in a cluster, the node that held its grace period died): after the grace
 * period the visitor is released to the robot, told once, as after a logout.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { isEvent, keyExchange, TestSocket } from '../../../conformance/src/client/index.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const dataDir = tempDir();
afterAll(() => removeDir(dataDir));

const where = { mchId: 'M1001', platformId: 'P01' };
const GRACE = { AGENT_GRACE_MS: '300' };

describe('an absent serving agent found after a restart', () => {
  it('releases the visitor after the grace period when the agent never comes back', async () => {
    let server = await startServer({ dataDir, memoryDb: false }, GRACE);
    const port = Number(new URL(server.url).port);
    const visitorSession = await keyExchange(server.url);
    const agentSession = await keyExchange(server.url);
    const id = randomUUID();
    let v = await TestSocket.connect(server.socketUrl, server.socketKey, visitorSession, id, where);
    const a = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
    v.say(id, 301, '{}');
    await a.next((m) => m.type === 310 && String(m.dataContent).includes(id));
    a.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) });
    await v.next(isEvent('agent-joined'));

    // the server goes down while the agent serves (its grace period dies with the process)
    await server.close();
    await v.closed;
    await a.closed;
    server = await startServer({ dataDir, memoryDb: false, port }, GRACE);
    try {
      v = await TestSocket.connect(server.socketUrl, server.socketKey, visitorSession, id, where);
      // the agent never returns: released after the grace period, told once
      const left = await v.next(isEvent('agent-left'), 5_000);
      expect(JSON.parse(String(left.dataContent))).toMatchObject({ event: 'agent-left', agent: { id: 'agent:alice' } });
      expect((await server.store.chat.latestSession(id, where.mchId, where.platformId))?.state).toBe('robot');
      expect(await server.store.chat.servingAgents()).not.toContain('agent:alice');
      await v.quiet(500);
      expect(v.log.filter(isEvent('agent-left'))).toHaveLength(1);
      await v.close();
    } finally {
      await server.close();
    }
  });

  it('keeps the visitor with an agent who comes back within the grace period', async () => {
    const server = await startServer({}, { AGENT_GRACE_MS: '1500' });
    try {
      const id = randomUUID();
      const v = await TestSocket.connect(server.socketUrl, server.socketKey, await keyExchange(server.url), id, where);
      const agentSession = await keyExchange(server.url);
      let a = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
      v.say(id, 301, '{}');
      await a.next((m) => m.type === 310 && String(m.dataContent).includes(id));
      a.send({ type: 311, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ clientId: id }) });
      await v.next(isEvent('agent-joined'));
      await a.close();
      a = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
      await v.quiet(2_000);
      expect(v.log.some(isEvent('agent-left'))).toBe(false);
      expect(await server.store.chat.servingAgents()).toContain('agent:alice');
      await a.close();
      await v.close();
    } finally {
      await server.close();
    }
  });
});
