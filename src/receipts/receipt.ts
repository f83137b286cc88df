/**
 * The read-receipt message (spec §3 "Read-receipt message") and the rules for which messages
 * get one: pure functions.
 * @module
 */
import { MessageType } from '../messages/types.js';
import type { ChatMessage } from '../messages/types.js';
import { toMillis } from '../messages/time.js';

/**
 * Message types that are acknowledged with a read receipt: text, image, file, video and
 * robot/agent text. Heartbeats, receipts, suggestions, session events and refusals are not.
 * @internal
 */
export const RECEIPTABLE_TYPES: ReadonlySet<number> = new Set<number>([
  MessageType.Text,
  MessageType.Image,
  MessageType.File,
  MessageType.Video,
  MessageType.RobotText,
]);

// The SDK's one time parser (was a second, looser copy here).
export { toMillis } from '../messages/time.js';

/**
 * The time of a message in ms: `times`, else `createTime`.
 * @param message - a chat message
 * @returns ms since the epoch, or `undefined` when neither field holds a time
 */
export function messageTime(message: ChatMessage): number | undefined {
  return toMillis(message.times) ?? toMillis(message.createTime);
}

/** True for a truthy wire flag (`1`, `true`, `'1'`). @internal */
export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** True when `value` looks like a chat message (an object with a numeric `type`). @internal */
export function isChatMessage(value: unknown): value is ChatMessage {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'number';
}

/**
 * Whether an incoming message gets a read receipt from the receipt manager: a text, image, file,
 * video or robot/agent text message (types 100-103, 200) with an `fp`, sent by someone else, not
 * yet read (`isRead !== 1`), not from the robot and not a group message. Group messages are read
 * through the read-on-scroll helper instead (their read list is per member).
 * @param message - the incoming message
 * @param selfId - the current user id; when unknown, the message's `to` is taken as the user
 */
export function needsReceipt(message: ChatMessage, selfId: string | undefined): boolean {
  if (!isChatMessage(message) || !RECEIPTABLE_TYPES.has(message.type)) return false;
  if (typeof message.fp !== 'string' || message.fp === '') return false;
  const self = selfId ?? message.to;
  if (typeof message.from !== 'string' || message.from === '' || message.from === self) return false;
  if (message.isRead === 1) return false;
  return !flag(message.robot) && !flag(message.isGroup);
}

/** Options of {@link buildReceipt}. */
export interface BuildReceiptOptions {
  /**
   * The reader's user id. Used as `from` for group messages, whose `to` is the group id rather
   * than the reader; one-to-one receipts take `from` from the swapped `to`.
   */
  readerId?: string;
}

/**
 * Builds the read receipt of a message (spec §3): `from`/`to`, `fn`/`tn` and `fa`/`ta` swapped,
 * `dataContent` = the original `fp`, `mchId` kept, `fp` = a new id, `type` = 104 and `cm` = the
 * original message time in ms (left out when the message carries no readable time).
 * @param message - the message that was read
 * @param createId - draws the new `fp` (a random UUID)
 * @param options - the reader id for group messages
 * @returns the receipt to send
 * @throws TypeError when the message has no `fp` or `createId` does not return a string
 */
export function buildReceipt(message: ChatMessage, createId: () => string, options: BuildReceiptOptions = {}): ChatMessage {
  if (!isChatMessage(message)) throw new TypeError('buildReceipt: expected a chat message (an object with a numeric type).');
  if (typeof message.fp !== 'string' || message.fp === '') {
    throw new TypeError('buildReceipt: the message has no fp, so it cannot be acknowledged.');
  }
  const fp = createId();
  if (typeof fp !== 'string' || fp === '') throw new TypeError('buildReceipt: createId() must return a non-empty string.');
  const receipt: ChatMessage = { type: MessageType.Receipt, dataContent: message.fp, fp };
  const group = flag(message.isGroup);
  const from = group && options.readerId !== undefined ? options.readerId : message.to;
  if (from !== undefined) receipt.from = from;
  if (message.from !== undefined) receipt.to = message.from;
  if (message.tn !== undefined) receipt.fn = message.tn;
  if (message.fn !== undefined) receipt.tn = message.fn;
  if (message.ta !== undefined) receipt.fa = message.ta;
  if (message.fa !== undefined) receipt.ta = message.fa;
  if (message.mchId !== undefined) receipt.mchId = message.mchId;
  const cm = messageTime(message);
  if (cm !== undefined) receipt.cm = cm;
  return receipt;
}
