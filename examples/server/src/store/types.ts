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
import type { KeySessionRepo } from './key-types.js';
import type { DirectoryRepo } from './directory-types.js';
import type { ChatRepo } from './chat-types.js';
import type { RecordRepo } from './record-types.js';
import type { IdentityRepo } from './identity-types.js';

export type { KeySession, KeySessionRepo } from './key-types.js';
export type {
  DirectoryRepo,
  FaqCategory,
  FaqQuestion,
  Group,
  GroupMember,
  Merchant,
  MerchantOrder,
  Platform,
} from './directory-types.js';
export type {
  AgentRouting,
  AgentStatus,
  ChatRepo,
  MessageRecord,
  PageQuery,
  ServiceSession,
  SessionState,
  Visitor,
} from './chat-types.js';
export type { Complaint, LeaveMessage, RecordRepo, UploadRecord } from './record-types.js';
export type { IdentityRepo, StoredAgent } from './identity-types.js';

/** A repository shape whose every method answers with a promise of what the shape returns. */
export type Async<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : R[K];
};

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
