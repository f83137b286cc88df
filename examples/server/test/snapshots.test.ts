/**
 * Agent queue snapshots (type 310) are coalesced: a burst of queue changes makes one snapshot per
 * agent, not one per change (the load bench's bottleneck with many visitors and agents).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { content, keyExchange, TestSocket } from '../../../conformance/src/client/index.js';
import { serverForFile } from './helpers/file-server.js';

const server = serverForFile();

const where = { mchId: 'M1001', platformId: 'P01' };

describe('queue snapshots are coalesced', () => {
  it('five visitors asking for a human at once reach the agent in far fewer than five snapshots, the last one complete', async () => {
    const agentSession = await keyExchange(server.url);
    const agent = await TestSocket.connect(server.socketUrl, server.socketKey, agentSession, 'desk', { role: 'agent', account: 'alice', password: 'secret1' });
    await agent.next((m) => m.type === 310);
    const visitors = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const session = await keyExchange(server.url);
        const id = randomUUID();
        const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, { ...where, name: 'V' });
        return { id, socket };
      }),
    );
    const before = agent.log.filter((m) => m.type === 310).length;
    for (const v of visitors) v.socket.say(v.id, 301, '{}');
    const ids = new Set<string>(visitors.map((v) => v.id));
    const full = await agent.next(
      (m) => m.type === 310 && content<{ queue: { clientId: string }[] }>(m).queue.filter((q) => ids.has(q.clientId)).length === 5,
      5000,
      before,
    );
    expect(content<{ queue: { position: number }[] }>(full).queue.map((q) => q.position)).toEqual([1, 2, 3, 4, 5]);
    const snapshots = agent.log.slice(before).filter((m) => m.type === 310).length;
    expect(snapshots).toBeLessThan(5);
    for (const v of visitors) v.socket.ws.close();
    agent.ws.close();
  });
});
