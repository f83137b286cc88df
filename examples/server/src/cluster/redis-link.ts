/**
 * The Redis side of a cluster (`REDIS_URL`): deliveries between nodes over pub/sub and agent
 * presence with expiry.
 *
 * - **Delivery.** Every {@link Hub.sendTo} is published once on one channel; each other node hands
 *   it to its own sockets of that user. Redis keeps one publisher's messages in order, so a
 *   sender's messages reach another node in the order they were stored. What a node missed while
 *   its subscription was down, its clients fetch from the database (gap-fill by `seq`).
 * - **Close orders.** {@link Hub.disconnect} (a visitor deleted on request) is published on the
 *   same channel without a message; each other node closes that user's sockets.
 * - **Presence.** Each node keeps, in one sorted set, an entry per agent with a socket on it,
 *   scored by when it expires; it renews them every {@link PRESENCE_REFRESH_MS}. A node killed
 *   without a goodbye stops renewing: its agents drop out of "online" after
 *   {@link PRESENCE_TTL_MS}.
 *
 * ioredis was chosen over `redis` (node-redis): it reconnects and resubscribes by itself, and
 * `@fastify/rate-limit` takes an ioredis client for its shared store, so one client library
 * serves delivery, presence and every rate limit.
 * @module
 */

import { Redis } from 'ioredis';
import type { ClusterLink, Hub } from '../chat/hub.js';
import type { WireMessage } from '../chat/wire.js';

/** The pub/sub channel of a cluster's deliveries. */
export const deliveryChannel = (cluster: string): string => `${cluster}:deliver`;
/** The sorted set of a cluster's agent presence entries (`<agent user id>\n<node id>`, scored by expiry). */
export const presenceKey = (cluster: string): string => `${cluster}:agents`;
/** How long a node's presence entries live without renewal (ms). */
export const PRESENCE_TTL_MS = 15_000;
/** How often a node renews its presence entries (ms). */
export const PRESENCE_REFRESH_MS = 5_000;

/** A published delivery. */
interface Delivery {
  /** The publishing node. */
  n: string;
  /** The user. */
  u: string;
  /** The message. */
  m: WireMessage;
}

/**
 * A published close: every node closes the user's sockets (a deleted visitor). It carries no
 * `m`, so a node that does not know it ignores it.
 */
interface CloseOrder {
  /** The publishing node. */
  n: string;
  /** The user. */
  u: string;
  /** The close code and reason. */
  c: { code: number; reason: string };
}

/**
 * Publishes a {@link CloseOrder} on a cluster's channel from a process that is no node (the
 * admin command, which deletes a visitor while the nodes run).
 */
export async function publishCloseOrder(client: Pick<Redis, 'publish'>, cluster: string, from: string, userId: string, code: number, reason: string): Promise<void> {
  const order: CloseOrder = { n: from, u: userId, c: { code, reason } };
  await client.publish(deliveryChannel(cluster), JSON.stringify(order));
}

/** Options of {@link RedisLink.open}. */
export interface RedisLinkOptions {
  /** `REDIS_URL`. */
  url: string;
  /** This node's id (unique in the cluster). */
  nodeId: string;
  /** The cluster's name (`CLUSTER_NAME`): the prefix of its channel and keys, so clusters may share a Redis. */
  cluster: string;
  /** Where failures are reported (Redis down: deliveries to other nodes wait for gap-fill). */
  onError: (error: unknown) => void;
  /** The wall clock (tests). */
  now?: () => number;
}

/** One node's link to the others through Redis. */
export class RedisLink implements ClusterLink {
  /** The connection that publishes and keeps presence (also used for shared rate limits). */
  readonly client: Redis;
  private readonly subscriber: Redis;
  private readonly here = new Set<string>();
  private readonly refresh: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  private closed = false;
  /** The agents online at the last renewal (sorted, joined), to notice one dropping out. */
  private lastOnline: string | null = null;
  private readonly watchers: (() => void)[] = [];
  private readonly channel: string;
  private readonly presence: string;

  private constructor(
    private readonly hub: Hub,
    private readonly options: RedisLinkOptions,
    client: Redis,
    subscriber: Redis,
  ) {
    this.client = client;
    this.subscriber = subscriber;
    this.now = options.now ?? Date.now;
    this.channel = deliveryChannel(options.cluster);
    this.presence = presenceKey(options.cluster);
    this.refresh = setInterval(() => {
      this.refreshPresence().catch(this.options.onError);
    }, PRESENCE_REFRESH_MS);
    this.refresh.unref();
  }

  /**
   * Connects (two connections: a subscribed one cannot publish), subscribes and joins `hub`.
   * @throws when Redis does not answer at start (a node must not run alone believing it is in a cluster).
   */
  static async open(hub: Hub, options: RedisLinkOptions): Promise<RedisLink> {
    const settings = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true, connectionName: `kefu:${options.nodeId}` };
    const client = new Redis(options.url, settings);
    const subscriber = new Redis(options.url, settings);
    client.on('error', () => undefined); // reported where a command fails; ioredis reconnects by itself
    subscriber.on('error', () => undefined);
    try {
      await Promise.all([client.connect(), subscriber.connect()]);
      await subscriber.subscribe(deliveryChannel(options.cluster));
    } catch (error) {
      client.disconnect();
      subscriber.disconnect();
      throw new Error(`REDIS_URL: Redis does not answer (${error instanceof Error ? error.message : String(error)})`);
    }
    const link = new RedisLink(hub, options, client, subscriber);
    subscriber.on('message', (_channel: string, raw: string) => link.received(raw));
    hub.connect(link);
    return link;
  }

  /** {@inheritDoc ClusterLink.publish} */
  publish(userId: string, message: WireMessage): void {
    if (this.closed) return;
    const delivery: Delivery = { n: this.options.nodeId, u: userId, m: message };
    this.client.publish(this.channel, JSON.stringify(delivery)).catch(this.options.onError);
  }

  /** {@inheritDoc ClusterLink.publishClose} */
  publishClose(userId: string, code: number, reason: string): void {
    if (this.closed) return;
    publishCloseOrder(this.client, this.options.cluster, this.options.nodeId, userId, code, reason).catch(this.options.onError);
  }

  /** {@inheritDoc ClusterLink.agentArrived} */
  agentArrived(userId: string): void {
    this.here.add(userId);
    if (!this.closed) this.client.zadd(this.presence, this.now() + PRESENCE_TTL_MS, this.member(userId)).catch(this.options.onError);
  }

  /** {@inheritDoc ClusterLink.agentLeft} */
  agentLeft(userId: string): void {
    this.here.delete(userId);
    if (!this.closed) this.client.zrem(this.presence, this.member(userId)).catch(this.options.onError);
  }

  /** {@inheritDoc ClusterLink.onlineAgents} */
  async onlineAgents(): Promise<string[]> {
    try {
      const members = await this.client.zrangebyscore(this.presence, this.now(), '+inf');
      return [...new Set(members.map((m) => m.slice(0, m.lastIndexOf('\n'))))];
    } catch (error) {
      // Redis does not answer: this node's own agents are all it knows of
      this.options.onError(error);
      return [...this.here];
    }
  }

  /** Leaves the cluster: this node's presence entries go at once, then both connections close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.refresh);
    const mine = [...this.here].map((userId) => this.member(userId));
    try {
      if (mine.length > 0) await this.client.zrem(this.presence, ...mine);
      await Promise.all([this.subscriber.quit(), this.client.quit()]);
    } catch {
      this.client.disconnect();
      this.subscriber.disconnect();
    }
  }

  private received(raw: string): void {
    let published: Partial<Delivery & CloseOrder>;
    try {
      published = JSON.parse(raw) as Partial<Delivery & CloseOrder>;
    } catch {
      return;
    }
    if (typeof published !== 'object' || published === null) return;
    const { n, u, m, c } = published;
    if (n === this.options.nodeId || typeof u !== 'string') return;
    if (typeof m === 'object' && m !== null) this.hub.deliverHere(u, m);
    else if (typeof c === 'object' && c !== null && typeof c.code === 'number' && typeof c.reason === 'string') this.hub.closeHere(u, c.code, c.reason.slice(0, 100));
  }

  /**
   * Calls `watcher` when the cluster's online agents change by expiry (a node died without a
   * goodbye), so that queued visitors learn they wait with nobody online. Arrivals and clean
   * leaves are told by the node where they happen.
   */
  watchAgents(watcher: () => void): void {
    this.watchers.push(watcher);
  }

  /**
   * Renews this node's entries, drops everybody's expired ones, and tells the watchers when the
   * set of online agents changed since the last renewal (every {@link PRESENCE_REFRESH_MS}).
   */
  async refreshPresence(): Promise<void> {
    if (this.closed) return;
    const now = this.now();
    const batch = this.client.multi().zremrangebyscore(this.presence, '-inf', now);
    for (const userId of this.here) batch.zadd(this.presence, now + PRESENCE_TTL_MS, this.member(userId));
    await batch.exec();
    const online = (await this.onlineAgents()).sort().join('\n');
    const changed = this.lastOnline !== null && online !== this.lastOnline;
    this.lastOnline = online;
    if (changed) for (const watcher of this.watchers) watcher();
  }

  private member(userId: string): string {
    return `${userId}\n${this.options.nodeId}`;
  }
}
