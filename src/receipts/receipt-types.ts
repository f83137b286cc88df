/**
 * The receipt manager's shapes: the socket it sends through, the visibility source it follows,
 * its options, what it did with a message and its status. Kept apart from `receipt-manager.ts`
 * (which re-exports them); types only, so they cost the bundle nothing.
 * @module
 */
import type { ChatMessage } from '../messages/types.js';
import type { TimerProvider } from '../timers.js';
import type { VisibilityListener, VisibilityLogEntry, VisibilityStatus } from './visibility.js';

/** What the manager sends receipts through. */
export interface ReceiptSocket {
  /**
   * Sends a message.
   * @returns false when it could not be sent (e.g. the socket is not open)
   */
  send(message: ChatMessage): boolean;
}

/** The part of a {@link VisibilityTracker} the manager uses. */
export interface ReceiptVisibilitySource {
  /** Listens for visibility changes. */
  subscribe(listener: VisibilityListener): () => void;
  /** The current visibility. */
  getSnapshot(): boolean;
  /** The visibility log. */
  getStatus(): VisibilityStatus;
}

/** Options of {@link ReceiptManager}. */
export interface ReceiptManagerOptions {
  /** The current user id (the receipt's `from`); when unknown, an incoming message's `to` is used. */
  selfId: () => string | undefined;
  /** Timer functions (looked up at call time by the provider). */
  timers: TimerProvider;
  /** Draws the new `fp` of each receipt; defaults to a random UUID. */
  createId?: () => string;
  /**
   * Whether the page is visible now. Defaults to the tracker's snapshot, else always visible.
   */
  isVisible?: () => boolean;
  /**
   * A visibility tracker: the manager follows its changes (as if {@link ReceiptManager.setVisible}
   * were called) and shows its log in {@link ReceiptManager.getStatus}.
   */
  tracker?: ReceiptVisibilitySource | null;
  /** How many hidden-time messages the queue keeps (the latest by time), default 10. */
  batchSize?: number;
  /** How long the page must stay visible before the queue is acknowledged, ms (default 1000). */
  autoReadDelay?: number;
  /** Receives the exception of a throwing subscriber (default: dropped; the manager never throws). */
  onListenerError?: (error: unknown) => void;
}

/** What happened to a message given to the manager. */
export type ReceiptOutcome =
  /** A receipt was sent. */
  | 'sent'
  /** Queued until the page is visible again. */
  | 'queued'
  /** The receipt could not be sent (skipped silently, counted in `failed`). */
  | 'failed'
  /** Needs no receipt, was already acknowledged, or was superseded by a later message. */
  | 'ignored';

/** What {@link ReceiptManager.getStatus} returns. */
export interface ReceiptStatus {
  /** Whether the page is visible now. */
  visible: boolean;
  /** Messages waiting for the page to become visible. */
  queued: number;
  /** Receipts sent. */
  sent: number;
  /** Receipts whose send returned false or threw. */
  failed: number;
  /** The last 10 visibility changes (empty without a tracker). */
  log: VisibilityLogEntry[];
}
