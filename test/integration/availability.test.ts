/**
 * Availability, SDK against the real server over loopback: the visitor's availability store
 * (`client.availability()`) fills from `getAvailability` and type 320; asking for a human outside
 * business hours or with no agent online is answered at once (`unavailable`); inside hours with
 * a busy agent the queue shows its position and the estimated wait the server computes from
 * recent accept times. The agent side is an SDK agent desk.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { AgentDesk, agentConnectData } from '../../src/agent/index.js';
import { removeDir, startServer } from '../../examples/server/test/helpers/start.js';
import { ALICE, Clients, connectedVisitor, DEMO, open, waitUntil, type Recorded } from './harness.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const clients = new Clients();
afterEach(() => clients.destroyAll());

/** Hours (UTC, every weekday) that open two hours from now, for an hour. */
function closedForTwoHours(): { hours: string; opensAt: number } {
  const opensAt = Math.floor(Date.now() / 60_000) * 60_000 + 120 * 60_000;
  const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);
  const range = [hhmm(opensAt), hhmm(opensAt + 3_600_000)];
  const days = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [range]]));
  return { hours: JSON.stringify({ timeZone: 'UTC', days }), opensAt };
}

async function visitor(server: Server): Promise<Recorded> {
  return connectedVisitor(clients, server, { clientId: `v-${randomUUID()}` });
}

async function agentDesk(server: Server): Promise<{ rec: Recorded; desk: AgentDesk }> {
  const storage = memoryStorage();
  const rec = clients.make(server, { connectData: agentConnectData(ALICE.account, { password: ALICE.password }) });
  const desk = new AgentDesk(rec.client, { storage });
  await open(rec);
  return { rec, desk };
}

describe('outside business hours', () => {
  let server: Server;
  let opensAt = 0;
  beforeAll(async () => {
    const closed = closedForTwoHours();
    opensAt = closed.opensAt;
    server = await startServer({}, { MERCHANT_HOURS: JSON.stringify({ [DEMO.mchId]: JSON.parse(closed.hours) }) });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  it('the store says closed with the next opening; asking for a human is answered at once, not queued', async () => {
    await agentDesk(server); // an agent is online: closed is about the hours alone
    const v = await visitor(server);
    const availability = await v.client.availability();
    await waitUntil(() => expect(availability.getSnapshot()).toMatchObject({ known: true, open: false, agentsAvailable: true, nextOpenAt: opensAt }));
    const answers: unknown[] = [];
    v.client.on('unavailable', ({ reason, nextOpenAt }) => answers.push({ reason, nextOpenAt }));
    v.client.transferToHuman();
    await waitUntil(() => expect(availability.getSnapshot().unavailable).toEqual({ reason: 'closed', nextOpenAt: opensAt }));
    expect(answers).toEqual([{ reason: 'closed', nextOpenAt: opensAt }]);
    expect(v.client.session.getState().status).toBe('robot');
    await waitUntil(() => expect(v.client.messages.getSnapshot().some((m) => m.type === 200 && String(m.dataContent).includes('business hours'))).toBe(true));
  });
});

describe('inside business hours (none configured: always open)', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({}, { QUEUE_UPDATE_MS: '0' });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  it('no agent online: `unavailable` (no-agent) at once, queued and busy; the store hears the agent come', async () => {
    const v = await visitor(server);
    const availability = await v.client.availability();
    await waitUntil(() => expect(availability.getSnapshot()).toMatchObject({ known: true, open: true, agentsAvailable: false }));
    v.client.transferToHuman();
    await waitUntil(() => expect(availability.getSnapshot().unavailable?.reason).toBe('no-agent'));
    await waitUntil(() => expect(v.client.session.getState()).toMatchObject({ status: 'queued', busy: true }));
    const { desk } = await agentDesk(server);
    await waitUntil(() => expect(availability.getSnapshot()).toMatchObject({ agentsAvailable: true, unavailable: null }));
    desk.accept(v.client.clientId);
    await waitUntil(() => expect(v.client.session.getState().status).toBe('agent'));
  });

  it('an agent online but away is no agent available; back to available, the visitors hear it', async () => {
    const v = await visitor(server);
    const availability = await v.client.availability();
    const { desk } = await agentDesk(server);
    await waitUntil(() => expect(availability.getSnapshot()).toMatchObject({ known: true, agentsAvailable: true }));
    desk.setStatus('away');
    await waitUntil(() => expect(availability.getSnapshot().agentsAvailable).toBe(false));
    desk.setStatus('available');
    await waitUntil(() => expect(availability.getSnapshot().agentsAvailable).toBe(true));
  });
});

describe('inside business hours with the agent busy', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({}, { QUEUE_UPDATE_MS: '0' });
    // three visitors were served after waiting 60, 90 and 120 s: the median, 90 s, is one place
    const now = Date.now();
    for (const [i, wait] of [60_000, 120_000, 90_000].entries()) {
      const acceptedAt = now - 600_000 + i * 1_000;
      await server.store.chat.createSession({
        ...{ sessionId: randomUUID(), clientId: `past-${i}`, mchId: DEMO.mchId, platformId: DEMO.platformId, state: 'ended', agentId: 'agent:alice' },
        ...{ createdAt: acceptedAt - wait, queuedAt: acceptedAt - wait, acceptedAt, endedAt: acceptedAt + 60_000, score: null, remark: null },
      });
    }
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  it('the queue shows position and the estimated wait the server computes from recent accept times', async () => {
    await agentDesk(server); // online, serving nobody it accepted yet: the visitors wait in the queue
    const first = await visitor(server);
    const firstStore = await first.client.availability();
    first.client.transferToHuman();
    await waitUntil(() => expect(firstStore.getSnapshot()).toMatchObject({ open: true, agentsAvailable: true, unavailable: null, queue: { position: 1, etaMs: 90_000 } }));
    const second = await visitor(server);
    const secondStore = await second.client.availability();
    second.client.transferToHuman();
    await waitUntil(() => expect(secondStore.getSnapshot().queue).toEqual({ position: 2, etaMs: 180_000 }));
    expect(second.client.session.getState()).toMatchObject({ status: 'queued', position: 2, busy: false, etaMs: 180_000 });
  });
});
