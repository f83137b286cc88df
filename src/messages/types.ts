/**
 * Message types and the chat message shape (spec §3, protocol §5).
 * @module
 */

/**
 * The message type numbers of the wire protocol (protocol §5) and the project's extensions
 * (docs/protocol.md §6).
 */
export const MessageType = {
  /** c->s heartbeat, every 20 000 ms while open. */
  Heartbeat: 1,
  /** s->c heartbeat reply carrying `sm`. */
  HeartbeatReply: 51,
  /** s->c welcome, right after a connect is accepted; `to` is the user id. */
  Welcome: 60,
  /** Text (may hold `face[name]` emoji tokens). */
  Text: 100,
  /** Image; `dataContent` is its URL. */
  Image: 101,
  /** File; `dataContent` is JSON `{ name, size, url, mime }`. */
  File: 102,
  /** Video; `dataContent` is JSON `{ name, size, url, mime }`. */
  Video: 103,
  /** Read receipt. */
  Receipt: 104,
  /** Typing signal, `{"state":"typing"|"paused"}` (never stored, never a conversation row; `client.typing`). */
  Typing: 105,
  /** Robot or agent text. */
  RobotText: 200,
  /** Suggested questions: JSON `[{ id, question }]`. */
  Suggestions: 201,
  /** Session event: JSON `{ event, ... }`. */
  SessionEvent: 300,
  /** c->s ask for a human agent. */
  TransferToHuman: 301,
  /** c->s end the conversation. */
  EndConversation: 302,
  /** s->c agent queue snapshot (project extension). */
  AgentQueue: 310,
  /** c->s agent accepts a visitor (project extension). */
  AgentAccept: 311,
  /** c->s agent logs out: its session token is revoked and its visitors are released (project extension). */
  AgentLogout: 312,
  /** s->c availability: JSON `{ open, agentsAvailable, nextOpenAt }` (project extension, see `ImClient.availability`). */
  Availability: 320,
  /** Complaint, sent with createMsg (project extension). */
  Complaint: 400,
  /** Leave a message, sent with createMsg (project extension). */
  LeaveMessage: 401,
  /** s->c refusal: JSON `{ reason, fp }`. */
  Refusal: 500,
} as const;

/** One of the known message type numbers. Unknown numbers are still valid {@link ChatMessage} types. */
export type KnownMessageType = (typeof MessageType)[keyof typeof MessageType];

/** An entry of a group message's read list. */
export interface GroupReadEntry {
  /** The id of the client that read the message. */
  clientId: string;
  [key: string]: unknown;
}

/**
 * A chat message as it travels on the wire (spec §3). Every field but `type` is optional on the
 * wire; unknown fields are kept.
 */
export interface ChatMessage {
  /** The message type (see {@link MessageType}). */
  type: number;
  /** Sender id. */
  from?: string;
  /** Recipient id (a user id, or the group id for group messages). */
  to?: string;
  /** Sender name. */
  fn?: string;
  /** Recipient name. */
  tn?: string;
  /** Sender avatar URL. */
  fa?: string;
  /** Recipient avatar URL. */
  ta?: string;
  /** Message fingerprint: a random UUID chosen by the sender, the message's identity. */
  fp?: string;
  /** Merchant id. */
  mchId?: string | number;
  /** Timestamp (ms or a date string). */
  times?: number | string;
  /** Timestamp set by the server when it accepted the message (ms or a date string). */
  createTime?: number | string;
  /** Content; always a string on the wire (JSON text where it carries structure). */
  dataContent?: string;
  /** 1 when read, 0 when unread. */
  isRead?: 0 | 1 | number;
  /** Robot flag (1 for the robot). */
  robot?: 0 | 1 | number | boolean;
  /** Group flag. */
  isGroup?: 0 | 1 | number | boolean;
  /** Client uuid. */
  uuid?: string;
  /** For group messages: who has read it. */
  imGroupMsgReadList?: GroupReadEntry[];
  /** Server time in ms (heartbeat replies and welcome). */
  sm?: number;
  /** The read message's time in ms (receipts). */
  cm?: number;
  /**
   * The message's place in its conversation, stamped by a server that keeps one (reference
   * server; docs/protocol.md §4): gap-fill asks for `afterSeq`, so it does not depend on clocks.
   */
  seq?: number;
  [key: string]: unknown;
}

/** Sending state of an outgoing message: pending until acknowledged, then sent; failed when refused. */
export type SendState = 'pending' | 'sent' | 'failed';

/** A message as held in a {@link MessageList}-like store: the wire message plus local state. */
export interface StoredMessage extends ChatMessage {
  /** Local sending state; absent for messages received from others. */
  sendState?: SendState;
  /** Why sending failed (a refusal reason such as `too-frequent`, or `network`), when `sendState` is failed. */
  failReason?: FailReason;
}

/** The human agent serving a visitor (session event `agent-joined`). */
export interface AgentInfo {
  /** The agent's user id (`agent:<account>` on the reference server). */
  id: string;
  /** Display name. */
  name: string;
  /** Avatar URL. */
  avatar?: string;
}

/** Session event names of type 300 messages. */
export type SessionEventName = 'created' | 'queued' | 'agent-joined' | 'agent-left' | 'ended' | 'rate-invite' | 'state';

/** The parsed `dataContent` of a type 300 session event. */
export interface SessionEvent {
  /** What happened. */
  event: SessionEventName | (string & {});
  /** The conversation's id on the server. */
  sessionId?: string;
  /** Position in the queue (1-based) for `queued`. */
  position?: number;
  /** True on `queued` when no agent is online: the visitor may leave a message. */
  busy?: boolean;
  /** The agent, on `agent-joined` (and on `state` while an agent serves). */
  agent?: AgentInfo;
  /** The service state, on `state` (sent after the welcome): `robot`, `queued`, `active` or `ended`. */
  state?: 'robot' | 'queued' | 'active' | 'ended' | (string & {});
  [key: string]: unknown;
}

/** Refusal reasons of type 500 messages (protocol §5 and docs/protocol.md §6). */
export type RefusalReason =
  | 'blacklisted'
  | 'banned'
  | 'too-frequent'
  | 'blank'
  | 'not-allowed'
  | 'too-large'
  | 'bad-frame'
  | (string & {});

/**
 * Why sending a message failed: a refusal reason of the server, or one of the client's own:
 * `network` (no attempt to reconnect is coming, or the connection gave up for now; sent again
 * after the next open), `not-open` (a type the server does not acknowledge, sent while the socket
 * was down), `too-large` (over the frame limit), `too-large-to-keep` (a file over the outbox's
 * cap, not kept across the reload), `upload-failed` (the file's upload failed).
 */
export type SendFailReason = RefusalReason | 'network' | 'not-open' | 'too-large' | 'too-large-to-keep' | 'upload-failed';

/** Why a message failed (the type of `StoredMessage.failReason`); the same as {@link SendFailReason}. */
export type FailReason = SendFailReason;

/** A suggested question (type 201 entries). */
export interface SuggestedQuestion {
  /** Question id (for the `question` permit call). */
  id: string | number;
  /** Question text. */
  question: string;
}

/** The JSON content of file and video messages (types 102, 103). */
export interface FileContent {
  /** File name. */
  name: string;
  /** Size in bytes. */
  size: number;
  /** Where the file is served. */
  url: string;
  /** MIME type. */
  mime: string;
}

/** A visitor waiting in the agents' queue (type 310, docs/protocol.md §6). */
export interface QueueEntry {
  /** The visitor's client id (what type 311 accepts). */
  clientId: string;
  /** The visitor's display name. */
  name: string;
  /** Since when the visitor waits, ms. */
  since: number;
  /** 1-based position in the queue. */
  position: number;
  /** The merchant the visitor came to (reference server; absent when the server does not say). */
  mchId?: string;
  /** The merchant's platform (see {@link QueueEntry.mchId}). */
  platformId?: string;
}

/** A conversation an agent is in (type 310, docs/protocol.md §6). */
export interface AgentSession {
  /** The conversation's id. */
  sessionId: string;
  /** The visitor's client id. */
  clientId: string;
  /** The visitor's display name. */
  name: string;
  /** Since when the conversation runs, ms. */
  since: number;
  /** The merchant of the conversation (needed to load its history; absent when the server does not say). */
  mchId?: string;
  /** The merchant's platform (see {@link AgentSession.mchId}). */
  platformId?: string;
}

/** The parsed `dataContent` of a type 310 queue and sessions snapshot (agent desk). */
export interface AgentQueueSnapshot {
  /** Visitors waiting, in queue order. */
  queue: QueueEntry[];
  /** The agent's open conversations. */
  sessions: AgentSession[];
  /** How many agents are online. */
  online: number;
}
