/**
 * `MAX_SOCKETS_PER_IDENTITY` across a cluster, against a real Redis: two nodes' socket slots share
 * one count per identity, a race for the last slot lets exactly one connect in, a node that dies
 * without a goodbye stops counting once its entries expire (the living node's renewed ones stay),
 * and a clean leave gives its slots back at once. Skips with the reason when Redis does not
 * answer, except under CI.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RedisSocketSlots, type RedisSocketSlotsOptions } from '../src/cluster/redis-socket-slots.js';
import type { SocketSlot } from '../src/socket/socket-slots.js';
import { skipWithoutRedis, TEST_REDIS_URL as REDIS_URL } from './helpers/prerequisites.js';

const skip = await skipWithoutRedis('redis-socket-slots');

/** A cluster name of this run: other test files' nodes share the Redis. */
const CLUSTER = `test-${randomUUID()}`;

const redis = skip ? undefined : new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const made: RedisSocketSlots[] = [];
afterEach(async () => {
  for (const slots of made.splice(0)) await slots.close();
});
afterAll(() => redis?.disconnect());

function node(name: string, over: Partial<RedisSocketSlotsOptions> = {}): RedisSocketSlots {
  const slots = new RedisSocketSlots(redis!, { cluster: CLUSTER, nodeId: name, max: 2, onError: (e) => { throw e; }, ...over });
  made.push(slots);
  return slots;
}

const user = (): string => `v-${randomUUID()}`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skip)('MAX_SOCKETS_PER_IDENTITY counts the sockets of every node', () => {
  it('an identity with its slots held on node A gets none on node B; a release on A lets B take one', async () => {
    const [a, b] = [node('a'), node('b')];
    const id = user();
    const first = await a.take(id);
    expect(await b.take(id)).toBeDefined();
    expect(await a.take(id)).toBeUndefined();
    expect(await b.take(id)).toBeUndefined();
    expect(await a.counted(id)).toBe(2);
    first!.release();
    await expect.poll(() => b.counted(id)).toBe(1);
    expect(await b.take(id)).toBeDefined();
    // another identity is counted apart
    expect(await a.take(user())).toBeDefined();
  });

  it('of 20 connects racing on two nodes for 3 slots, exactly 3 get one', async () => {
    const [a, b] = [node('a', { max: 3 }), node('b', { max: 3 })];
    const id = user();
    const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).take(id)));
    expect(taken.filter((s) => s !== undefined)).toHaveLength(3);
    expect(await a.counted(id)).toBe(3);
  });

  it('a node that dies holding slots stops counting within its entries\' life; the living node\'s renewed ones stay', async () => {
    // short lives for the test; the server's are 15 s, renewed every 5 s
    const dead = node('dead', { ttlMs: 600, refreshMs: 60_000 }); // never renews: killed
    const alive = node('alive', { ttlMs: 600, refreshMs: 100 });
    const id = user();
    expect(await dead.take(id)).toBeDefined();
    expect(await alive.take(id)).toBeDefined();
    expect(await alive.take(id)).toBeUndefined();
    await sleep(900);
    expect(await alive.counted(id)).toBe(1); // the dead node's entry is gone, the renewed one is not
    expect(await alive.take(id)).toBeDefined();
    expect(await alive.take(id)).toBeUndefined();
  });

  it('a clean leave (the node drains) gives its slots back at once; a release after it touches nothing', async () => {
    const leaving = node('leaving');
    const other = node('other');
    const id = user();
    const held: (SocketSlot | undefined)[] = [await leaving.take(id), await leaving.take(id)];
    expect(await other.take(id)).toBeUndefined();
    await leaving.close();
    expect(await other.take(id)).toBeDefined();
    held[0]!.release();
    expect(await other.counted(id)).toBe(1);
  });

  it('while Redis does not answer, a connect is not refused for it: the node counts its own sockets of the identity', async () => {
    const broken = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    broken.on('error', () => undefined);
    const errors: unknown[] = [];
    const away = new RedisSocketSlots(broken, { cluster: CLUSTER, nodeId: 'away', max: 2, onError: (e) => errors.push(e) });
    const id = user();
    expect(await away.take(id)).toBeDefined();
    expect(await away.take(id)).toBeDefined();
    expect(await away.take(id)).toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
    await away.close();
    broken.disconnect();
  });
});
