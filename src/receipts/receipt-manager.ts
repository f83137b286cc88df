/**
 * The read-receipt manager (spec §4 "Page visibility and read receipts"): acknowledges incoming
 * messages at once while the page is visible and queues them while it is hidden.
 * @module
 */
import { randomUuid } from '../crypto/random.js';
import type { ChatMessage } from '../messages/types.js';
import { DEFAULT_RECEIPT_OPTIONS } from '../options.js';
import { Subscribable } from '../state/subscribable.js';
import { Disposables } from '../timers.js';
import type { Disposer } from '../timers.js';
import { RECEIPTABLE_TYPES, buildReceipt, flag, isChatMessage, messageTime, needsReceipt } from './receipt.js';
import type { ReceiptManagerOptions, ReceiptOutcome, ReceiptSocket, ReceiptStatus, ReceiptVisibilitySource } from './receipt-types.js';

export { buildReceipt, messageTime, needsReceipt, toMillis } from './receipt.js';
export type { BuildReceiptOptions } from './receipt.js';
export type { ReceiptManagerOptions, ReceiptOutcome, ReceiptSocket, ReceiptStatus, ReceiptVisibilitySource } from './receipt-types.js';

/** The error thrown when a receipt manager is created without a socket (spec §5). */
export const SOCKET_REQUIRED_ERROR = '首次创建时必须提供 socket 实例';

/** How many acknowledged fps are remembered, so that a message is acknowledged once. @internal */
export const RECEIPTED_MEMORY = 1_000;

/** A message waiting in the hidden-time queue, with its time read once when queued. */
interface QueuedMessage {
  message: ChatMessage;
  /** `messageTime(message)`, or `-Infinity` when it has none. */
  time: number;
}

/** Whether two statuses show the same (the log compared by its length and last entry). */
function sameStatus(a: ReceiptStatus, b: ReceiptStatus): boolean {
  const [la, lb] = [a.log[a.log.length - 1], b.log[b.log.length - 1]];
  return (
    a.visible === b.visible && a.queued === b.queued && a.sent === b.sent && a.failed === b.failed &&
    a.log.length === b.log.length &&
    la?.timestamp === lb?.timestamp &&
    la?.newState === lb?.newState
  );
}

function positiveInteger(name: string, value: number): number {
  if (Number.isInteger(value) && value >= 1) return value;
  throw new RangeError(`ReceiptManager: ${name} must be a positive integer, got ${String(value)}.`);
}

/**
 * Sends read receipts (type 104) for incoming messages (spec §4). One instance per client.
 *
 * - A message that needs a receipt (see `needsReceipt`) is acknowledged at once while the
 *   page is visible, and queued while it is hidden.
 * - When the page becomes visible again and stays visible for `autoReadDelay` ms, the queue is
 *   processed: a single queued message is acknowledged; of several, only the one with the latest
 *   time (`times` or `createTime`) is. Then the queue is cleared.
 * - A receipt whose send returns false or throws is skipped silently and counted as failed.
 * - Group messages are not acknowledged here: use {@link ReceiptManager.markRead} from the
 *   read-on-scroll helper.
 * - For `useSyncExternalStore`: {@link ReceiptManager.subscribe} and
 *   {@link ReceiptManager.getSnapshot} (the {@link ReceiptStatus}, a new object only after a change,
 *   including a queue flushed later by the manager's own timer).
 *
 * **Deviation:** the spec makes the receipt manager a singleton (one per page, created with the
 * first socket). Here each client owns one (`client.receipts`), built with its socket, timers and
 * visibility tracker: two clients on one page (the visitor's chat and a desk, two conversations,
 * tests) each acknowledge their own messages on their own socket, and `destroy()` leaves nothing
 * behind; a module-level singleton would share one socket and one queue between them. The spec's
 * rule that it needs a socket when first created stays: without one the constructor throws
 * {@link SOCKET_REQUIRED_ERROR}.
 */
export class ReceiptManager extends Subscribable {
  private readonly socket: ReceiptSocket;
  private readonly selfId: () => string | undefined;
  private readonly createId: () => string;
  private readonly visibleNow: () => boolean;
  private readonly tracker: ReceiptVisibilitySource | null;
  private readonly batchSize: number;
  /** How long the page must stay visible before the hidden-time queue is acknowledged, ms. */
  readonly autoReadDelay: number;
  private readonly disposables: Disposables;
  private readonly receipted = new Set<string>();
  /**
   * The fps of `receipted` in the order acknowledged, a ring of {@link RECEIPTED_MEMORY}: the
   * oldest is forgotten in O(1) (a Set's first value costs a walk over its deleted slots).
   */
  private readonly receiptedRing: string[] = [];
  private ringAt = 0;
  /**
   * Hidden-time messages, each with its time read once (`-Infinity` when it has none), oldest
   * first; equal times in the order they were queued.
   */
  private queue: QueuedMessage[] = [];
  private cancelFlush: Disposer | null = null;
  private sentCount = 0;
  private failedCount = 0;
  private destroyed = false;
  private snapshot: ReceiptStatus | null = null;

  /**
   * @param socket - where receipts are sent; required
   * @param options - user id, timers and the spec's §9 settings
   * @throws Error {@link SOCKET_REQUIRED_ERROR} when `socket` is missing
   * @throws TypeError or RangeError on invalid options
   */
  constructor(socket: ReceiptSocket | undefined | null, options: ReceiptManagerOptions) {
    super(options?.onListenerError ?? (() => undefined));
    if (!socket || typeof socket.send !== 'function') throw new Error(SOCKET_REQUIRED_ERROR);
    if (!options || typeof options.selfId !== 'function') {
      throw new TypeError('ReceiptManager: options.selfId must be a function returning the user id.');
    }
    if (typeof options.timers?.setTimeout !== 'function') {
      throw new TypeError('ReceiptManager: options.timers (a TimerProvider) is required.');
    }
    this.socket = socket;
    this.selfId = options.selfId;
    this.createId = options.createId ?? randomUuid;
    this.tracker = options.tracker ?? null;
    const tracker = this.tracker;
    this.visibleNow = options.isVisible ?? (tracker ? () => tracker.getSnapshot() : () => true);
    this.batchSize = positiveInteger('batchSize', options.batchSize ?? DEFAULT_RECEIPT_OPTIONS.batchSize);
    const delay = options.autoReadDelay ?? DEFAULT_RECEIPT_OPTIONS.autoReadDelay;
    if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0) {
      throw new RangeError(`ReceiptManager: autoReadDelay must be a non-negative number of ms, got ${String(delay)}.`);
    }
    this.autoReadDelay = delay;
    this.disposables = new Disposables(options.timers);
    if (tracker) {
      this.disposables.add(
        tracker.subscribe(({ visible }) => {
          this.applyVisible(visible);
          this.changed(true);
        }),
      );
    }
  }

  /** The status for `useSyncExternalStore`: the same object until something changed. */
  getSnapshot(): ReceiptStatus {
    this.snapshot ??= this.getStatus();
    return this.snapshot;
  }

  /**
   * Re-reads the status and notifies the subscribers when it changed. The tracker's log changes
   * only with a change the tracker tells its subscribers of (`trackerChanged`); otherwise the
   * counters decide, without building a status (this runs for every incoming message); with no
   * subscriber, a change only drops the held status.
   * @param trackerChanged - the tracker just told of a change (its log may have grown)
   */
  private changed(trackerChanged = false): void {
    if (this.destroyed) return;
    const held = this.snapshot;
    if (
      held &&
      !trackerChanged &&
      held.queued === this.queue.length &&
      held.sent === this.sentCount &&
      held.failed === this.failedCount &&
      held.visible === this.isVisible()
    ) {
      return;
    }
    if (!trackerChanged && !this.hasListeners()) {
      // Nobody to tell: the next getSnapshot() builds the status (not one per receipt sent).
      this.snapshot = null;
      return;
    }
    const next = this.getStatus();
    if (this.snapshot && sameStatus(this.snapshot, next)) return;
    this.snapshot = next;
    this.notify();
  }

  /**
   * Handles an incoming message: acknowledges it now when visible, queues it when hidden.
   * Never throws.
   * @param message - a decoded incoming message
   * @returns what happened
   */
  handleIncoming(message: ChatMessage): ReceiptOutcome {
    const outcome = this.receive(message);
    this.changed();
    return outcome;
  }

  private receive(message: ChatMessage): ReceiptOutcome {
    if (this.destroyed || !needsReceipt(message, this.selfId())) return 'ignored';
    const fp = message.fp as string;
    if (this.receipted.has(fp)) return 'ignored';
    if (!this.isVisible()) {
      this.enqueue(message);
      return 'queued';
    }
    if (this.queue.length === 0) return this.send(message);
    // Visible while a return-to-visible flush is pending: the latest of all wins now.
    this.enqueue(message);
    return this.flush(fp);
  }

  /**
   * Tells the manager the page visibility changed. Becoming visible with a non-empty queue
   * acknowledges the latest queued message after `autoReadDelay` ms (cancelled if hidden again).
   * @param visible - the new visibility
   */
  setVisible(visible: boolean): void {
    this.applyVisible(visible);
    this.changed();
  }

  private applyVisible(visible: boolean): void {
    if (this.destroyed) return;
    if (!visible) {
      this.cancelFlush?.();
      this.cancelFlush = null;
      return;
    }
    if (this.queue.length === 0 || this.cancelFlush) return;
    if (this.autoReadDelay === 0) {
      this.flush();
      return;
    }
    this.cancelFlush = this.disposables.timeout(() => {
      this.cancelFlush = null;
      if (this.isVisible()) this.flush();
      this.changed();
    }, this.autoReadDelay);
  }

  /** Alias of {@link ReceiptManager.setVisible}, shaped as a visibility listener. */
  onVisibilityChange = (ctx: { visible: boolean }): void => {
    this.setVisible(ctx.visible);
  };

  /**
   * Acknowledges a message now (read on scroll), unless it was already acknowledged. Group
   * messages are accepted here; messages from the current user, from the robot, without an `fp`
   * or of a type that is never acknowledged are ignored. Never throws.
   * @param message - the message that became read
   * @returns what happened
   */
  markRead(message: ChatMessage): ReceiptOutcome {
    const outcome = this.read(message);
    this.changed();
    return outcome;
  }

  private read(message: ChatMessage): ReceiptOutcome {
    if (this.destroyed || !isChatMessage(message) || !RECEIPTABLE_TYPES.has(message.type)) return 'ignored';
    const fp = message.fp;
    if (typeof fp !== 'string' || fp === '' || this.receipted.has(fp)) return 'ignored';
    const self = this.selfId() ?? (flag(message.isGroup) ? undefined : message.to);
    if (typeof message.from !== 'string' || message.from === '' || message.from === self || flag(message.robot)) {
      return 'ignored';
    }
    this.queue = this.queue.filter((q) => q.message.fp !== fp);
    return this.send(message);
  }

  /** Counters, queue size and the last 10 visibility changes. */
  getStatus(): ReceiptStatus {
    return {
      visible: this.isVisible(),
      queued: this.queue.length,
      sent: this.sentCount,
      failed: this.failedCount,
      log: this.tracker ? this.tracker.getStatus().log : [],
    };
  }

  /** Drops the queue, cancels the pending flush and stops following the tracker. */
  destroy(): void {
    this.destroyed = true;
    this.queue = [];
    this.cancelFlush = null;
    this.disposables.dispose();
    this.clearListeners();
  }

  private isVisible(): boolean {
    try {
      return this.visibleNow() !== false;
    } catch {
      return true;
    }
  }

  /**
   * Adds to the queue (once per fp), keeping at most `batchSize` messages: the latest by time
   * (of equal times, the earliest queued leaves first). Each message's time is read once, here;
   * the queue stays sorted, so a message later than the rest (the usual case) is appended and the
   * oldest is the first.
   */
  private enqueue(message: ChatMessage): void {
    const queue = this.queue;
    const fp = message.fp;
    for (const q of queue) if (q.message.fp === fp) return;
    const time = messageTime(message) ?? -Infinity;
    let at = queue.length;
    while (at > 0 && (queue[at - 1] as QueuedMessage).time > time) at--;
    if (at === 0 && queue.length >= this.batchSize) return; // older than all it would have to join
    if (at === queue.length) queue.push({ message, time });
    else queue.splice(at, 0, { message, time });
    if (queue.length > this.batchSize) queue.shift();
  }

  /**
   * Acknowledges only the queued message with the latest time (the later-queued on a tie) of each
   * sender, then clears the queue: a visitor's one conversation gets one receipt, an agent's
   * conversation with each visitor one too.
   * @param fp - when given, the outcome for this fp: `ignored` if another message was acknowledged
   */
  private flush(fp?: string): ReceiptOutcome {
    this.cancelFlush?.();
    this.cancelFlush = null;
    const queue = this.queue;
    this.queue = [];
    const latest = new Map<unknown, ChatMessage>(); // sorted: the last of each sender is its latest
    for (const q of queue) latest.set(q.message.from, q.message);
    const last = queue[queue.length - 1]?.message;
    let outcome: ReceiptOutcome = 'ignored';
    for (const message of latest.values()) {
      const sent = this.send(message);
      if (fp === undefined ? message === last : message.fp === fp) outcome = sent;
    }
    return outcome;
  }

  /** Builds and sends a receipt; a false or throwing send is counted and swallowed. */
  private send(message: ChatMessage): ReceiptOutcome {
    try {
      const readerId = this.selfId();
      const receipt = buildReceipt(message, this.createId, readerId === undefined ? {} : { readerId });
      if (this.socket.send(receipt) === false) throw new Error('socket refused the receipt');
    } catch {
      this.failedCount += 1;
      return 'failed';
    }
    this.sentCount += 1;
    this.remember(message.fp as string);
    return 'sent';
  }

  /** Remembers an acknowledged fp, forgetting the oldest beyond {@link RECEIPTED_MEMORY}. */
  private remember(fp: string): void {
    const forgotten = this.receiptedRing[this.ringAt];
    if (forgotten !== undefined) this.receipted.delete(forgotten);
    this.receiptedRing[this.ringAt] = fp;
    this.ringAt = (this.ringAt + 1) % RECEIPTED_MEMORY;
    this.receipted.add(fp);
  }
}
