/**
 * Message classification: which types are conversation rows, and a message's time. Apart from the
 * `dataContent` readers of `content.ts`, which start-up does not need.
 * @module
 */
import { toMillis } from './time.js';
import { MessageType, type ChatMessage } from './types.js';

/** Types that are never shown as a conversation row: receipts, typing, control, forms and refusals. */
const NOT_CHAT: ReadonlySet<number> = new Set([
  MessageType.Receipt,
  MessageType.Typing,
  MessageType.Suggestions,
  MessageType.SessionEvent,
  MessageType.TransferToHuman,
  MessageType.EndConversation,
  MessageType.AgentQueue,
  MessageType.AgentAccept,
  MessageType.AgentLogout,
  MessageType.Availability,
  MessageType.AgentStatus,
  MessageType.AgentTransfer,
  MessageType.Complaint,
  MessageType.LeaveMessage,
  MessageType.Refusal,
]);

/**
 * Whether messages of this type are shown in a conversation: text, image, file and video
 * (100-103), robot/agent text (200), and any unknown type from 100 up (protocol §5: unknown types
 * are passed through, never dropped) except receipts (104), suggestions (201), session events
 * (300), transfer/end requests (301, 302), the agent queue (310, 311), the complaint and
 * leave-message forms (400, 401: known project types, sent with createMsg, not conversation rows)
 * and refusals (500). Control types below 100 (heartbeat, welcome) are not chat.
 */
export function isChatType(type: number): boolean {
  return typeof type === 'number' && Number.isInteger(type) && type >= 100 && !NOT_CHAT.has(type);
}

/**
 * A message's time in ms: the server's `createTime`, else the sender's `times`.
 * @returns the time, or `undefined` when neither is readable
 */
export function messageTimeMs(message: Pick<ChatMessage, 'createTime' | 'times'>): number | undefined {
  return toMillis(message?.createTime) ?? toMillis(message?.times);
}
