/**
 * Routing on a cluster (desk issue "the desk runs a real support team"): two compiled nodes on one
 * PostgreSQL database and one Redis, `AUTO_ASSIGN=1`, three agents of capacities 1, 2 and 3 spread
 * over both nodes; 10 visitors queue at once on both nodes. Each visitor is assigned exactly
 * once, nobody goes over capacity, and the rest stay queued.
 *
 * Without PostgreSQL, Redis or HAProxy the test says why and skips (a failure under CI).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { AgentDesk, agentConnectData } from '../../src/agent/index.js';
import { Clients, DEMO, open, waitUntil, type Recorded } from './harness.js';
import { clusterPrerequisites, endpointsOf, startCluster, type Cluster } from './cluster-harness.js';

const missing = await clusterPrerequisites();
if (missing !== null && process.env['CI']) throw new Error(`the cluster tests must run under CI, but: ${missing}`);
if (missing !== null) console.warn(`[cluster-routing] skipped: ${missing}`);

const clients = new Clients();
afterEach(() => clients.destroyAll());

type Endpoints = Awaited<ReturnType<typeof endpointsOf>>;
const CAPACITY = { one: 1, two: 2, three: 3 } as const;

async function agentAt(endpoints: Endpoints, account: keyof typeof CAPACITY): Promise<AgentDesk> {
  const rec = clients.make(endpoints, { connectData: agentConnectData(account, { password: `pw-${account}` }) });
  const desk = new AgentDesk(rec.client, { storage: memoryStorage() });
  await open(rec);
  return desk;
}

async function visitorAt(endpoints: Endpoints): Promise<Recorded> {
  const rec = clients.make(endpoints, { connectData: { role: 'visitor', mchId: DEMO.mchId, platformId: DEMO.platformId, language: 'en' } });
  await open(rec);
  await waitUntil(() => expect(rec.client.session.getState().sessionId).toBeTruthy(), 10_000);
  return rec;
}

describe.skipIf(missing !== null)('cluster routing: 2 nodes, AUTO_ASSIGN=1', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(2, 'first', {
      AGENTS: 'one:pw-one:Agent One,two:pw-two:Agent Two,three:pw-three:Agent Three',
      AGENT_CAPACITIES: 'one:1,two:2,three:3',
      AUTO_ASSIGN: '1',
    });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('assigns 10 visitors queued at once on both nodes each exactly once, nobody over capacity', async () => {
    const [a, b] = [await endpointsOf(cluster.nodes[0]!.url), await endpointsOf(cluster.nodes[1]!.url)];
    const desks = { one: await agentAt(a, 'one'), two: await agentAt(b, 'two'), three: await agentAt(a, 'three') };
    for (const desk of Object.values(desks)) await waitUntil(() => expect(desk.status.getState().others).toHaveLength(2), 10_000);
    const visitors = await Promise.all(Array.from({ length: 10 }, (_, i) => visitorAt(i % 2 === 0 ? a : b)));
    for (const v of visitors) v.client.transferToHuman(); // at once, on both nodes

    await waitUntil(() => expect(Object.values(desks).map((d) => d.queue.getState().sessions.length)).toEqual([1, 2, 3]), 20_000);
    await waitUntil(() => expect(desks.one.queue.getState().queue).toHaveLength(4), 10_000);
    const served = visitors.map((v) => Object.values(desks).filter((d) => d.session(v.client.clientId) !== undefined).length);
    expect(served.filter((n) => n === 1)).toHaveLength(6);
    expect(served.filter((n) => n === 0)).toHaveLength(4);
    await waitUntil(() => expect(visitors.filter((v) => v.client.session.getState().status === 'agent')).toHaveLength(6), 10_000);
    // nothing more happens: still nobody over capacity a moment later
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(Object.values(desks).map((d) => d.queue.getState().sessions.length)).toEqual([1, 2, 3]);
  }, 90_000);
});
