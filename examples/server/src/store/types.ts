/**
 * The storage interface. The server talks to storage only through {@link Store}, asynchronously,
 * so that the embedded SQLite store and the PostgreSQL store of a cluster are interchangeable.
 *
 * The repositories are written once as plain method shapes (`ChatRepo`, ...): the SQLite store
 * implements them synchronously inside the process and {@link Store} exposes them through
 * {@link Async}; the PostgreSQL store implements the {@link Async} form directly.
 * @module
 */

import type { DeskRepo } from './desk-types.js';
import type { PrivacyRepo } from './privacy-types.js';
import type { MemberRepo } from './member-types.js';

/** A repository shape whose every method answers with a promise of what the shape returns. */
export type Async<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : R[K];
};

/** One start-up key exchange (protocol §1): named by its salt key, found again by its request key. */
export interface KeySession {
  /** Opaque name sent as `X-Salt-Key` and as `t` at connect. */
  saltKey: string;
  /** The client's 32-hex request key. */
  requestKey: string;
  /** The 32 ASCII characters of the AES key. */
  aesKey: string;
  /** The 32 ASCII characters of the user token (`userKey` is its UTF-8 bytes). */
  token: string;
  /** Creation time (ms). */
  createdAt: number;
  /** Last use (ms); the session expires a TTL after it. */
  lastUsed: number;
  /** The identity (client id or `agent:<account>`) the key session is bound to (protocol §3a), or null. */
  boundTo: string | null;
}

/** A merchant. */
export interface Merchant {
  /** Merchant id. */
  mchId: string;
  /** Display name. */
  name: string;
  /** Service avatar (URL or data: URL). */
  kefuAvatar2: string;
  /** Further fields returned by getMerchantById as they are. */
  extra: Record<string, unknown>;
}

/** A merchant's platform. */
export interface Platform {
  /** Merchant id. */
  mchId: string;
  /** Platform id. */
  platformId: string;
  /** Display name. */
  name: string;
  /** Whether visitors may use it. */
  enabled: boolean;
}

/** A visitor (customer) known by its client id. */
export interface Visitor {
  /** The client id (`u` at connect). */
  clientId: string;
  /** Display name. */
  name: string;
  /** Avatar URL. */
  avatar: string;
  /** Preferred language (`zh`, `en`, ...). */
  language: string;
  /** Refused the rating function and sending (type 500 `blacklisted`, code 2001). */
  blacklisted: boolean;
  /** Refused everything (type 500 `banned`, code 2003). */
  banned: boolean;
  /** First seen (ms). */
  createdAt: number;
  /** Last seen (ms). */
  lastSeen: number;
}

/** Where a service session stands. */
export type SessionState = 'robot' | 'queued' | 'active' | 'ended';

/** An agent's own status: `available` agents get new visitors, `away` agents keep theirs and get none. */
export type AgentStatus = 'available' | 'away';

/** What routing reads about one agent. */
export interface AgentRouting {
  /** The agent's user id. */
  agentId: string;
  /** Its status (`available` when it never set one). */
  status: AgentStatus;
  /** Conversations it serves now. */
  open: number;
  /** Its capacity set with the admin command, or null (the config's). */
  capacity: number | null;
  /** When it was last given a conversation (ms), or null. */
  lastAssignedAt: number | null;
}

/** One service conversation of a visitor with a merchant: robot, queue, agent, end, rating. */
export interface ServiceSession {
  /** Session id. */
  sessionId: string;
  /** Visitor. */
  clientId: string;
  /** Merchant id. */
  mchId: string;
  /** Platform id. */
  platformId: string;
  /** State. */
  state: SessionState;
  /** The agent's user id (`agent:<account>`) once accepted. */
  agentId: string | null;
  /** Times (ms). */
  createdAt: number;
  /** When the visitor asked for a human (the queue order). */
  queuedAt: number | null;
  /** When an agent accepted. */
  acceptedAt: number | null;
  /** When it ended. */
  endedAt: number | null;
  /** The rating (1-5) once given. */
  score: number | null;
  /** The rating's remark. */
  remark: string | null;
  /** Who ended it (a 302 of the visitor or of its agent), once ended; null (or absent) when unknown. */
  endedBy?: 'visitor' | 'agent' | null;
}

/** A stored message: the wire fields plus where it belongs. */
export interface MessageRecord {
  /** Fingerprint, unique. */
  fp: string;
  /** Message type. */
  type: number;
  /** Sender id. */
  from: string;
  /** Recipient id (user or group). */
  to: string;
  /** Names and avatars. */
  fn: string;
  tn: string;
  fa: string;
  ta: string;
  /** Merchant and platform. */
  mchId: string;
  platformId: string;
  /** The visitor whose one-to-one conversation holds it (null for group messages). */
  clientId: string | null;
  /** The group or channel (null for one-to-one messages). */
  groupId: string | null;
  /** The service session (one-to-one only). */
  sessionId: string | null;
  /** Content. */
  dataContent: string;
  /** 1 once the recipient read it. */
  isRead: number;
  /** 1 for robot messages. */
  robot: number;
  /** 1 for group messages. */
  isGroup: number;
  /** Server time of acceptance (ms), strictly increasing across the server. */
  createTime: number;
  /** For receipts: the read message's time. */
  cm: number | null;
  /**
   * The key of a server-made text that clients may show in their own language instead of
   * `dataContent` (docs/protocol.md "Text keys"); absent for every other message.
   */
  textKey?: string;
  /**
   * The per-conversation sequence (1, 2, ...; a conversation is one visitor with one merchant's
   * platform, or one group): stamped by the store inside the insert, in commit order, whatever
   * the nodes' clocks say. Absent before the message is stored.
   */
  seq?: number;
}

/**
 * A page query over messages: `before` pages backwards, `after` (or `afterSeq`) forwards; either
 * way the page comes oldest first, and messages of one millisecond in the order they were stored.
 * A bound selects what its comparison says of integer times and sequences (a fraction, an
 * infinity or a value past the safe integers included); a NaN bound selects nothing.
 */
export interface PageQuery {
  /**
   * Only messages whose per-conversation sequence is greater (forwards, by `seq`): the gap-fill
   * that does not depend on clocks. Wins over `before`/`after`.
   */
  afterSeq?: number | undefined;
  /** Only messages strictly older than this (ms). */
  before?: number | undefined;
  /** Only messages strictly newer than this (ms). */
  after?: number | undefined;
  /**
   * Page size (1-101: callers ask for one more than they show to learn whether there is more);
   * a size outside is clamped into it, a fraction truncated, a NaN refused (RangeError).
   */
  size: number;
}

/** A group or channel. */
export interface Group {
  groupId: string;
  mchId: string;
  name: string;
  /** A channel is a broadcast group: only staff post. */
  kind: 'group' | 'channel';
  avatar: string;
  notice: string;
  /** Visitors join on first contact. */
  open: boolean;
}

/** A member of a group. */
export interface GroupMember {
  groupId: string;
  clientId: string;
  name: string;
  avatar: string;
  role: 'member' | 'staff';
  joinedAt: number;
}

/** An FAQ category. */
export interface FaqCategory {
  id: string;
  mchId: string;
  platformId: string;
  language: string;
  name: string;
  sort: number;
}

/** An FAQ question with its answer. */
export interface FaqQuestion {
  id: string;
  categoryId: string;
  mchId: string;
  platformId: string;
  language: string;
  question: string;
  answer: string;
  /** Comma-separated extra words that match it. */
  keywords: string;
  sort: number;
}

/** A merchant order (the deposit card's data). */
export interface MerchantOrder {
  mchId: string;
  orderNo: string;
  userAccount: string;
  userMchId: string;
  amount: string;
  status: string;
}

/** A complaint (createMsg type 400). */
export interface Complaint {
  fp: string;
  clientId: string;
  mchId: string;
  platformId: string;
  account: string;
  description: string;
  occurredAt: number;
  images: string[];
  video: string | null;
  createdAt: number;
}

/** A left message (createMsg type 401). */
export interface LeaveMessage {
  fp: string;
  clientId: string;
  mchId: string;
  platformId: string;
  contact: string;
  content: string;
  name: string;
  createdAt: number;
}

/** A chunked upload in progress or completed. */
export interface UploadRecord {
  uploadId: string;
  /** Who started it (salt key or address): resuming is per client. */
  clientKey: string;
  fileName: string;
  fileSize: number;
  mime: string;
  chunkSize: number;
  chunkCount: number;
  createdAt: number;
  /** Set once completed. */
  fileUrl: string | null;
}

/** Key sessions. */
export interface KeySessionRepo {
  /** Stores a new key session (unbound). */
  create(session: Omit<KeySession, 'boundTo'>): void;
  byRequestKey(requestKey: string): KeySession | undefined;
  bySaltKey(saltKey: string): KeySession | undefined;
  touch(saltKey: string, now: number): void;
  /** Deletes sessions last used before `before`; returns how many. */
  deleteUnusedSince(before: number): number;
}

/** Merchants, platforms, groups, FAQ, orders, entry links. */
export interface DirectoryRepo {
  putMerchant(merchant: Merchant): void;
  merchant(mchId: string): Merchant | undefined;
  putPlatform(platform: Platform): void;
  platform(mchId: string, platformId: string): Platform | undefined;
  firstPlatform(): Platform | undefined;
  putGroup(group: Group): void;
  group(groupId: string): Group | undefined;
  /** Adds a member; an existing member is kept as it is. */
  addMember(member: GroupMember): void;
  member(groupId: string, clientId: string): GroupMember | undefined;
  /** The members of a group: staff first, then by joining time, then by client id (byte order). */
  members(groupId: string): GroupMember[];
  putCategory(category: FaqCategory): void;
  categories(mchId: string, platformId: string, language: string): FaqCategory[];
  putQuestion(question: FaqQuestion): void;
  question(id: string): FaqQuestion | undefined;
  /** Questions of a merchant's platform; all languages when `language` is undefined. */
  questions(mchId: string, platformId: string, language?: string): FaqQuestion[];
  /** The languages the merchant's FAQ is written in. */
  faqLanguages(mchId: string, platformId: string): string[];
  putOrder(order: MerchantOrder): void;
  order(mchId: string, orderNo: string): MerchantOrder | undefined;
  putEntryLink(param: string, raw: string): void;
  entryLink(param: string): string | undefined;
  /** A merchant's business hours as JSON text (`services/business-hours.ts` reads it), if set. */
  merchantHours(mchId: string): string | undefined;
  /** Sets (JSON text) or, with null, removes a merchant's business hours. */
  putMerchantHours(mchId: string, hours: string | null, now: number): void;
}

/** Visitors, service sessions, messages and read state. */
export interface ChatRepo {
  visitor(clientId: string): Visitor | undefined;
  /** The known visitors among `clientIds` (one read for many: queue snapshots name every visitor). */
  visitors(clientIds: readonly string[]): Visitor[];
  /** Inserts or updates name, avatar, language and lastSeen; the flags of an existing visitor are kept. */
  saveVisitor(visitor: Visitor): void;
  setVisitorFlags(clientId: string, flags: { blacklisted?: boolean; banned?: boolean }): void;
  /**
   * Stores a new session; false (nothing stored) when the visitor already has an open (not
   * ended) session with that merchant's platform: one open session per conversation, even when
   * two nodes start one at the same moment.
   */
  createSession(session: ServiceSession): boolean;
  session(sessionId: string): ServiceSession | undefined;
  latestSession(clientId: string, mchId: string, platformId: string): ServiceSession | undefined;
  updateSession(session: ServiceSession): void;
  /** Queued sessions, oldest first. */
  queue(): ServiceSession[];
  /** Active sessions of an agent, oldest first. */
  activeSessions(agentId: string): ServiceSession[];
  /**
   * The agent's oldest active session with the visitor `clientId` (the first of
   * {@link ChatRepo.activeSessions} for that visitor), read by index: every text an agent sends
   * looks it up, so it must not read the agent's other sessions.
   */
  activeSessionWith(agentId: string, clientId: string): ServiceSession | undefined;
  /** The agents that serve at least one active session (sorted). */
  servingAgents(): string[];
  /**
   * Assigns the visitor's session queued with one of the merchants `mchIds` (the agent's) to
   * `agentId` atomically (a conditional update, the row locked): of two agents accepting the same
   * visitor at once, exactly one gets the session.
   * @returns the now active session, or undefined when the visitor was not queued (any more) with those merchants
   */
  claimQueued(clientId: string, agentId: string, now: number, mchIds: readonly string[]): ServiceSession | undefined;
  /**
   * How long the latest `limit` accepted visitors waited in the queue (ms, `acceptedAt - queuedAt`),
   * newest accept first: what the queue's estimated wait is computed from.
   */
  recentWaits(limit: number): number[];
  /**
   * Routing: assigns the oldest session queued with one of the merchants `mchIds` (the agent's)
   * to `agentId` when it serves fewer than `capacity` conversations, atomically (of nodes routing
   * at once, each visitor goes to one agent and no agent goes over its capacity), and stamps the
   * agent's last assignment.
   * @returns the now active session, or undefined (nobody of those merchants queued, or the agent full)
   */
  claimHeadFor(agentId: string, capacity: number, now: number, mchIds: readonly string[]): ServiceSession | undefined;
  /** The routing state of these agents (each once, in the order asked). */
  agentRouting(agentIds: readonly string[]): AgentRouting[];
  /** Stores an agent's status. */
  setAgentStatus(agentId: string, status: AgentStatus): void;
  /** Stores an agent's capacity (null: the config's). */
  setAgentCapacity(agentId: string, capacity: number | null): void;
  /**
   * Moves an active session from one agent to another (a transfer), atomically: only while
   * `toAgentId` serves fewer than `capacity` conversations (of transfers and routing claims at
   * once, on any node, none puts the agent over its capacity), and records the transfer for
   * `fromAgentId`'s desk ({@link DeskRepo.deskTransferred}) in the same transaction.
   * @returns the session, or undefined when it is not active with `fromAgentId` (any more) or the
   * other agent is at capacity
   */
  reassign(sessionId: string, fromAgentId: string, toAgentId: string, now: number, capacity: number): ServiceSession | undefined;
  /** Stores a message once per `fp` and stamps its `seq` on `message`; false for a known `fp`. */
  insertMessage(message: MessageRecord): boolean;
  message(fp: string): MessageRecord | undefined;
  conversation(clientId: string, mchId: string, platformId: string, page: PageQuery): MessageRecord[];
  groupMessages(groupId: string, page: PageQuery): MessageRecord[];
  markRead(fp: string): void;
  /** Records that `clientId` read group message `fp`; false when it already had. */
  addGroupRead(fp: string, clientId: string, at: number): boolean;
  /**
   * Readers per group message fp (each fp once, in the order first asked; an empty list when
   * nobody read it), by read time, then by client id (byte order).
   */
  groupReads(fps: readonly string[]): Map<string, { clientId: string; readAt: number }[]>;
  /** The newest createTime stored (0 when none). */
  maxCreateTime(): number;
}

/** Complaints, left messages and uploads. */
export interface RecordRepo {
  /** Stores a complaint; returns the stored one (the existing one when the fp is known). */
  addComplaint(complaint: Complaint): Complaint;
  complaints(clientId: string): Complaint[];
  addLeaveMessage(message: LeaveMessage): LeaveMessage;
  leaveMessages(clientId: string): LeaveMessage[];
  putUpload(upload: UploadRecord): void;
  upload(uploadId: string): UploadRecord | undefined;
  resumableUpload(clientKey: string, fileName: string, fileSize: number, mime: string): UploadRecord | undefined;
  deleteUpload(uploadId: string): void;
  /** Unfinished uploads created before `before`. */
  staleUploads(before: number): UploadRecord[];
}

/** An agent account kept in the store (added with the admin command). */
export interface StoredAgent {
  /** Login name. */
  account: string;
  /** Display name. */
  name: string;
  /** `scrypt$N$r$p$salt$hash` (see `agents/password.ts`). */
  passwordHash: string;
  /** The merchants it works for (at least one; see `agents/merchants.ts`). */
  merchants: readonly string[];
  /** When it was added (ms). */
  createdAt: number;
}

/**
 * Identity binding (protocol §3a): visitors' secret hashes, key-session bindings, agents in the
 * store and per-identity upload usage.
 */
export interface IdentityRepo {
  /** The stored secret hash of a visitor, or undefined when it is unclaimed (or unknown). */
  secretHash(clientId: string): string | undefined;
  /** Stores the hash for an existing, unclaimed visitor; false when it was already claimed. */
  claim(clientId: string, secretHash: string): boolean;
  /** Binds a key session to `identity`; false when it is bound to another identity. */
  bindKeySession(saltKey: string, identity: string): boolean;
  /** Whether a conversation of `clientId` with one of the merchants `mchIds` was ever assigned to `agentId`. */
  assigned(agentId: string, clientId: string, mchIds: readonly string[]): boolean;
  /** Bytes uploaded by `identity` on `day` (`YYYY-MM-DD`, UTC). */
  uploadBytes(identity: string, day: string): number;
  /** Adds (or, negative, refunds) uploaded bytes. */
  addUploadBytes(identity: string, day: string, bytes: number): void;
  agent(account: string): StoredAgent | undefined;
  agents(): StoredAgent[];
  putAgent(agent: StoredAgent): void;
  /** False when there was no such agent. */
  removeAgent(account: string): boolean;
  /** Keeps an agent session token's hash until `expiresAt` (ms). */
  putAgentToken(tokenHash: string, account: string, now: number, expiresAt: number): void;
  /** The account of an unexpired token hash (its expiry moved to `expiresAt`), or undefined. */
  useAgentToken(tokenHash: string, now: number, expiresAt: number): string | undefined;
  /** Forgets a token hash (logout); false when it was not kept. */
  revokeAgentToken(tokenHash: string): boolean;
  /** Forgets every token of `account` ("log out everywhere"); answers how many there were. */
  revokeAgentTokensOf(account: string): number;
}

/** Where the store keeps its data, for logs and health answers. */
export type StoreKind = 'sqlite' | 'postgres';

/** The whole storage, asynchronous (see the module comment). */
export interface Store {
  /** Which store this is. */
  readonly kind: StoreKind;
  readonly identity: Async<IdentityRepo>;
  readonly keys: Async<KeySessionRepo>;
  readonly directory: Async<DirectoryRepo>;
  readonly chat: Async<ChatRepo>;
  readonly records: Async<RecordRepo>;
  /** Canned replies and past conversations (`desk-types.ts`). */
  readonly desk: Async<DeskRepo>;
  /** A visitor's export and deletion, stored files, retention (`privacy-types.ts`). */
  readonly privacy: Async<PrivacyRepo>;
  /** Verified members, the merge, sealed merchant secrets (`member-types.ts`, protocol §3b). */
  readonly members: Async<MemberRepo>;
  /** A stored setting (`seeded`, ...). */
  meta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
  /**
   * Stores `value` under `key` unless a value is stored already, and answers the stored value:
   * nodes starting at once each propose one, and all of them get the same (the first stored).
   */
  metaOnce(key: string, value: string): Promise<string>;
  /**
   * Runs `fn` atomically: every call made through `tx` commits together or not at all. Calls made
   * through the outer store during `fn` are not part of it (on SQLite they wait until it ends).
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Rejects when the store does not answer (the readiness check). */
  ping(): Promise<void>;
  /** Closes the store (idempotent). */
  close(): Promise<void>;
}
