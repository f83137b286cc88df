/**
 * Complaints (type 400) and left messages (type 401), sent with `createMsg` (docs/protocol.md §6).
 * @module
 */
import { MessageType, type ChatMessage, type ImClient } from '@kefu-im/sdk';
import { randomUuid } from '@kefu-im/sdk/protocol';
import type { ConversationInfo } from '../chat/conversation.js';

/** The content of a complaint (docs/protocol.md §6). */
export interface ComplaintContent {
  /** Member account or phone. */
  account: string;
  /** What happened. */
  description: string;
  /** When it happened, ms. */
  occurredAt: number;
  /** Uploaded image URLs (at most 5). */
  images: string[];
  /** An uploaded video URL (at most 1). */
  video?: string;
}

/** The content of a left message (docs/protocol.md §6). */
export interface LeaveMessageContent {
  /** How to reach the visitor. */
  contact: string;
  /** The message. */
  content: string;
  /** The visitor's name. */
  name?: string;
}

/**
 * The `createMsg` payload of a complaint or a left message.
 * @param client - the visitor's client
 * @param info - the conversation
 * @param type - 400 or 401
 * @param content - the content object
 */
export function recordMessage(
  client: ImClient,
  info: Pick<ConversationInfo, 'mchId' | 'platformId'>,
  type: typeof MessageType.Complaint | typeof MessageType.LeaveMessage,
  content: ComplaintContent | LeaveMessageContent,
): ChatMessage {
  return {
    type,
    from: client.userId ?? client.clientId,
    to: 'system',
    fp: randomUuid(),
    mchId: info.mchId,
    platformId: info.platformId,
    times: client.clock.now(),
    dataContent: JSON.stringify(content),
  };
}

/**
 * Milliseconds of a `datetime-local` value (local time), or NaN when it is not one.
 * @param value - e.g. `2024-05-01T13:45`
 */
export function localDateTimeMs(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return Number.NaN;
  return new Date(value).getTime();
}

/**
 * A `datetime-local` value for a time (local, minutes).
 * @param ms - the time
 */
export function toLocalDateTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
