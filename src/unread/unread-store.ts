/**
 * `client.unread`: unread counts per conversation, for `useSyncExternalStore`. The counting code
 * loads with the first subscriber (`unread-counter.ts`), so a page that shows no count never
 * downloads it.
 * @module
 */
import { lazy } from '../lazy.js';
import { Subscribable } from '../state/subscribable.js';
import type { UnreadCounter, UnreadCounterDeps } from './unread-counter.js';

/** The unread counts (`client.unread.getSnapshot()`). */
export interface UnreadSnapshot {
  /** Unread messages in every conversation together. */
  readonly total: number;
  /**
   * Unread messages per conversation, keyed by the other party's id: a visitor's agent or robot, an
   * agent's visitor (client id), or the group. Conversations with none are left out.
   */
  readonly byConversation: Readonly<Record<string, number>>;
}

const NONE: UnreadSnapshot = { total: 0, byConversation: {} };

/**
 * Unread counts per conversation (messages from the other side, robot answers included, not yet
 * read under the read-receipt rules of spec §4): a message that arrives while the page is hidden
 * counts until the page has been visible for the receipts' `autoReadDelay`, or until it (or a later
 * message of its conversation) is marked read. Derived from `client.messages` and the page
 * visibility; no polling.
 *
 * Counting starts with the first subscriber (its code loads then): what arrived before is taken
 * as read. `getSnapshot` returns the same object until a count changed.
 */
export class UnreadStore extends Subscribable {
  private counter: UnreadCounter | null = null;
  private destroyed = false;
  private readonly load: () => Promise<UnreadCounter>;

  /** @param deps - what the counter follows (the client builds it) @internal */
  constructor(deps: UnreadCounterDeps) {
    super();
    this.load = lazy(() =>
      import('./unread-counter.js').then(({ UnreadCounter }) => {
        const counter = new UnreadCounter(deps, () => this.notify());
        if (this.destroyed) counter.destroy();
        else this.notify();
        return (this.counter = counter);
      }),
    );
  }

  /** The counts (nothing unread until the counting code has loaded). Bound. */
  readonly getSnapshot = (): UnreadSnapshot => this.counter?.getSnapshot() ?? NONE;

  /**
   * The unread count of one conversation, or of all.
   * @param conversationId - the other party's id; omitted: every conversation
   */
  count(conversationId?: string): number {
    const snapshot = this.getSnapshot();
    return conversationId === undefined ? snapshot.total : (snapshot.byConversation[conversationId] ?? 0);
  }

  /** Stops counting. */
  destroy(): void {
    this.destroyed = true;
    this.counter?.destroy();
    this.clearListeners();
  }

  protected override onSubscribe(): void {
    if (!this.destroyed) void this.load().catch(() => undefined);
  }
}
