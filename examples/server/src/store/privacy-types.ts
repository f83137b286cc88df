/**
 * The storage shapes of visitor privacy (`services/privacy.ts`, `services/retention.ts`): every
 * stored file with its owner, everything the store holds that names one visitor (the export), the
 * deletion of all of it, and retention (everything older than a cutoff, in batches, run once per
 * period across a cluster). Kept out of `types.ts` for size.
 * @module
 */

import type { Arrival } from './desk-types.js';
import type { Member } from './member-types.js';
import type { MessageRecord, ServiceSession, Visitor } from './chat-types.js';
import type { GroupMember } from './directory-types.js';
import type { Complaint, LeaveMessage, UploadRecord } from './record-types.js';

/** A stored file (a single upload, or an assembled chunked one) and who uploaded it. */
export interface UploadedFile {
  /** Its name under `FILES_DIR` (served at `/files/<storedName>`). */
  storedName: string;
  /** The uploading identity (a visitor's client id or `agent:<account>`). */
  owner: string;
  /** The original file name (cleaned). */
  name: string;
  /** Bytes. */
  size: number;
  /** MIME type. */
  mime: string;
  /** When it was stored (ms). */
  createdAt: number;
}

/** One group read of a visitor. */
export interface GroupRead {
  /** The group message read. */
  fp: string;
  /** When (ms). */
  readAt: number;
}

/** A visitor's upload allowance used on one UTC day. */
export interface UploadUsage {
  /** `YYYY-MM-DD`. */
  day: string;
  /** Bytes. */
  bytes: number;
}

/** Everything the store holds that names one visitor (the export). */
export interface VisitorRecords {
  /** The visitor's profile and flags, if stored. */
  visitor: Visitor | undefined;
  /** Whether the visitor's id is claimed (protocol §3a; the secret's hash itself is never exported). */
  claimed: boolean;
  /** Its service sessions, oldest first (ratings are their `score` and `remark`). */
  sessions: ServiceSession[];
  /** Every message of its conversations, and the group messages it sent, oldest first. */
  messages: MessageRecord[];
  /** The groups it is a member of. */
  groupMemberships: GroupMember[];
  /** The group messages it read. */
  groupReads: GroupRead[];
  /** Its complaints, oldest first. */
  complaints: Complaint[];
  /** Its left messages, oldest first. */
  leaveMessages: LeaveMessage[];
  /** The files it uploaded. */
  uploadedFiles: UploadedFile[];
  /** Its chunked uploads (finished or not). */
  chunkedUploads: UploadRecord[];
  /** How many key sessions are bound to it (their keys are secrets: counted, never exported). */
  keySessions: number;
  /** Its upload allowance used per day. */
  uploadUsage: UploadUsage[];
  /** What it arrived with at each platform (entry-link parameters, shown in the desk's context panel). */
  arrivals: Arrival[];
  /** The merchant's member this id belongs to (protocol §3b), or undefined for an anonymous visitor. */
  member: Member | undefined;
}

/** Rows deleted, by table name. */
export type DeletedRows = Record<string, number>;

/** What a deletion leaves behind of a visitor id: its hash (never the id) and when. */
export interface Tombstone {
  /** Lowercase hex SHA-256 of the id. */
  idHash: string;
  /** When it was deleted (ms). */
  at: number;
}

/** What deleting a visitor removed from the store, and what the caller removes from disk. */
export interface VisitorDeletion {
  /** Rows deleted, by table. */
  rows: DeletedRows;
  /**
   * Stored names of the files the deleted rows named (its messages' images, files and videos, its
   * complaints' attachments, its uploads): the caller deletes those nothing kept names.
   */
  files: string[];
  /** Its chunked uploads, whose parts the caller deletes. */
  uploadIds: string[];
}

/** One batch of retention: rows older than the cutoff deleted, at most `limit` per table. */
export interface ExpiredBatch {
  /** Rows deleted, by table. */
  rows: DeletedRows;
  /** Stored names of the files the deleted rows named (the caller deletes those nothing kept names). */
  files: string[];
  /** True when a table had more than the batch took: call again. */
  more: boolean;
}

/** One period's retention run: claimed by one node, then finished with what it deleted. */
export interface RetentionRun {
  /** The period (`floor(time / interval)`); one run per period in the whole cluster. */
  period: number;
  /** The node that ran it (`NODE_ID`). */
  node: string;
  /** Everything older than this (ms) was deleted. */
  cutoff: number;
  /** When it started (ms). */
  startedAt: number;
  /** When it finished (ms), or null while running (or when its node died). */
  finishedAt: number | null;
  /** Rows deleted, by table, and `files` for files removed from disk. */
  deleted: DeletedRows;
}

/** Visitor privacy and retention. */
export interface PrivacyRepo {
  /** Everything stored that names `clientId`. */
  visitorRecords(clientId: string): VisitorRecords;
  /**
   * Deletes, atomically, every row that names `clientId`: its visitor row (and secret hash), key
   * sessions bound to it, sessions (ratings), messages of its conversations and group messages it
   * sent (with their reads), its group reads and memberships, complaints, left messages, uploads,
   * uploaded-file rows, upload usage, conversation counters and its member row (protocol §3b); and keeps `tombstone` (the id's
   * hash, never the id) so that connects naming the id are refused for a while.
   */
  deleteVisitor(clientId: string, tombstone: Tombstone): VisitorDeletion;
  /** Whether a visitor id whose hash is `idHash` was deleted (and its tombstone not forgotten yet). */
  isDeleted(idHash: string): boolean;
  /** Forgets tombstones of deletions made before `before` (ms); returns how many. */
  forgetDeletedBefore(before: number): number;
  /** Records a stored file and its owner. */
  addUploadedFile(file: UploadedFile): void;
  /**
   * The ones of `storedNames` that a kept message (image, file, video) or complaint names: one
   * pass over the messages that name a stored file, however many names are asked about.
   */
  filesInUse(storedNames: readonly string[]): string[];
  /** Uploaded files stored before `before`, by name after `afterName`, at most `limit`. */
  uploadedFilesBefore(before: number, afterName: string, limit: number): UploadedFile[];
  /** Forgets a stored file's row; false when there was none. */
  deleteUploadedFile(storedName: string): boolean;
  /**
   * Deletes one batch of what is older than `cutoff` (ms), atomically, at most `limit` rows per
   * table: messages (with their group reads), ended sessions (with their ratings), robot sessions
   * left without a newer message, complaints, left messages and finished chunked uploads; and what
   * belonged to removed rows: transfer records (`session_transfers`) of sessions that are gone,
   * member rows (`member_visitors`) verified before `cutoff` whose visitor row is gone. Visitor
   * rows (the id, its secret's hash, its flags) and conversation counters stay: the visitor may
   * come back to its id, and its conversation's sequence goes on (a deletion on request erases them).
   */
  expireBefore(cutoff: number, limit: number): ExpiredBatch;
  /** Claims the run of `run.period`; false when a node claimed it already (then nothing is stored). */
  claimRetentionRun(run: Omit<RetentionRun, 'finishedAt' | 'deleted'>): boolean;
  /** Records the end of a claimed run. */
  finishRetentionRun(period: number, finishedAt: number, deleted: DeletedRows): void;
  /** The latest `limit` runs, newest period first. */
  retentionRuns(limit: number): RetentionRun[];
  /** Forgets runs of periods before `period` (housekeeping); returns how many. */
  forgetRetentionRuns(period: number): number;
}
