/**
 * The chat's storage shapes: visitors, service sessions, agents' routing state, messages and their
 * pages, and the repository over them, kept out of `types.ts` for size (re-exported there).
 * @module
 */

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
   * `fromAgentId`'s desk (`DeskRepo.deskTransferred`, `desk-types.ts`) in the same transaction.
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
