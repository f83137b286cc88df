/**
 * What a node shares with the other nodes of its cluster, or keeps to itself when it runs alone:
 * the link that delivers between nodes, and the rate limits (in Redis, one allowance for the
 * whole cluster; in memory otherwise).
 * @module
 */

import type { Redis } from 'ioredis';
import type { Hub } from '../chat/hub.js';
import type { ServerConfig } from '../config.js';
import { LoginThrottle, type LoginGate } from '../agents/throttle.js';
import { SlidingWindowLimiter, type RateLimiter } from '../socket/rate-limiter.js';
import { RedisLoginThrottle } from './redis-login-throttle.js';
import { RedisLink } from './redis-link.js';
import { RedisWindowLimiter } from './redis-limiter.js';
import { RedisSocketSlots } from './redis-socket-slots.js';
import { LocalSocketSlots, type SocketSlots } from '../socket/socket-slots.js';

/** Makes a named rate limit of `max` hits per `windowMs`. */
export type LimiterFactory = (name: string, max: number, windowMs: number) => RateLimiter;

/** The node's cluster services. */
export interface NodeServices {
  /** Rate limits (shared in a cluster). */
  limiter: LimiterFactory;
  /** The agent login throttle (shared in a cluster). */
  loginThrottle: LoginGate;
  /** The open sockets per identity (`MAX_SOCKETS_PER_IDENTITY`: counted for the whole cluster in one). */
  socketSlots: SocketSlots;
  /** Takes `key` for `ttlMs` if nobody holds it (in a cluster: no other node); true when taken. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Calls `watcher` when agents drop out of the cluster's presence by expiry (a dead node). */
  watchAgents(watcher: () => void): void;
  /** The Redis client for `@fastify/rate-limit`'s shared store, in a cluster. */
  redis: Redis | undefined;
  /** Leaves the cluster. */
  close(): Promise<void>;
}

/**
 * Joins the cluster named by `REDIS_URL` (deliveries and presence through Redis, shared rate
 * limits), or answers the services of a node that runs alone.
 */
export async function nodeServices(config: ServerConfig, hub: Hub, onError: (error: unknown) => void, now: () => number = Date.now): Promise<NodeServices> {
  if (config.redisUrl === '') {
    return {
      limiter: (_name, max, windowMs) => new SlidingWindowLimiter(max, windowMs),
      loginThrottle: new LoginThrottle(config.loginThrottle, now),
      socketSlots: new LocalSocketSlots(config.abuse.socketsPerIdentity),
      watchAgents: () => undefined, // alone, every change happens here and is told at once
      claim: memoryClaims(now),
      redis: undefined,
      close: async () => undefined,
    };
  }
  // a Redis outage fails every command: say so once per 10 s, not once per message
  const redisError = throttledReporter(onError, 10_000, now);
  const link = await RedisLink.open(hub, { url: config.redisUrl, nodeId: config.nodeId, cluster: config.clusterName, onError: redisError });
  const socketSlots = new RedisSocketSlots(link.client, { cluster: config.clusterName, nodeId: config.nodeId, max: config.abuse.socketsPerIdentity, onError: redisError });
  return {
    limiter: (name, max, windowMs) => new RedisWindowLimiter(link.client, `${config.clusterName}:rate:${name}`, max, windowMs, redisError),
    loginThrottle: new RedisLoginThrottle(link.client, `${config.clusterName}:login`, config.loginThrottle, now, redisError),
    watchAgents: (watcher) => link.watchAgents(watcher),
    claim: async (key, ttlMs) => (await link.client.set(`${config.clusterName}:claim:${key}`, config.nodeId, 'PX', ttlMs, 'NX')) === 'OK',
    socketSlots,
    redis: link.client,
    close: async () => {
      await socketSlots.close();
      await link.close();
    },
  };
}

/** Claims kept in this process (a node alone). */
function memoryClaims(now: () => number): (key: string, ttlMs: number) => Promise<boolean> {
  const held = new Map<string, number>();
  return async (key, ttlMs) => {
    const t = now();
    for (const [k, until] of held) if (until <= t) held.delete(k);
    if (held.has(key)) return false;
    held.set(key, t + ttlMs);
    return true;
  };
}

/** Reports the first error, then at most one per `everyMs` (with how many were left unsaid). */
export function throttledReporter(report: (error: unknown) => void, everyMs: number, now: () => number = Date.now): (error: unknown) => void {
  let last = Number.NEGATIVE_INFINITY;
  let unsaid = 0;
  return (error) => {
    const t = now();
    if (t - last < everyMs) {
      unsaid += 1;
      return;
    }
    last = t;
    report(unsaid === 0 ? error : new Error(`${error instanceof Error ? error.message : String(error)} (and ${unsaid} more like it since the last report)`, { cause: error }));
    unsaid = 0;
  };
}
