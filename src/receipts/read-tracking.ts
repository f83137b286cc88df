/**
 * Builds a client's page-visibility tracker and read-receipt manager from its options.
 * @module
 * @internal
 */
import { DEFAULT_RECEIPT_OPTIONS, type DocumentLike, type ReceiptOptions, type WindowLike } from '../options.js';
import type { TimerProvider } from '../timers.js';
import { ReceiptManager, type ReceiptSocket } from './receipt-manager.js';
import { VisibilityTracker } from './visibility.js';

/** What {@link createReadTracking} needs. @internal */
export interface ReadTrackingInput {
  receipts?: Partial<ReceiptOptions>;
  document: DocumentLike | null;
  window: WindowLike | null;
  timers: TimerProvider;
  socket: ReceiptSocket;
  selfId(): string | undefined;
}

/** The tracker and the receipt manager following it. @internal */
export function createReadTracking(input: ReadTrackingInput): { visibility: VisibilityTracker; receipts: ReceiptManager } {
  const options = { ...DEFAULT_RECEIPT_OPTIONS, ...input.receipts };
  const { timers } = input;
  const visibility = new VisibilityTracker({
    document: input.document,
    window: input.window,
    timers,
    debounceDelay: options.debounceDelay,
    stateValidationInterval: options.stateValidationInterval,
  });
  const receipts = new ReceiptManager(input.socket, {
    selfId: input.selfId,
    timers,
    tracker: visibility,
    batchSize: options.batchSize,
    autoReadDelay: options.autoReadDelay,
  });
  return { visibility, receipts };
}
