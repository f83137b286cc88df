/**
 * What the desk alerts about (live signals): a visitor newly in the queue, and new unread messages
 * in a conversation. {@link DeskAlerts} follows the desk's queue and the client's unread counts,
 * and hands each alert that opens a burst (see `alert-burst.ts`) to `alert`: the desk shows a
 * notification and plays the sound from it. No React, no DOM: tested with plain stores.
 * @module
 */
import type { AgentDeskSnapshot } from '@kefu-im/sdk/agent';
import type { UnreadSnapshot } from '@kefu-im/sdk';
import { addToBurst, NO_BURST, type BurstState } from './alert-burst.js';

/** A store the alerts follow. */
interface Readable<T> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): T;
}

/** One alert: a visitor waiting, or new messages of a conversation. */
export interface DeskAlert {
  /** A visitor newly in the queue, or new unread messages. */
  kind: 'visitor' | 'messages';
  /** The visitor's client id. */
  clientId: string;
  /** The visitor's display name (the client id when the desk does not know it). */
  name: string;
}

/** What {@link DeskAlerts} needs. */
export interface DeskAlertsOptions {
  /** The desk's queue and conversations. */
  queue: Readable<AgentDeskSnapshot>;
  /** The client's unread counts. */
  unread: Readable<UnreadSnapshot>;
  /** The time now, ms. */
  now(): number;
  /** Whether the tab is hidden now (alerts are only for a hidden tab). */
  hidden(): boolean;
  /** Told of the first alert of each burst while hidden. */
  alert(alert: DeskAlert): void;
}

/**
 * Follows the queue and the unread counts; while the tab is hidden, the first event of each burst
 * goes to `alert`, the rest of the burst is quiet; while visible nothing alerts, and coming back
 * ends the burst (the agent has seen it).
 */
export class DeskAlerts {
  private readonly options: DeskAlertsOptions;
  private readonly offs: (() => void)[];
  private waiting: ReadonlySet<string>;
  private unread: UnreadSnapshot;
  private burst: BurstState = NO_BURST;

  /** @param options - the stores, the clock, the visibility and the alert */
  constructor(options: DeskAlertsOptions) {
    this.options = options;
    this.waiting = idsOf(options.queue.getSnapshot());
    this.unread = options.unread.getSnapshot();
    this.offs = [options.queue.subscribe(() => this.onQueue()), options.unread.subscribe(() => this.onUnread())];
  }

  /** The tab became visible: the burst is over. */
  seen(): void {
    this.burst = NO_BURST;
  }

  /** Stops following the stores. */
  destroy(): void {
    for (const off of this.offs.splice(0)) off();
  }

  private onQueue(): void {
    const snapshot = this.options.queue.getSnapshot();
    const before = this.waiting;
    this.waiting = idsOf(snapshot);
    const arrived = snapshot.queue.find((entry) => !before.has(entry.clientId));
    if (arrived) this.event({ kind: 'visitor', clientId: arrived.clientId, name: arrived.name });
  }

  private onUnread(): void {
    const before = this.unread;
    const now = (this.unread = this.options.unread.getSnapshot());
    const risen = Object.keys(now.byConversation).find((id) => (now.byConversation[id] ?? 0) > (before.byConversation[id] ?? 0));
    if (risen === undefined) return;
    const session = this.options.queue.getSnapshot().sessions.find((s) => s.clientId === risen);
    this.event({ kind: 'messages', clientId: risen, name: session?.name ?? risen });
  }

  private event(alert: DeskAlert): void {
    if (!this.options.hidden()) {
      this.burst = NO_BURST;
      return;
    }
    const { state, opens } = addToBurst(this.burst, this.options.now());
    this.burst = state;
    if (opens) this.options.alert(alert);
  }
}

function idsOf(snapshot: AgentDeskSnapshot): ReadonlySet<string> {
  return new Set(snapshot.queue.map((entry) => entry.clientId));
}
