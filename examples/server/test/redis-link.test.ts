/**
 * The Redis side of a cluster, against a real Redis: deliveries and close orders between two nodes' hubs, agent
 * presence that expires when a node dies without a goodbye, and a rate limit whose allowance the
 * nodes share. Skips with the reason when Redis does not answer, except under CI.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Hub, type Peer } from '../src/chat/hub.js';
import type { WireMessage } from '../src/chat/wire.js';
import { PRESENCE_TTL_MS, RedisLink } from '../src/cluster/redis-link.js';
import { RedisWindowLimiter } from '../src/cluster/redis-limiter.js';
import { RedisLoginThrottle } from '../src/cluster/redis-login-throttle.js';
import { throttledReporter } from '../src/cluster/node-services.js';
import { LoginThrottle } from '../src/agents/throttle.js';
import { skipWithoutRedis, TEST_REDIS_URL as REDIS_URL } from './helpers/prerequisites.js';

const skip = await skipWithoutRedis('redis-link');

/** A cluster name of this run: other test files' nodes share the Redis. */
const CLUSTER = `test-${randomUUID()}`;

function peer(userId: string, role: Peer['role'], inbox: WireMessage[]): Peer {
  return { userId, role, name: userId, avatar: '', mchId: '', platformId: '', language: 'en', saltKey: 's', send: (m) => inbox.push(m), close: () => undefined };
}

const links: RedisLink[] = [];
afterEach(async () => {
  for (const link of links.splice(0)) await link.close();
});

async function node(name: string, now?: () => number): Promise<{ hub: Hub; link: RedisLink }> {
  const hub = new Hub();
  const link = await RedisLink.open(hub, { url: REDIS_URL, nodeId: `${name}-${randomUUID()}`, cluster: CLUSTER, onError: (e) => { throw e; }, ...(now ? { now } : {}) });
  links.push(link);
  return { hub, link };
}

describe.skipIf(skip)('Redis link between nodes', () => {
  it('delivers a message sent on node A to the sockets of the user on node B, in order, once each', async () => {
    const a = await node('a');
    const b = await node('b');
    const inbox: WireMessage[] = [];
    const user = `v-${randomUUID()}`;
    b.hub.add(peer(user, 'visitor', inbox));
    const sent = Array.from({ length: 50 }, (_, i) => ({ type: 100, from: 'agent:x', to: user, fp: `fp-${i}`, dataContent: `text ${i}` }));
    for (const m of sent) expect(a.hub.sendTo(user, m)).toBe(0); // nobody on node A itself
    await expect.poll(() => inbox.length).toBe(50);
    expect(inbox.map((m) => m.fp)).toEqual(sent.map((m) => m.fp));
    // a node does not deliver its own publications twice
    const local: WireMessage[] = [];
    a.hub.add(peer(`w-${randomUUID()}`, 'visitor', local));
    a.hub.sendTo(a.hub.all()[0]!.userId, sent[0]!);
    await new Promise((r) => setTimeout(r, 100));
    expect(local).toHaveLength(1);
  });

  it('closes a user\'s sockets on every node (a close order), only that user\'s; malformed orders are ignored', async () => {
    const a = await node('a');
    const b = await node('b');
    const closes: string[] = [];
    const closing = (userId: string, where: string): Peer => ({ ...peer(userId, 'visitor', []), close: (code, reason) => closes.push(`${where} ${userId} ${code} ${reason}`) });
    const user = `v-${randomUUID()}`;
    const other = `v-${randomUUID()}`;
    a.hub.add(closing(user, 'a'));
    b.hub.add(closing(user, 'b'));
    b.hub.add(closing(user, 'b2'));
    b.hub.add(closing(other, 'b'));
    expect(a.hub.disconnect(user, 4004, 'deleted')).toBe(1); // node A's own socket at once
    await expect.poll(() => closes.length).toBe(3);
    expect(closes.sort()).toEqual([`a ${user} 4004 deleted`, `b ${user} 4004 deleted`, `b2 ${user} 4004 deleted`]);
    // orders without a code, with a code of the wrong type, or not JSON close nothing
    for (const raw of [JSON.stringify({ n: 'x', u: other }), JSON.stringify({ n: 'x', u: other, c: { code: '4004', reason: 'x' } }), 'not json']) {
      await a.link.client.publish(`${CLUSTER}:deliver`, raw);
    }
    await new Promise((r) => setTimeout(r, 150));
    expect(closes).toHaveLength(3);
  });

  it('shows an agent online on every node while its node lives, and drops it after the TTL when the node dies silently', async () => {
    let clock = Date.now();
    const a = await node('a', () => clock);
    const b = await node('b', () => clock);
    const agentId = `agent:${randomUUID()}`;
    a.hub.add(peer(agentId, 'agent', []));
    await expect.poll(() => b.hub.onlineAgents()).toContain(agentId);
    expect(await b.hub.isAgentOnline(agentId)).toBe(true);
    let told = 0;
    b.link.watchAgents(() => (told += 1));
    await b.link.refreshPresence(); // the first renewal only notes who is online
    expect(told).toBe(0);
    // node A is killed: no goodbye, no renewal
    a.link.client.disconnect();
    clock += PRESENCE_TTL_MS + 1;
    expect(await b.hub.onlineAgents()).not.toContain(agentId);
    // node B's next renewal notices and tells (queued visitors then hear "busy")
    await b.link.refreshPresence();
    expect(told).toBe(1);
    await b.link.refreshPresence();
    expect(told).toBe(1);
    // a clean leave removes it at once
    const c = await node('c', () => clock);
    const other = `agent:${randomUUID()}`;
    const socket = peer(other, 'agent', []);
    c.hub.add(socket);
    await expect.poll(() => b.hub.onlineAgents()).toContain(other);
    c.hub.remove(socket);
    await expect.poll(() => b.hub.onlineAgents()).not.toContain(other);
  });

  it('counts one allowance for all nodes; a refused hit records nothing', async () => {
    const a = await node('a');
    const b = await node('b');
    const name = `${CLUSTER}:rate:test`;
    const onA = new RedisWindowLimiter(a.link.client, name, 3, 10_000);
    const onB = new RedisWindowLimiter(b.link.client, name, 3, 10_000);
    const now = Date.now();
    expect([await onA.hit('ip:1', now), await onB.hit('ip:1', now + 1), await onA.hit('ip:1', now + 2)]).toEqual([true, true, true]);
    expect(await onB.hit('ip:1', now + 3)).toBe(false);
    // hitAll: one key over its limit refuses the hit for all of them
    expect(await onA.hitAll(['ip:1', 'ip:2'], now + 4)).toBe(false);
    expect(await onB.hit('ip:2', now + 5)).toBe(true);
    // after the window, allowed again
    expect(await onA.hit('ip:1', now + 10_001)).toBe(true);
  });

  it('throttles agent logins once for all nodes, by the same rules as one node', async () => {
    const a = await node('a');
    const b = await node('b');
    let now = 1_000_000;
    const options = { freeFailures: 3, baseDelayMs: 500, maxDelayMs: 30_000, lockoutAfter: 10, lockoutMs: 900_000 };
    const prefix = `${CLUSTER}:login`;
    const onA = new RedisLoginThrottle(a.link.client, prefix, options, () => now);
    const onB = new RedisLoginThrottle(b.link.client, prefix, options, () => now);
    const alone = new LoginThrottle(options, () => now);
    const account = `acct-${randomUUID()}`;
    // 4 failures spread over two nodes count like 4 on one
    for (let i = 0; i < 4; i++) {
      await (i % 2 === 0 ? onA : onB).failed(account, '10.0.0.1');
      alone.failed(account, '10.0.0.1');
    }
    expect(await onB.check(account, '10.0.0.9')).toEqual(alone.check(account, '10.0.0.9'));
    expect(await onA.check(account, '10.0.0.9')).toEqual({ allowed: false, reason: 'wait', retryAfterMs: 500 });
    expect(await onA.check(`other-${randomUUID()}`, '10.0.0.1')).toMatchObject({ allowed: false, reason: 'wait' });
    // two nodes failing at the same moment count two
    await Promise.all([onA.failed(account, '10.0.0.1'), onB.failed(account, '10.0.0.1')]);
    for (let i = 0; i < 2; i++) alone.failed(account, '10.0.0.1');
    now += 10;
    expect(await onA.check(account, '10.0.0.2')).toEqual(alone.check(account, '10.0.0.2'));
    // up to the lockout: locked everywhere, even after the longest wait
    for (let i = 0; i < 4; i++) await onB.failed(account, '10.0.0.1');
    now += 60_000;
    expect(await onA.check(account, '10.0.0.3')).toMatchObject({ allowed: false, reason: 'locked' });
    // a success forgets the account's failures, not the address's
    await onA.succeeded(account);
    expect(await onB.check(account, '10.0.0.3')).toEqual({ allowed: true });
    expect((await onB.check(account, '10.0.0.1')).allowed).toBe(false);
  });

  it('keeps limiting in memory while Redis does not answer, and says so once per 10 s', async () => {
    const a = await node('a');
    const reports: unknown[] = [];
    let now = 5_000_000;
    const report = throttledReporter((e) => reports.push(e), 10_000, () => now);
    const limiter = new RedisWindowLimiter(a.link.client, `${CLUSTER}:rate:outage`, 2, 10_000, report);
    const throttle = new RedisLoginThrottle(a.link.client, `${CLUSTER}:login`, { freeFailures: 1, baseDelayMs: 500, maxDelayMs: 30_000, lockoutAfter: 10, lockoutMs: 900_000 }, () => now, report);
    a.link.client.disconnect(); // Redis gone
    expect([await limiter.hit('ip:9', now), await limiter.hit('ip:9', now + 1), await limiter.hit('ip:9', now + 2)]).toEqual([true, true, false]);
    await throttle.failed('mallory', '10.9.9.9');
    await throttle.failed('mallory', '10.9.9.9');
    expect(await throttle.check('mallory', '10.9.9.8')).toMatchObject({ allowed: false, reason: 'wait' });
    expect(reports).toHaveLength(1); // many failures, one report
    now += 10_000;
    await limiter.hit('ip:9', now);
    expect(reports).toHaveLength(2);
    expect(String((reports[1] as Error).message)).toMatch(/more like it/);
  });
});
