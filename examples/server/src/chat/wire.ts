/**
 * Messages as they travel on the wire (protocol §4): the server's own definition, independent of
 * the SDK's types.
 * @module
 */

import type { MessageRecord } from '../store/types.js';

/** An entry of a group message's read list. */
export interface ReadEntry {
  /** Who read it. */
  clientId: string;
  /** When (ms). */
  readAt: number;
}

/** A message on the wire. `dataContent` is always a string. */
export interface WireMessage {
  /** Message type (protocol §5, docs/protocol.md §6). */
  type: number;
  /** Sender id. */
  from?: string;
  /** Recipient id (user or group). */
  to?: string;
  /** Sender name. */
  fn?: string;
  /** Recipient name. */
  tn?: string;
  /** Sender avatar. */
  fa?: string;
  /** Recipient avatar. */
  ta?: string;
  /** Fingerprint. */
  fp?: string;
  /** Merchant id. */
  mchId?: string;
  /** Server acceptance time (ms). */
  createTime?: number;
  /** Content (JSON text where it carries structure). */
  dataContent?: string;
  /** 1 once read. */
  isRead?: number;
  /** 1 for the robot. */
  robot?: number;
  /** 1 for group messages. */
  isGroup?: number;
  /** Server time (heartbeat replies and welcome). */
  sm?: number;
  /** The read message's time (receipts). */
  cm?: number;
  /** Group read list. */
  imGroupMsgReadList?: ReadEntry[];
  /** The per-conversation sequence of a stored message (docs/protocol.md §4). */
  seq?: number;
  /** The key of a server-made text a client may show in its own language (docs/protocol.md "Text keys"). */
  textKey?: string;
  /** Unknown fields are kept. */
  [key: string]: unknown;
}

/** Message types the server knows (protocol §5 and docs/protocol.md §6). */
export const T = {
  Heartbeat: 1,
  HeartbeatReply: 51,
  Welcome: 60,
  Text: 100,
  Image: 101,
  File: 102,
  Video: 103,
  Receipt: 104,
  Typing: 105,
  Language: 106,
  RobotText: 200,
  Suggestions: 201,
  SessionEvent: 300,
  Transfer: 301,
  End: 302,
  AgentQueue: 310,
  AgentAccept: 311,
  AgentLogout: 312,
  Availability: 320,
  AgentStatus: 313,
  AgentTransfer: 314,
  Complaint: 400,
  LeaveMessage: 401,
  Refusal: 500,
} as const;

/** The content types a client may send (acknowledged, stored, forwarded). */
export const CONTENT_TYPES: ReadonlySet<number> = new Set([T.Text, T.Image, T.File, T.Video]);

/** Turns a stored message into its wire form. */
export function toWire(record: MessageRecord, readers?: readonly ReadEntry[]): WireMessage {
  const wire: WireMessage = {
    type: record.type,
    from: record.from,
    to: record.to,
    fn: record.fn,
    tn: record.tn,
    fa: record.fa,
    ta: record.ta,
    fp: record.fp,
    mchId: record.mchId,
    createTime: record.createTime,
    dataContent: record.dataContent,
    isRead: record.isRead,
    robot: record.robot,
    isGroup: record.isGroup,
  };
  if (record.cm !== null) wire.cm = record.cm;
  if (record.seq !== undefined) wire.seq = record.seq;
  if (record.textKey !== undefined) wire.textKey = record.textKey;
  if (record.isGroup === 1) wire.imGroupMsgReadList = readers ? [...readers] : [];
  return wire;
}
