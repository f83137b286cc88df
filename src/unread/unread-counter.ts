/**
 * The unread counter (loaded with the first subscriber of `client.unread`): follows the message
 * list and the page visibility the read receipts follow, and counts per conversation what arrived
 * while the page was hidden and has not been read since.
 * @module
 * @internal
 */
import type { ChatMessage } from '../messages/types.js';
import type { TimerHandle, TimerProvider } from '../timers.js';
import type { UnreadSnapshot } from './unread-store.js';
import { countsForUser, countUnread, NOTHING_UNREAD, sameCounts } from './unread-rules.js';

// Only type imports from the SDK's entry (see unread-rules.ts): what is shared comes in `deps`.

/** What the counter reads. @internal */
export interface UnreadCounterDeps {
  /** The client's message list (`subscribe`/`getSnapshot`, oldest first). */
  messages: { subscribe(listener: () => void): () => void; getSnapshot(): readonly ChatMessage[] };
  /** The visibility tracker the read receipts follow. */
  visibility: { subscribe(listener: (ctx: { visible: boolean }) => void): () => void; getSnapshot(): boolean };
  /** How long the page must stay visible before what arrived while hidden is read, ms (the receipt manager's `autoReadDelay`). */
  autoReadDelay: number;
  /** The message types that count (the receipts' `RECEIPTABLE_TYPES`). */
  types: ReadonlySet<number>;
  /** The user id, once known. */
  selfId(): string | undefined;
  /** Timer functions. */
  timers: TimerProvider;
}

/**
 * Counts unread messages with the visibility rules of the read receipts (spec §4):
 *
 * - A message that counts (see `countsForUser`: from the other side, robot answers included) and
 *   arrives while the page is hidden is unseen.
 * - Once the page has stayed visible for `autoReadDelay` ms (when the receipt manager acknowledges
 *   its hidden-time queue), everything unseen is read; so is it when a message that counts arrives
 *   while the page is visible (the receipt manager then acknowledges the latest of all at once).
 * - A message marked read (`isRead` 1: read on scroll, or read by the server) is read, and so is
 *   every earlier one of its conversation.
 *
 * What arrived while visible is read at once and never counts; the counts are taken from the
 * message list each time, never kept apart from it.
 * @internal
 */
export class UnreadCounter {
  private readonly deps: UnreadCounterDeps;
  private readonly onChange: () => void;
  private readonly offs: (() => void)[];
  /** The fps held when the page was last seen (kept while hidden or while something is unseen). */
  private known: Set<string> | null = null;
  private readonly unseen = new Set<string>();
  private readTimer: TimerHandle | null = null;
  private snapshot: UnreadSnapshot = NOTHING_UNREAD;

  /**
   * @param deps - the message list, the visibility, the delay, the user id and timers
   * @param onChange - told after every change of the counts
   */
  constructor(deps: UnreadCounterDeps, onChange: () => void) {
    this.deps = deps;
    this.onChange = onChange;
    this.offs = [deps.messages.subscribe(() => this.onMessages()), deps.visibility.subscribe(({ visible }) => this.onVisibility(visible))];
    if (!deps.visibility.getSnapshot()) this.onVisibility(false);
  }

  /** The counts: the same object until a count changed. */
  getSnapshot(): UnreadSnapshot {
    return this.snapshot;
  }

  /** Stops following the list and the visibility. */
  destroy(): void {
    this.cancelRead();
    for (const off of this.offs.splice(0)) off();
  }

  private onVisibility(visible: boolean): void {
    this.cancelRead();
    if (!visible) {
      this.known ??= this.fpsHeld();
      return;
    }
    if (this.unseen.size === 0) {
      this.known = null;
      return;
    }
    this.readTimer = this.deps.timers.setTimeout(() => {
      this.readTimer = null;
      if (this.deps.visibility.getSnapshot()) this.readAll();
    }, this.deps.autoReadDelay);
  }

  private onMessages(): void {
    const known = this.known;
    if (known) {
      const { selfId, types, visibility } = this.deps;
      const self = selfId();
      let arrived = false;
      for (const message of this.deps.messages.getSnapshot()) {
        const fp = message.fp;
        if (typeof fp !== 'string' || known.has(fp)) continue;
        known.add(fp);
        if (!countsForUser(message, self, types)) continue;
        this.unseen.add(fp);
        arrived = true;
      }
      if (arrived && visibility.getSnapshot()) return this.readAll();
    }
    this.recount();
  }

  /** Everything unseen is read now. */
  private readAll(): void {
    this.unseen.clear();
    this.cancelRead();
    this.known = this.deps.visibility.getSnapshot() ? null : this.fpsHeld();
    this.recount();
  }

  private cancelRead(): void {
    if (this.readTimer !== null) this.deps.timers.clearTimeout(this.readTimer);
    this.readTimer = null;
  }

  private fpsHeld(): Set<string> {
    const fps = new Set<string>();
    for (const message of this.deps.messages.getSnapshot()) if (typeof message.fp === 'string') fps.add(message.fp);
    return fps;
  }

  private recount(): void {
    const { messages, selfId, types } = this.deps;
    const next = countUnread(messages.getSnapshot(), selfId(), this.unseen, types);
    if (sameCounts(next, this.snapshot)) return;
    this.snapshot = next;
    this.onChange();
  }
}
