/**
 * An agent's texts survive a drop of its socket (desk issue, defect 1): SDK agent and SDK visitors
 * against the real reference server over loopback. The agent serves three visitors; its network
 * is cut; it writes ten texts to each; the network returns. Every text is delivered exactly once,
 * in the order written, every one acknowledged and none left "sending", with the server's default
 * rate limit (10 texts per 5 s): the resend paces itself instead of failing texts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { cuttableNetwork, deskAgent, servedBy } from './agent-helpers.js';
import { Clients, DEMO, waitUntil } from './harness.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const clients = new Clients();
afterEach(() => clients.destroyAll());

describe('an agent’s texts written while its socket is away are kept and sent once after it returns', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({}, { AGENT_GRACE_MS: '60000' });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
    expect(server.errors).toEqual([]);
  });

  it('10 texts to each of 3 visitors during a drop: each delivered once, in order, all acknowledged', async () => {
    const net = cuttableNetwork();
    const { rec: agent, desk } = await deskAgent(clients, server, memoryStorage(), { WebSocket: net.WebSocket, fetch: net.fetch });
    const visitors = [];
    for (let i = 0; i < 3; i++) visitors.push(await servedBy(clients, server, desk));
    // let the rate window of the visitors' acceptance pass: the agent's own texts are what is measured
    await new Promise((resolve) => setTimeout(resolve, 100));

    net.cut();
    await waitUntil(() => expect(agent.client.connectionState).not.toBe('open'));
    const written = new Map<string, { fp: string; text: string }[]>();
    for (let n = 1; n <= 10; n++) {
      for (const [i, v] of visitors.entries()) {
        const text = `to visitor ${i + 1}, text ${n}`;
        const sent = agent.client.sendText(text, { to: v.client.clientId });
        written.set(v.client.clientId, [...(written.get(v.client.clientId) ?? []), { fp: sent.fp!, text }]);
      }
    }
    const fps = [...written.values()].flat().map((w) => w.fp);
    expect(fps.map((fp) => agent.client.messages.get(fp)?.sendState)).toEqual(Array(30).fill('pending'));

    const back = performance.now();
    net.restore();
    await waitUntil(() => expect(fps.map((fp) => agent.client.messages.get(fp)?.sendState)).toEqual(Array(30).fill('sent')), 45_000);
    const drainMs = performance.now() - back;
    console.log(`[agent-outbox] 30 texts written during a drop, all acknowledged ${drainMs.toFixed(0)} ms after the network returned`);

    for (const v of visitors) {
      const id = v.client.clientId;
      const mine = written.get(id)!;
      // stored once each, in the order written
      const stored = (await server.store.chat.conversation(id, DEMO.mchId, DEMO.platformId, { size: 100 })).filter((m) => m.from === 'agent:alice' && m.type === 100);
      expect(stored.map((m) => m.fp)).toEqual(mine.map((w) => w.fp));
      // the visitor got each once, in the order written
      await waitUntil(() => expect(v.client.messages.getSnapshot().filter((m) => m.from === 'agent:alice').map((m) => m.dataContent)).toEqual(mine.map((w) => w.text)));
    }
    expect(agent.notices.filter((n) => n.key === 'sendTooFrequent' || n.key === 'sendFailed')).toEqual([]);
    expect(agent.client.messages.getSnapshot().filter((m) => m.sendState === 'pending' || m.sendState === 'failed')).toEqual([]);
  }, 60_000);
});
