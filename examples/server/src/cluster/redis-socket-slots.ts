/**
 * Socket slots counted for the whole cluster in Redis (`MAX_SOCKETS_PER_IDENTITY` holds across
 * nodes, not per node).
 *
 * - **One sorted set per identity** (`<cluster>:sockets:<user id>`): one entry per open socket,
 *   `<node id>\n<random id>`, scored by when it expires.
 * - **Atomic.** A take is one Lua script: drop expired entries, refuse when the identity holds
 *   `max`, else add the entry. Redis runs scripts one at a time, so two nodes racing for the last
 *   slot cannot both get it. Expiry is read from Redis's own clock (`TIME`), so nodes whose clocks
 *   differ agree on it.
 * - **A dead node stops counting.** Each node renews its own entries every `refreshMs`; an entry
 *   not renewed for `ttlMs` (a node killed without a goodbye) is dropped by the next take, so a
 *   dead node's sockets stop counting within `ttlMs` (15 s by default).
 * - **A Redis outage** fails no connect: the node counts its own sockets of the identity (the
 *   limit then holds per node, as the rate limits do), and its renewal writes them into Redis once
 *   it answers again.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { once, type SocketSlot, type SocketSlots } from '../socket/socket-slots.js';
import { PRESENCE_REFRESH_MS, PRESENCE_TTL_MS } from './redis-link.js';

/** Redis's clock in ms, inside a script. */
const REDIS_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] the identity's set; ARGV max, ttl, entry. 1 when taken, 0 when all slots are held. */
const TAKE = `${REDIS_NOW}
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`;

/** KEYS[1] the identity's set; ARGV ttl, then this node's entries: each lives `ttl` from now. */
const RENEW = `${REDIS_NOW}
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + ttl, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return #ARGV - 1`;

/** The Redis key of an identity's slots. */
export const socketSlotsKey = (cluster: string, userId: string): string => `${cluster}:sockets:${userId}`;

/** Options of {@link RedisSocketSlots}. */
export interface RedisSocketSlotsOptions {
  /** The cluster's name (`CLUSTER_NAME`: the keys' prefix). */
  cluster: string;
  /** This node's id (the first part of its entries). */
  nodeId: string;
  /** Slots per identity (`MAX_SOCKETS_PER_IDENTITY`). */
  max: number;
  /** Told when Redis fails (the node then counts alone). */
  onError: (error: unknown) => void;
  /** How long an entry lives without renewal (default {@link PRESENCE_TTL_MS}). */
  ttlMs?: number;
  /** How often this node renews its entries (default {@link PRESENCE_REFRESH_MS}). */
  refreshMs?: number;
}

/** {@link SocketSlots} shared by the nodes of a cluster (see the module comment). */
export class RedisSocketSlots implements SocketSlots {
  /** This node's entries per identity (renewed, and counted alone while Redis is away). */
  private readonly held = new Map<string, Set<string>>();
  private readonly ttlMs: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private closed = false;

  /**
   * @param redis - a connected client (the cluster link's)
   * @param options - cluster, node, limit, error report and timings
   */
  constructor(
    private readonly redis: Redis,
    private readonly options: RedisSocketSlotsOptions,
  ) {
    this.ttlMs = options.ttlMs ?? PRESENCE_TTL_MS;
    this.timer = setInterval(() => {
      this.renew().catch(options.onError);
    }, options.refreshMs ?? PRESENCE_REFRESH_MS);
    this.timer.unref();
  }

  /** {@inheritDoc SocketSlots.take} */
  async take(userId: string): Promise<SocketSlot | undefined> {
    const entry = `${this.options.nodeId}\n${randomUUID()}`;
    let taken: boolean;
    try {
      taken = (await this.redis.eval(TAKE, 1, this.key(userId), this.options.max, this.ttlMs, entry)) === 1;
    } catch (error) {
      // Redis away: this node's own sockets of the identity are all it can count
      this.options.onError(error);
      taken = (this.held.get(userId)?.size ?? 0) < this.options.max;
    }
    if (!taken) return undefined;
    let entries = this.held.get(userId);
    if (!entries) {
      entries = new Set();
      this.held.set(userId, entries);
    }
    entries.add(entry);
    return once(() => this.release(userId, entry));
  }

  /** Renews this node's entries (every `refreshMs`; tests call it). */
  async renew(): Promise<void> {
    if (this.closed || this.held.size === 0) return;
    const batch = this.redis.pipeline();
    for (const [userId, entries] of this.held) batch.eval(RENEW, 1, this.key(userId), this.ttlMs, ...entries);
    const results = (await batch.exec()) ?? [];
    const failed = results.find(([error]) => error !== null);
    if (failed) throw failed[0];
  }

  /** How many sockets of `userId` the cluster counts now (expired entries not included). */
  async counted(userId: string): Promise<number> {
    const [seconds, micros] = await this.redis.time();
    return this.redis.zcount(this.key(userId), Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) + 1, '+inf');
  }

  /** Stops renewing and removes this node's entries (a clean leave: its sockets are closing). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    const batch = this.redis.pipeline();
    for (const [userId, entries] of this.held) batch.zrem(this.key(userId), ...entries);
    this.held.clear();
    await batch.exec().catch(this.options.onError);
  }

  private release(userId: string, entry: string): void {
    const entries = this.held.get(userId);
    entries?.delete(entry);
    if (entries?.size === 0) this.held.delete(userId);
    if (!this.closed) this.redis.zrem(this.key(userId), entry).catch(this.options.onError);
  }

  private key(userId: string): string {
    return socketSlotsKey(this.options.cluster, userId);
  }
}
