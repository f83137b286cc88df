/**
 * Which messages count as unread, and how many per conversation: pure functions over a message
 * list snapshot (the one rule of the unread room; {@link UnreadCounter} decides what was seen).
 * @module
 * @internal
 */
import type { ChatMessage } from '../messages/types.js';
import type { UnreadSnapshot } from './unread-store.js';

// This module imports nothing at run time from the SDK's entry: each such import would split a
// module of the entry into a chunk of its own and grow the start-up size (`npm run size`). The
// message types that count come in as an argument (the receipts' `RECEIPTABLE_TYPES`).

/** True for a truthy wire flag (`1`, `true`, `'1'`), as `flag` of the receipt rules reads it. */
function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** The snapshot with nothing unread. @internal */
export const NOTHING_UNREAD: UnreadSnapshot = Object.freeze({ total: 0, byConversation: Object.freeze({}) });

/**
 * The conversation an incoming message belongs to, keyed by the other party: the group for a group
 * message, else its sender (the agent or the robot for a visitor; the visitor for an agent).
 * @internal
 */
export function conversationOf(message: ChatMessage): string {
  return flag(message.isGroup) && typeof message.to === 'string' ? message.to : (message.from as string);
}

/**
 * Whether a message may count as unread for the user `selfId`: a text, image, file, video or
 * robot/agent text (types 100-103, 200, the types read receipts are for) with an `fp`, from someone
 * else, and addressed to the user (a group message, or `to` the user or nobody in particular).
 * Robot answers count. Without a user id the message's `to` is taken as the user, like the
 * receipt rules do.
 * @param types - the message types that count (the receipts' `RECEIPTABLE_TYPES`)
 * @internal
 */
export function countsForUser(message: ChatMessage, selfId: string | undefined, types: ReadonlySet<number>): boolean {
  if (!types.has(message.type) || typeof message.fp !== 'string' || message.fp === '') return false;
  const from = message.from;
  if (typeof from !== 'string' || from === '' || from === (selfId ?? message.to)) return false;
  const to = message.to;
  return flag(message.isGroup) || to === undefined || to === '' || to === selfId || selfId === undefined;
}

/**
 * Whether the user has read a message that counts (spec §4): `isRead` 1 (a receipt was sent by
 * read-on-scroll, or the server says so), or, for a group message, the user in its read list.
 * @internal
 */
export function isReadBy(message: ChatMessage, selfId: string | undefined): boolean {
  if (!flag(message.isGroup)) return message.isRead === 1;
  const list = Array.isArray(message.imGroupMsgReadList) ? message.imGroupMsgReadList : [];
  return selfId !== undefined && list.some((entry) => typeof entry === 'object' && entry !== null && entry.clientId === selfId);
}

/**
 * The unread counts of a message list (oldest first, as a `MessageList` snapshot): per
 * conversation, the messages that count (see {@link countsForUser}), that are `unseen`, and
 * that no read message of the same conversation follows (reading the latest reads the rest, as
 * a receipt for the latest of a hidden-time queue does).
 * @param messages - the list, oldest first
 * @param selfId - the user id
 * @param unseen - the fps that arrived while the page was hidden and were not seen since
 * @param types - the message types that count
 * @returns the counts, {@link NOTHING_UNREAD} when none
 * @internal
 */
export function countUnread(messages: readonly ChatMessage[], selfId: string | undefined, unseen: ReadonlySet<string>, types: ReadonlySet<number>): UnreadSnapshot {
  if (unseen.size === 0) return NOTHING_UNREAD;
  const counts: Record<string, number> = {};
  const readFrom = new Set<string>();
  let total = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as ChatMessage;
    if (!countsForUser(message, selfId, types)) continue;
    const conversation = conversationOf(message);
    if (readFrom.has(conversation)) continue;
    if (isReadBy(message, selfId)) readFrom.add(conversation);
    else if (unseen.has(message.fp as string)) {
      counts[conversation] = (counts[conversation] ?? 0) + 1;
      total += 1;
    }
  }
  return total === 0 ? NOTHING_UNREAD : Object.freeze({ total, byConversation: Object.freeze(counts) });
}

/** Whether two snapshots hold the same counts. @internal */
export function sameCounts(a: UnreadSnapshot, b: UnreadSnapshot): boolean {
  if (a.total !== b.total) return false;
  const keys = Object.keys(a.byConversation);
  return keys.length === Object.keys(b.byConversation).length && keys.every((k) => a.byConversation[k] === b.byConversation[k]);
}
