/**
 * The SDK side of the load bench: agents and visitors are real `ImClient`s from `src/` over `ws`.
 * Visitors start, connect and ask for a human (301); each agent accepts (311) the visitors
 * assigned to it as they appear in its queue snapshots (310); then every visitor sends texts at
 * a fixed rate, each carrying its send time, and the agents time their arrival.
 * @module
 */

import { WebSocket } from 'ws';
import { DEMO } from '../../examples/server/src/seed.js';
import { ImClient, memoryStorage, MessageType, type ImClientOptions } from '../../src/index.js';
import { parseAgentQueue } from '../../src/format.js';
import type { BenchServerInfo } from './server.js';
import { benchAgentAccounts } from './server.js';
import { pace, pool, Samples, sleep, Tally, within } from './stats.js';

/** What a run needs. */
export interface SdkLoadConfig {
  /** The server. */
  server: BenchServerInfo;
  /** Visitor clients. */
  visitors: number;
  /** Agent clients. */
  agents: number;
  /** Messages per visitor per second. */
  rate: number;
  /** Handshakes in flight at once during the ramp. */
  rampConcurrency: number;
}

interface Visitor {
  index: number;
  client: ImClient;
  agent: number;
  openedAt: number;
  ready: boolean;
  seq: number;
  stop: () => void;
}

interface Agent {
  index: number;
  client: ImClient;
  requested: Set<string>;
  acceptFps: Map<string, string>;
}

const TEXT_PREFIX = 'bench#';
const now = (): number => performance.now();

/** Resolves `open` when the client's socket opens, `failed` when it gives up, `timeout` after `timeoutMs`. */
function opened(client: ImClient, timeoutMs: number): Promise<'open' | 'failed' | 'timeout'> {
  return new Promise((resolve) => {
    const done = (outcome: 'open' | 'failed' | 'timeout'): void => {
      clearTimeout(timer);
      client.off('socket login', onLogin);
      client.off('state', onState);
      resolve(outcome);
    };
    const onLogin = (): void => done('open');
    const onState = ({ newState }: { newState: string }): void => {
      if (newState === 'failed') done('failed');
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    client.on('socket login', onLogin);
    client.on('state', onState);
  });
}

/** Agents and visitors on the SDK, and everything measured about them. */
export class SdkLoad {
  /** Key exchange (start) of visitors. */
  readonly startup = new Samples();
  /** Socket open (connect to welcome) of visitors. */
  readonly socketOpen = new Samples();
  /** start + connect of visitors. */
  readonly handshake = new Samples();
  /** start + connect of agents. */
  readonly agentHandshake = new Samples();
  /** From the visitor's socket open (then 301) to its `agent-joined` event. */
  readonly joinWait = new Samples();
  /** From `send` on the visitor to the text's arrival at the agent. */
  readonly delivery = new Samples();
  /** From `send` to the `sent` state (the server's acknowledgement) on the visitor. */
  readonly ack = new Samples();
  /** Error events by side and source. */
  readonly errors = new Tally();
  /** Refusals (type 500) and failed sends by side and reason. */
  readonly refusals = new Tally();
  /** Connection state changes other than the first open (reconnects, failures). */
  readonly drops = new Tally();
  /** Texts sent in the window. */
  sent = 0;
  /** Texts that reached their agent (by the end of the drain). */
  delivered = 0;
  /** Texts that reached their agent within the window. */
  deliveredInWindow = 0;
  /** Texts that reached an agent twice. */
  duplicates = 0;
  /** Read receipts (104) the agents' SDKs sent back that reached the visitors. */
  receiptsBack = 0;
  /** Visitors ready to chat (an agent joined). */
  ready = 0;
  /** Visitors whose start or connect failed. */
  failed = 0;
  /** Visitors whose handshake had not finished when the ramp ended (their socket may open later). */
  cutOff = 0;
  /** Visitors whose socket opened (they then asked for a human). */
  opened = 0;
  /** When the window started and ends (performance.now). */
  windowStart = 0;
  /** See {@link SdkLoad.windowStart}. */
  windowEnd = 0;

  private readonly visitors: Visitor[] = [];
  private readonly agents: Agent[] = [];
  private readonly assignment = new Map<string, number>();
  private readonly outstanding = new Map<string, number>();
  private readonly unacked = new Map<string, number>();
  private stopped = false;
  private onProgress: () => void = () => undefined;

  constructor(private readonly config: SdkLoadConfig) {}

  private options(connectData: Record<string, unknown>): ImClientOptions {
    const { url, socketUrl, socketKey } = this.config.server;
    return { baseUrl: url, socketUrl, socketKey, connectData, WebSocket, storage: memoryStorage(), window: null, document: null };
  }

  private watch(client: ImClient, side: 'visitor' | 'agent'): void {
    client.on('error', ({ error, source }) => this.errors.add(`${side} ${source}`, error.message));
    client.on('refusal', ({ reason }) => this.refusals.add(`${side} refused ${reason}`));
    client.on('state', ({ newState, oldState }) => {
      if (newState === 'reconnecting' || newState === 'failed') this.drops.add(`${side} ${oldState}→${newState}`);
    });
  }

  /** Connects every agent; resolves when all are open or `timeoutMs` passed. */
  async connectAgents(timeoutMs: number): Promise<void> {
    const accounts = benchAgentAccounts(this.config.agents);
    await Promise.all(
      accounts.map(async ({ account, password }, index) => {
        const client = new ImClient(this.options({ role: 'agent', account, password }));
        const agent: Agent = { index, client, requested: new Set(), acceptFps: new Map() };
        this.agents.push(agent);
        this.watch(client, 'agent');
        client.on('socket message', ({ message }) => {
          if (message.type === MessageType.AgentQueue) this.onSnapshot(agent, message.dataContent);
          else if (message.type === MessageType.Text && message.dataContent?.startsWith(TEXT_PREFIX)) this.onDelivered(message.dataContent);
        });
        client.on('refusal', ({ fp }) => {
          const clientId = fp === undefined ? undefined : agent.acceptFps.get(fp);
          if (clientId !== undefined) agent.requested.delete(clientId); // accept again on the next snapshot
        });
        const t0 = now();
        const open = opened(client, timeoutMs);
        client.connect();
        if ((await open) === 'open') this.agentHandshake.add(now() - t0);
      }),
    );
  }

  /** Type 310: accept (311) the queued visitors assigned to this agent that it has not asked for yet. */
  private onSnapshot(agent: Agent, dataContent: string | undefined): void {
    const snapshot = parseAgentQueue(dataContent);
    if (!snapshot) return this.errors.add('agent bad snapshot');
    for (const { clientId } of snapshot.queue) {
      if (this.assignment.get(clientId) !== agent.index || agent.requested.has(clientId)) continue;
      const stored = agent.client.send({ type: MessageType.AgentAccept, dataContent: JSON.stringify({ clientId }) });
      if (stored.sendState === 'failed') continue;
      agent.requested.add(clientId);
      if (stored.fp) agent.acceptFps.set(stored.fp, clientId);
    }
  }

  private onDelivered(text: string): void {
    const received = now();
    const [, visitor, seq, sentAt] = text.split('#');
    const key = `${visitor}#${seq}`;
    if (!this.outstanding.delete(key)) {
      this.duplicates += 1;
      return;
    }
    this.delivered += 1;
    if (received <= this.windowEnd) this.deliveredInWindow += 1;
    this.delivery.add(received - Number(sentAt));
  }

  /**
   * Creates the visitors and runs their handshakes, at most `rampConcurrency` at a time; resolves
   * when every visitor is ready (an agent joined) or failed, or when `timeoutMs` passed.
   */
  async rampVisitors(timeoutMs: number): Promise<void> {
    const deadline = now() + timeoutMs;
    const all = new Promise<void>((resolve) => {
      this.onProgress = () => {
        if (this.ready + this.failed + this.cutOff >= this.config.visitors) resolve();
      };
    });
    const indexes = Array.from({ length: this.config.visitors }, (_, i) => i);
    const launching = pool(indexes, this.config.rampConcurrency, (index) => this.launch(index, deadline), () => this.stopped || now() >= deadline);
    await within(all, timeoutMs);
    this.stopped = true; // no new handshakes after the ramp
    await within(launching, 200);
  }

  private async launch(index: number, deadline: number): Promise<void> {
    const client = new ImClient(this.options({ role: 'visitor', mchId: DEMO.mchId, platformId: DEMO.platformId, name: `Load visitor ${index + 1}` }));
    const visitor: Visitor = { index, client, agent: index % this.config.agents, openedAt: 0, ready: false, seq: 0, stop: () => undefined };
    this.visitors.push(visitor);
    this.assignment.set(client.clientId, visitor.agent);
    this.watch(client, 'visitor');
    client.on('session', ({ event }) => {
      if (event !== 'agent-joined' || visitor.ready) return;
      visitor.ready = true;
      this.ready += 1;
      this.joinWait.add(now() - visitor.openedAt);
      this.onProgress();
    });
    client.on('send state', ({ fp, state, reason }) => {
      const sentAt = this.unacked.get(fp);
      if (sentAt === undefined) return;
      if (state === 'sent') this.ack.add(now() - sentAt);
      if (state === 'failed') this.refusals.add(`visitor send failed ${reason ?? ''}`.trim());
      if (state !== 'pending') this.unacked.delete(fp);
    });
    client.on('receipt', () => {
      this.receiptsBack += 1;
    });
    const t0 = now();
    const giveUp = (failed: boolean): void => {
      if (failed) this.failed += 1;
      else this.cutOff += 1;
      this.onProgress();
    };
    const result = await client.start().catch(() => null);
    if (!result?.session) return giveUp(true);
    const t1 = now();
    this.startup.add(t1 - t0);
    if (t1 >= deadline) return giveUp(false);
    const open = opened(client, deadline - t1);
    client.connect();
    const outcome = await open;
    if (outcome !== 'open') return giveUp(outcome === 'failed');
    this.opened += 1;
    visitor.openedAt = now();
    this.socketOpen.add(visitor.openedAt - t1);
    this.handshake.add(visitor.openedAt - t0);
    client.transferToHuman();
  }

  /** Every ready visitor sends `rate` texts per second for `durationMs`, evenly spread. */
  async measure(durationMs: number): Promise<void> {
    const period = 1000 / this.config.rate;
    this.windowStart = now();
    this.windowEnd = this.windowStart + durationMs;
    for (const visitor of this.visitors) {
      if (visitor.ready) visitor.stop = pace(this.windowStart, Math.random() * period, period, this.windowEnd, () => this.sendOne(visitor));
    }
    await sleep(durationMs);
    this.stopSending();
  }

  private sendOne(visitor: Visitor): void {
    const sentAt = now();
    const seq = visitor.seq++;
    try {
      const stored = visitor.client.sendText(`${TEXT_PREFIX}${visitor.index}#${seq}#${sentAt.toFixed(3)}`);
      this.outstanding.set(`${visitor.index}#${seq}`, sentAt);
      if (stored.fp) this.unacked.set(stored.fp, sentAt);
      this.sent += 1;
    } catch (error) {
      this.errors.add('visitor send threw', error instanceof Error ? error.message : String(error));
    }
  }

  private stopSending(): void {
    for (const visitor of this.visitors) visitor.stop();
  }

  /** Waits until every sent text is delivered and acknowledged, or `timeoutMs` passed. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = now() + timeoutMs;
    while ((this.outstanding.size > 0 || this.unacked.size > 0) && now() < deadline) await sleep(20);
  }

  /** Texts sent but never delivered / never acknowledged (after the drain). */
  get lost(): { undelivered: number; unacked: number } {
    return { undelivered: this.outstanding.size, unacked: this.unacked.size };
  }

  /** Connections open now. */
  held(): { visitors: number; agents: number } {
    const open = (list: { client: ImClient }[]): number => list.filter((x) => x.client.connectionState === 'open').length;
    return { visitors: open(this.visitors), agents: open(this.agents) };
  }

  /** Destroys every client (no reconnect, every timer and listener cleared). */
  destroy(): void {
    this.stopped = true;
    this.stopSending();
    for (const { client } of [...this.visitors, ...this.agents]) client.destroy();
  }
}
