/**
 * Queue position updates (`queued` session events) for waiting visitors: pushed live, never
 * stored (a position is only true now; history would replay stale ones), and coalesced so that
 * each visitor hears at most about one per `QUEUE_UPDATE_MS`, the latest position winning. When N
 * visitors leave a queue of N in a burst, the queue is read once per flush and each remaining
 * visitor gets one frame per flush: O(N) frames, not N²/2.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { estimatedWait } from '../services/availability.js';
import type { ServiceSession } from '../store/types.js';
import { SYSTEM_ID, type ChatContext } from './context.js';
import { T, type WireMessage } from './wire.js';

/**
 * The `queued` session event of a session at `position` (1-based), as a live wire message;
 * `etaMs` is the estimated wait (see `services/availability.ts`), null when unknown.
 */
export function queuedEvent(session: ServiceSession, position: number, busy: boolean, etaMs: number | null = null): WireMessage {
  return {
    type: T.SessionEvent,
    from: SYSTEM_ID,
    to: session.clientId,
    fp: randomUUID(),
    mchId: session.mchId,
    createTime: Date.now(),
    dataContent: JSON.stringify({ event: 'queued', sessionId: session.sessionId, position, busy, etaMs }),
    isRead: 0,
    robot: 0,
    isGroup: 0,
  };
}

/** Sends queued visitors their position and busy flag when they changed, throttled. */
export class QueueUpdates {
  /** What each queued session was last told (`position:busy:eta`), to send only changes. */
  private readonly told = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastFlush = Number.NEGATIVE_INFINITY;

  /**
   * @param ctx - the chat services' shared state
   * @param intervalMs - at most one flush per this many ms (0: one per event-loop turn)
   * @param busy - whether no agent of the merchant is online
   * @param onError - where a failed flush is reported (the store did not answer)
   * @param waitPerPlace - the estimated wait of one queue place (ms), null when unknown
   */
  constructor(
    private readonly ctx: ChatContext,
    private readonly intervalMs: number,
    private readonly busy: (mchId: string) => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
    private readonly waitPerPlace: () => Promise<number | null> = async () => null,
  ) {}

  /** Tells one visitor where it stands now (joining the queue, a reconnect, triggerUpdate). */
  async tellNow(session: ServiceSession): Promise<void> {
    const position = await this.positionOf(session.sessionId);
    if (position === 0) return;
    const busy = await this.busy(session.mchId);
    const eta = estimatedWait(await this.waitPerPlace(), position);
    this.told.set(session.sessionId, `${position}:${busy}:${eta}`);
    this.send(session, position, busy, eta);
  }

  /** The session left the queue (accepted, ended): forget what it was told. */
  forget(sessionId: string): void {
    this.told.delete(sessionId);
  }

  /** The queue or the busy flag changed: tell every waiting visitor at the next flush. */
  changed(): void {
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(this.onError);
    }, wait);
  }

  /** Stops a pending flush (server shutdown). */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The 1-based position of a queued session in its merchant's queue, 0 when not queued. */
  async positionOf(sessionId: string): Promise<number> {
    const queue = await this.ctx.store.chat.queue();
    const session = queue.find((s) => s.sessionId === sessionId);
    return session ? merchantPosition(queue, session) : 0;
  }

  private async flush(): Promise<void> {
    this.lastFlush = Date.now();
    const queue = await this.ctx.store.chat.queue();
    const perPlace = queue.length > 0 ? await this.waitPerPlace() : null; // one read of the latest accepts per flush
    const busy = new Map<string, boolean>(); // per merchant: each is asked once per flush
    const places = new Map<string, number>();
    const waiting = new Set<string>();
    for (const session of queue) {
      waiting.add(session.sessionId);
      const place = (places.get(session.mchId) ?? 0) + 1;
      places.set(session.mchId, place);
      if (!busy.has(session.mchId)) busy.set(session.mchId, await this.busy(session.mchId));
      const isBusy = busy.get(session.mchId) === true;
      const eta = estimatedWait(perPlace, place);
      const key = `${place}:${isBusy}:${eta}`;
      if (this.told.get(session.sessionId) === key) continue;
      this.told.set(session.sessionId, key);
      this.send(session, place, isBusy, eta);
    }
    for (const sessionId of this.told.keys()) if (!waiting.has(sessionId)) this.told.delete(sessionId);
  }

  private send(session: ServiceSession, position: number, busy: boolean, etaMs: number | null): void {
    this.ctx.hub.sendTo(session.clientId, queuedEvent(session, position, busy, etaMs));
  }
}

/** The 1-based place of a queued session among those queued with its merchant (only its agents serve them). */
export function merchantPosition(queue: readonly ServiceSession[], session: ServiceSession): number {
  let place = 0;
  for (const s of queue) {
    if (s.mchId === session.mchId) place += 1;
    if (s.sessionId === session.sessionId) return place;
  }
  return 0;
}
