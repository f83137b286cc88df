/**
 * A visitor's data on request (the admin API and the admin command): the export of everything
 * stored that names one visitor id, and its deletion: every row, the files on disk that nothing
 * kept names, and the visitor's live sockets on every node of the cluster (closed with 4004
 * `deleted`, so that its client forgets the id and starts as a new visitor, protocol §3a.2).
 * @module
 */

import { CloseCode } from '@kefu-im/sdk/codes';
import { ApiError, Code } from '../http/envelope.js';
import { hashSecret } from '../identity/secrets.js';
import type { DeletedRows, UploadedFile, VisitorRecords } from '../store/privacy-types.js';
import type { Member } from '../store/member-types.js';
import type { Complaint, GroupMember, LeaveMessage, MessageRecord, ServiceSession, Store, UploadRecord, Visitor } from '../store/types.js';

/** The close code and reason a deleted visitor's sockets get: identity refused (the id is gone). */
export const DELETED_CLOSE = { code: CloseCode.IdentityRefused, reason: 'deleted' } as const;

/**
 * How long a deleted visitor id is refused (4004) after its deletion: clients that still hold it
 * (an open tab, a device offline meanwhile) start as a new visitor instead of bringing the id back.
 * Only the id's SHA-256 is kept, and housekeeping forgets it after this.
 */
export const DELETED_ID_REFUSED_MS = 30 * 86_400_000;

/** A visitor id the admin may name: what a connect's `u` may be, plus `:` and `@` (ids other id schemes make). */
const VISITOR_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

/** A file as the export lists it. */
export interface ExportedFile {
  /** The original name. */
  name: string;
  /** Bytes. */
  size: number;
  /** MIME type. */
  mime: string;
  /** Where it is served (`<base>/files/<stored name>`). */
  url: string;
  /** When it was uploaded (ms). */
  uploadedAt: number;
}

/** A rating as the export lists it (the session's score and remark). */
export interface ExportedRating {
  /** The rated session. */
  sessionId: string;
  /** 1-5. */
  score: number;
  /** The remark, if any. */
  remark: string | null;
}

/** Everything stored about one visitor id, as the admin API and the admin command answer it. */
export interface VisitorExport {
  /** Format version of this document. */
  format: 'kefu-visitor-export/1';
  /** The visitor id. */
  clientId: string;
  /** When it was made (ISO 8601). */
  exportedAt: string;
  /** The profile and flags, or null when no profile is stored. */
  visitor: (Visitor & { claimed: boolean }) | null;
  /** Service sessions (queue, agent, end), oldest first. */
  sessions: ServiceSession[];
  /** The ratings given. */
  ratings: ExportedRating[];
  /**
   * Every message of the visitor's conversations (its texts, the questions it asked the robot,
   * the robot's and agents' answers, images, files, videos, receipts) and the group messages it
   * sent, oldest first.
   */
  messages: MessageRecord[];
  /** The files it uploaded. */
  uploads: ExportedFile[];
  /** Chunked uploads (finished or not). */
  chunkedUploads: UploadRecord[];
  /** Complaints, oldest first. */
  complaints: Complaint[];
  /** Left messages, oldest first. */
  leftMessages: LeaveMessage[];
  /** Group memberships. */
  groups: GroupMember[];
  /** Group messages it read. */
  groupReads: VisitorRecords['groupReads'];
  /** Upload allowance used per day. */
  uploadUsage: VisitorRecords['uploadUsage'];
  /** Key sessions bound to it (their keys are secrets: counted only). */
  keySessions: number;
  /**
   * The merchant's member this id belongs to (protocol §3b: merchant, member id, e-mail of its
   * latest token, first and latest verified connect), or null for an anonymous visitor.
   */
  member: Member | null;
}

/** What a deletion removed. */
export interface VisitorDeleted {
  /** The visitor id. */
  clientId: string;
  /** Whether anything was stored. */
  found: boolean;
  /** Rows deleted, by table. */
  rows: DeletedRows;
  /** Files removed from disk, and files kept because a kept message or complaint still names them. */
  files: { deleted: number; kept: number };
  /** Sockets of the visitor closed on this node (other nodes close theirs when told through Redis). */
  socketsClosed: number;
}

/** What the service removes outside the store. */
export interface PrivacyDeps {
  /** Storage. */
  store: Store;
  /** The uploaded files on disk. */
  files: { deleteFile(storedName: string): Promise<boolean>; deleteParts(uploadId: string): Promise<void> };
  /** Closes a user's sockets in the whole cluster; answers how many were closed on this node. */
  disconnect(userId: string, code: number, reason: string): number | Promise<number>;
  /** Told after a deletion (agents' queue snapshots are sent again). */
  changed?(): void;
  /**
   * How long (ms) after the first pass a deletion looks again (default 200): a message that a
   * just-closed socket had in flight, or a connect racing the deletion, is removed by the second.
   */
  settleMs?: number;
  /** The wall clock. */
  now?: () => number;
}

/**
 * The visitor id an admin call names.
 * @throws ApiError 1001 for an id that no visitor can have (agents are no visitors).
 */
export function requireVisitorId(clientId: unknown): string {
  if (typeof clientId !== 'string' || !VISITOR_ID.test(clientId) || clientId.startsWith('agent:')) {
    throw new ApiError(Code.BadRequest, 'Bad request: clientId must be a visitor id of 1-128 letters, digits and _ . : @ - (not an agent)', 400);
  }
  return clientId;
}

function exportedFile(f: UploadedFile, baseUrl: string): ExportedFile {
  return { name: f.name, size: f.size, mime: f.mime, url: `${baseUrl}/files/${f.storedName}`, uploadedAt: f.createdAt };
}

function sumRows(a: DeletedRows, b: DeletedRows): DeletedRows {
  const out: DeletedRows = { ...a };
  for (const [table, n] of Object.entries(b)) out[table] = (out[table] ?? 0) + n;
  return out;
}

/** The privacy service (see the module comment). */
export class Privacy {
  private readonly now: () => number;

  /** @param deps - the store, the files, the cluster's sockets */
  constructor(private readonly deps: PrivacyDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Everything stored that names `clientId`.
   * @param baseUrl - the public base of file URLs (`''` for paths)
   * @throws ApiError 1001 for a bad id; 1003 when nothing names it.
   */
  async export(clientId: string, baseUrl = ''): Promise<VisitorExport> {
    const id = requireVisitorId(clientId);
    const r = await this.deps.store.privacy.visitorRecords(id);
    const nothing =
      r.visitor === undefined && r.member === undefined &&
      [r.sessions, r.messages, r.complaints, r.leaveMessages, r.uploadedFiles, r.chunkedUploads, r.groupMemberships, r.groupReads].every((l) => l.length === 0);
    if (nothing) throw new ApiError(Code.NotFound, `Nothing is stored about visitor "${id}"`, 404);
    return {
      format: 'kefu-visitor-export/1',
      clientId: id,
      exportedAt: new Date(this.now()).toISOString(),
      visitor: r.visitor === undefined ? null : { ...r.visitor, claimed: r.claimed },
      sessions: r.sessions,
      ratings: r.sessions.filter((s) => s.score !== null).map((s) => ({ sessionId: s.sessionId, score: s.score ?? 0, remark: s.remark })),
      messages: r.messages,
      uploads: r.uploadedFiles.map((f) => exportedFile(f, baseUrl)),
      chunkedUploads: r.chunkedUploads,
      complaints: r.complaints,
      leftMessages: r.leaveMessages,
      groups: r.groupMemberships,
      groupReads: r.groupReads,
      uploadUsage: r.uploadUsage,
      keySessions: r.keySessions,
      member: r.member ?? null,
    };
  }

  /**
   * Deletes everything that names `clientId`: its sockets are closed on every node (4004
   * `deleted`), its rows deleted in one transaction, then looked for once more after
   * {@link PrivacyDeps.settleMs} (anything a closing socket stored meanwhile), its files removed
   * from disk unless a kept message or complaint names them, its chunked uploads' parts removed.
   * Deleting an id with nothing stored answers `found: false`.
   * @throws ApiError 1001 for a bad id.
   */
  async delete(clientId: string): Promise<VisitorDeleted> {
    const id = requireVisitorId(clientId);
    const { store, files } = this.deps;
    let socketsClosed = await this.deps.disconnect(id, DELETED_CLOSE.code, DELETED_CLOSE.reason);
    const tombstone = { idHash: hashSecret(id), at: this.now() };
    const first = await store.privacy.deleteVisitor(id, tombstone);
    await new Promise((resolve) => setTimeout(resolve, this.deps.settleMs ?? 200));
    socketsClosed += await this.deps.disconnect(id, DELETED_CLOSE.code, DELETED_CLOSE.reason);
    const second = await store.privacy.deleteVisitor(id, tombstone);
    let deleted = 0;
    let kept = 0;
    const candidates = [...new Set([...first.files, ...second.files])];
    const inUse = new Set(await store.privacy.filesInUse(candidates));
    for (const name of candidates) {
      if (inUse.has(name)) {
        kept += 1;
        continue;
      }
      if (await files.deleteFile(name)) deleted += 1;
      await store.privacy.deleteUploadedFile(name);
    }
    for (const uploadId of new Set([...first.uploadIds, ...second.uploadIds])) await files.deleteParts(uploadId);
    const rows = sumRows(first.rows, second.rows);
    this.deps.changed?.();
    return { clientId: id, found: Object.keys(rows).length > 0, rows, files: { deleted, kept }, socketsClosed };
  }

  /** Whether `clientId` was deleted within {@link DELETED_ID_REFUSED_MS} (its connects are refused with 4004). */
  wasDeleted(clientId: string): Promise<boolean> {
    return this.deps.store.privacy.isDeleted(hashSecret(clientId));
  }

  /** Forgets deleted ids older than {@link DELETED_ID_REFUSED_MS} (housekeeping); returns how many. */
  forgetOldDeletions(): Promise<number> {
    return this.deps.store.privacy.forgetDeletedBefore(this.now() - DELETED_ID_REFUSED_MS);
  }
}
