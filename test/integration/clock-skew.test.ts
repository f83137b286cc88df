/**
 * Gap-fill that does not depend on clocks (issue 12, docs/protocol.md §4 `seq`): two server nodes
 * share one database, and node B's clock is 5 s behind node A's. A visitor on node A holds A's
 * newest message; meanwhile the same visitor (another device) writes through node B, whose
 * messages get older `createTime`s. Asking for what is newer than the newest `createTime` held
 * would skip them; the SDK's gap-fill asks for what follows the newest `seq` held and misses
 * nothing, duplicating nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index.js';
import { removeDir, startServer, tempDir } from '../../examples/server/test/helpers/start.js';
import { Clients, connectedVisitor, DEMO, waitUntil } from './harness.js';

const SKEW_MS = 5_000;
let dataDir: string;
let nodeA: Awaited<ReturnType<typeof startServer>>;
let nodeB: Awaited<ReturnType<typeof startServer>>;
const clients = new Clients();

beforeAll(async () => {
  dataDir = tempDir();
  nodeA = await startServer({ dataDir, memoryDb: false });
  nodeB = await startServer({ dataDir, memoryDb: false }, {}, { messageClock: () => Date.now() - SKEW_MS });
});
afterAll(async () => {
  clients.destroyAll();
  await nodeB.close();
  await nodeA.close();
  removeDir(dataDir);
  expect([...nodeA.errors, ...nodeB.errors]).toEqual([]);
});

describe('two nodes on one database, one clock 5 s behind', () => {
  it('stamps a per-conversation seq in commit order, and the SDK gap-fill by seq misses and repeats nothing', async () => {
    const id = `skew-${Date.now()}`;
    const own = memoryStorage();
    const first = await connectedVisitor(clients, nodeA, { clientId: id, storage: own, tabs: false });
    const a1 = first.client.sendText('written on node A');
    await waitUntil(() => expect(first.client.messages.get(a1.fp!)?.sendState).toBe('sent'));
    const heldTime = first.client.messages.newestTime() ?? 0;
    const heldSeq = first.client.messages.newestSeq() ?? 0;
    expect(heldSeq).toBeGreaterThan(0);

    // the same visitor on another device, through node B (its secret copied: protocol §3a)
    const storage = memoryStorage();
    storage.setItem('uuid', id);
    const secret = own.getItem('clientSecret');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    storage.setItem('clientSecret', secret!);
    const second = await connectedVisitor(clients, nodeB, { storage, tabs: false });
    const b1 = second.client.sendText('written on node B');
    await waitUntil(() => expect(second.client.messages.get(b1.fp!)?.sendState).toBe('sent'));
    const b1Stored = second.client.messages.get(b1.fp!)!;
    // node B's clock is behind: its message looks older than what node A handed out before it
    expect(Number(b1Stored.createTime)).toBeLessThan(heldTime);
    expect(b1Stored.seq).toBeGreaterThan(heldSeq);

    // what a time-based gap-fill would get: nothing of node B's messages
    const byTime = await first.client.api.findMsgForCus({ clientId: id, mchId: DEMO.mchId, platformId: DEMO.platformId, after: heldTime, size: 100 });
    expect(byTime.list.some((m) => m.fp === b1.fp)).toBe(false);

    // the SDK's gap-fill (by seq) gets node B's text and the robot's answer on node B, once
    const fetched = await first.client.fetchMissed();
    expect(fetched).toBeGreaterThanOrEqual(1);
    expect(first.client.messages.get(b1.fp!)?.dataContent).toBe('written on node B');
    const robotAfter = first.client.messages.getSnapshot().filter((m) => m.type === 200 && (m.seq ?? 0) > b1Stored.seq!);
    expect(robotAfter.length).toBeGreaterThanOrEqual(1);
    expect(await first.client.fetchMissed()).toBe(0);
    const fps = first.client.messages.getSnapshot().map((m) => m.fp);
    expect(new Set(fps).size).toBe(fps.length);
    const seqs = first.client.messages.getSnapshot().map((m) => m.seq).filter((s): s is number => typeof s === 'number');
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});

