/**
 * {@link PrivacyRepo} on better-sqlite3: a visitor's export and deletion, stored files with their
 * owners, and retention in batches. Every statement is parameterised; every deletion runs in one
 * transaction (a savepoint inside a {@link Store.transaction}).
 * @module
 */

import type Database from 'better-sqlite3';
import { toMessage, toSession, toVisitor, type MessageRow, type SessionRow, type VisitorRow } from './rows-chat.js';
import { toArrival, type ArrivalRow } from './rows-desk.js';
import { toMember, type MemberRow } from './rows-directory.js';
import { toComplaint, toLeaveMessage, toUpload, type ComplaintRow, type LeaveMessageRow, type UploadRow } from './rows-records.js';
import * as rows from './rows-privacy.js';
import { insertInto } from './sqlite-params.js';
import { mapRow } from './rows.js';
import { toMemberVisitor, type MemberVisitorRow } from './rows-members.js';
import type { DeletedRows, PrivacyRepo, Tombstone } from './privacy-types.js';

const FILE_TYPES = rows.FILE_MESSAGE_TYPES.join(', ');

/** The statements of a visitor's export and deletion (each takes the client id, once per `?`). */
function visitorStatements(db: Database.Database) {
  return {
    visitor: db.prepare<[string], VisitorRow & { secret_hash: string | null }>('SELECT * FROM visitors WHERE client_id = ?'),
    sessions: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE client_id = ? ORDER BY created_at, rowid'),
    messages: db.prepare<[string, string], MessageRow>(
      `SELECT * FROM messages WHERE client_id = ?
       UNION SELECT * FROM messages WHERE is_group = 1 AND from_id = ?
       ORDER BY create_time, id`,
    ),
    members: db.prepare<[string], MemberRow>('SELECT * FROM group_members WHERE client_id = ? ORDER BY joined_at, group_id'),
    reads: db.prepare<[string], { fp: string; read_at: number }>('SELECT fp, read_at FROM group_reads WHERE client_id = ? ORDER BY read_at, fp'),
    complaints: db.prepare<[string], ComplaintRow>('SELECT * FROM complaints WHERE client_id = ? ORDER BY created_at, fp'),
    leaves: db.prepare<[string], LeaveMessageRow>('SELECT * FROM leave_messages WHERE client_id = ? ORDER BY created_at, fp'),
    files: db.prepare<[string], rows.UploadedFileRow>('SELECT * FROM uploaded_files WHERE owner = ? ORDER BY created_at, stored_name'),
    uploads: db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE client_key = ? ORDER BY created_at, upload_id'),
    keySessions: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM key_sessions WHERE bound_to = ?'),
    usage: db.prepare<[string], { day: string; bytes: number }>('SELECT day, bytes FROM upload_usage WHERE identity = ? ORDER BY day'),
    arrivals: db.prepare<[string], ArrivalRow>('SELECT * FROM visitor_arrivals WHERE client_id = ? ORDER BY arrived_at, mch_id, platform_id'),
    member: db.prepare<[string], MemberVisitorRow>('SELECT * FROM member_visitors WHERE client_id = ?'),
    fileMessages: db.prepare<[string, string], { type: number; data_content: string }>(
      `SELECT type, data_content FROM messages WHERE client_id = ? AND type IN (${FILE_TYPES})
       UNION ALL SELECT type, data_content FROM messages WHERE is_group = 1 AND from_id = ? AND type IN (${FILE_TYPES})`,
    ),
    places: db.prepare<[string, string], { mch_id: string; platform_id: string }>(
      'SELECT mch_id, platform_id FROM messages WHERE client_id = ? UNION SELECT mch_id, platform_id FROM sessions WHERE client_id = ?',
    ),
    delete: {
      ownReads: db.prepare<[string]>('DELETE FROM group_reads WHERE client_id = ?'),
      readsOfSent: db.prepare<[string]>('DELETE FROM group_reads WHERE fp IN (SELECT fp FROM messages WHERE is_group = 1 AND from_id = ?)'),
      messages: db.prepare<[string]>('DELETE FROM messages WHERE client_id = ?'),
      groupMessages: db.prepare<[string]>('DELETE FROM messages WHERE is_group = 1 AND from_id = ?'),
      counter: db.prepare<[string]>('DELETE FROM conversation_seq WHERE conv = ?'),
      transfers: db.prepare<[string]>('DELETE FROM session_transfers WHERE session_id IN (SELECT session_id FROM sessions WHERE client_id = ?)'),
      sessions: db.prepare<[string]>('DELETE FROM sessions WHERE client_id = ?'),
      complaints: db.prepare<[string]>('DELETE FROM complaints WHERE client_id = ?'),
      leaves: db.prepare<[string]>('DELETE FROM leave_messages WHERE client_id = ?'),
      uploads: db.prepare<[string]>('DELETE FROM uploads WHERE client_key = ?'),
      files: db.prepare<[string]>('DELETE FROM uploaded_files WHERE owner = ?'),
      usage: db.prepare<[string]>('DELETE FROM upload_usage WHERE identity = ?'),
      members: db.prepare<[string]>('DELETE FROM group_members WHERE client_id = ?'),
      keySessions: db.prepare<[string]>('DELETE FROM key_sessions WHERE bound_to = ?'),
      arrivals: db.prepare<[string]>('DELETE FROM visitor_arrivals WHERE client_id = ?'),
      member: db.prepare<[string]>('DELETE FROM member_visitors WHERE client_id = ?'),
      visitor: db.prepare<[string]>('DELETE FROM visitors WHERE client_id = ?'),
    },
  };
}

/** The statements of retention (each batch takes the cutoff and the batch size). */
function retentionStatements(db: Database.Database) {
  return {
    oldMessages: db.prepare<[number, number], { id: number; fp: string; type: number; data_content: string }>(
      'SELECT id, fp, type, data_content FROM messages WHERE create_time < ? ORDER BY create_time LIMIT ?',
    ),
    readsOf: db.prepare<[string]>('DELETE FROM group_reads WHERE fp IN (SELECT value FROM json_each(?))'),
    messagesById: db.prepare<[string]>('DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?))'),
    endedSessions: db.prepare<[number, number]>(
      "DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE state = 'ended' AND ended_at < ? LIMIT ?)",
    ),
    robotSessions: db.prepare<[number, number, number]>(
      `DELETE FROM sessions WHERE rowid IN (
         SELECT rowid FROM sessions s WHERE s.state = 'robot' AND s.created_at < ?
           AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.session_id AND m.create_time >= ?)
         LIMIT ?)`,
    ),
    // what belonged to a deleted session: the old agent's record of its transfer
    orphanTransfers: db.prepare<[number]>(
      `DELETE FROM session_transfers WHERE rowid IN (
         SELECT rowid FROM session_transfers t WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = t.session_id) LIMIT ?)`,
    ),
    // a member whose visitor row is gone (its connect was refused after the member was made),
    // verified before the cutoff (a connect under way is not yet admitted)
    orphanMembers: db.prepare<[number, number]>(
      `DELETE FROM member_visitors WHERE rowid IN (
         SELECT rowid FROM member_visitors m WHERE m.verified_at < ?
           AND NOT EXISTS (SELECT 1 FROM visitors v WHERE v.client_id = m.client_id) LIMIT ?)`,
    ),
    oldComplaints: db.prepare<[number, number], { fp: string; images: string; video: string | null }>(
      'SELECT fp, images, video FROM complaints WHERE created_at < ? LIMIT ?',
    ),
    complaintsByFp: db.prepare<[string]>('DELETE FROM complaints WHERE fp IN (SELECT value FROM json_each(?))'),
    leaves: db.prepare<[number, number]>('DELETE FROM leave_messages WHERE rowid IN (SELECT rowid FROM leave_messages WHERE created_at < ? LIMIT ?)'),
    arrivals: db.prepare<[number, number]>('DELETE FROM visitor_arrivals WHERE rowid IN (SELECT rowid FROM visitor_arrivals WHERE arrived_at < ? LIMIT ?)'),
    oldUploads: db.prepare<[number, number], { upload_id: string; file_url: string }>(
      'SELECT upload_id, file_url FROM uploads WHERE file_url IS NOT NULL AND created_at < ? LIMIT ?',
    ),
    uploadsById: db.prepare<[string]>('DELETE FROM uploads WHERE upload_id IN (SELECT value FROM json_each(?))'),
  };
}

/**
 * Creates the privacy repository.
 * @internal
 */
export function sqlitePrivacyRepo(db: Database.Database): PrivacyRepo {
  const v = visitorStatements(db);
  const r = retentionStatements(db);
  const q = {
    addFile: db.prepare<rows.UploadedFileRow>(`${insertInto('uploaded_files', rows.UPLOADED_FILE_COLUMNS)} ON CONFLICT (stored_name) DO NOTHING`),
    fileMessages: db.prepare<[], { type: number; data_content: string }>(
      `SELECT type, data_content FROM messages WHERE type IN (${FILE_TYPES}) AND instr(data_content, '/files/') > 0`,
    ),
    complaintFiles: db.prepare<[], { images: string; video: string | null }>(
      "SELECT images, video FROM complaints WHERE instr(images, '/files/') > 0 OR instr(video, '/files/') > 0",
    ),
    filesBefore: db.prepare<[number, string, number], rows.UploadedFileRow>(
      'SELECT * FROM uploaded_files WHERE created_at < ? AND stored_name > ? ORDER BY stored_name LIMIT ?',
    ),
    deleteFile: db.prepare<[string]>('DELETE FROM uploaded_files WHERE stored_name = ?'),
    claimRun: db.prepare<[number, string, number, number]>(
      'INSERT INTO retention_runs (period, node, cutoff, started_at) VALUES (?, ?, ?, ?) ON CONFLICT (period) DO NOTHING',
    ),
    finishRun: db.prepare<[number, string, number]>('UPDATE retention_runs SET finished_at = ?, deleted = ? WHERE period = ?'),
    runs: db.prepare<[number], rows.RetentionRunRow>('SELECT * FROM retention_runs ORDER BY period DESC LIMIT ?'),
    forgetRuns: db.prepare<[number]>('DELETE FROM retention_runs WHERE period < ?'),
    tombstone: db.prepare<[string, number]>(
      'INSERT INTO deleted_visitors (id_hash, deleted_at) VALUES (?, ?) ON CONFLICT (id_hash) DO UPDATE SET deleted_at = excluded.deleted_at',
    ),
    isDeleted: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM deleted_visitors WHERE id_hash = ?'),
    forgetDeleted: db.prepare<[number]>('DELETE FROM deleted_visitors WHERE deleted_at < ?'),
  };

  const deleteVisitor = db.transaction((clientId: string, tombstone: Tombstone) => {
    q.tombstone.run(tombstone.idHash, tombstone.at);
    const files = [
      ...v.fileMessages.all(clientId, clientId).flatMap(rows.storedFilesOfMessage),
      ...v.complaints.all(clientId).flatMap(rows.storedFilesOfComplaint),
      ...v.files.all(clientId).map((f) => f.stored_name),
    ];
    const uploads = v.uploads.all(clientId);
    files.push(...uploads.flatMap((u) => rows.storedFilesIn(u.file_url)));
    const counters = rows.visitorConversationKeys(clientId, v.places.all(clientId, clientId));
    const d = v.delete;
    const deleted: DeletedRows = {};
    const count = (table: string, n: number): void => rows.countDeleted(deleted, table, n);
    count('group_reads', d.ownReads.run(clientId).changes + d.readsOfSent.run(clientId).changes);
    count('messages', d.messages.run(clientId).changes + d.groupMessages.run(clientId).changes);
    for (const conv of counters) count('conversation_seq', d.counter.run(conv).changes);
    count('session_transfers', d.transfers.run(clientId).changes);
    count('sessions', d.sessions.run(clientId).changes);
    count('complaints', d.complaints.run(clientId).changes);
    count('leave_messages', d.leaves.run(clientId).changes);
    count('uploads', d.uploads.run(clientId).changes);
    count('uploaded_files', d.files.run(clientId).changes);
    count('upload_usage', d.usage.run(clientId).changes);
    count('group_members', d.members.run(clientId).changes);
    count('key_sessions', d.keySessions.run(clientId).changes);
    count('visitor_arrivals', d.arrivals.run(clientId).changes);
    count('member_visitors', d.member.run(clientId).changes);
    count('visitors', d.visitor.run(clientId).changes);
    return { rows: deleted, files: [...new Set(files)], uploadIds: uploads.map((u) => u.upload_id) };
  });

  const expireBefore = db.transaction((cutoff: number, limit: number) => {
    const deleted: DeletedRows = {};
    const count = (table: string, n: number): number => {
      rows.countDeleted(deleted, table, n);
      return n;
    };
    const files: string[] = [];
    const messages = r.oldMessages.all(cutoff, limit);
    files.push(...messages.flatMap(rows.storedFilesOfMessage));
    count('group_reads', r.readsOf.run(JSON.stringify(messages.map((m) => m.fp))).changes);
    const full: boolean[] = [count('messages', r.messagesById.run(JSON.stringify(messages.map((m) => m.id))).changes) >= limit];
    full.push(count('sessions', r.endedSessions.run(cutoff, limit).changes) >= limit);
    full.push(count('sessions', r.robotSessions.run(cutoff, cutoff, limit).changes) >= limit);
    full.push(count('session_transfers', r.orphanTransfers.run(limit).changes) >= limit);
    full.push(count('member_visitors', r.orphanMembers.run(cutoff, limit).changes) >= limit);
    const complaints = r.oldComplaints.all(cutoff, limit);
    files.push(...complaints.flatMap(rows.storedFilesOfComplaint));
    full.push(count('complaints', r.complaintsByFp.run(JSON.stringify(complaints.map((c) => c.fp))).changes) >= limit);
    full.push(count('leave_messages', r.leaves.run(cutoff, limit).changes) >= limit);
    full.push(count('visitor_arrivals', r.arrivals.run(cutoff, limit).changes) >= limit);
    const uploads = r.oldUploads.all(cutoff, limit);
    files.push(...uploads.flatMap((u) => rows.storedFilesIn(u.file_url)));
    full.push(count('uploads', r.uploadsById.run(JSON.stringify(uploads.map((u) => u.upload_id))).changes) >= limit);
    return { rows: deleted, files: [...new Set(files)], more: full.some(Boolean) };
  });

  return {
    visitorRecords: (clientId) => {
      const visitor = v.visitor.get(clientId);
      return {
        visitor: visitor === undefined ? undefined : toVisitor(visitor),
        claimed: (visitor?.secret_hash ?? null) !== null,
        sessions: v.sessions.all(clientId).map(toSession),
        messages: v.messages.all(clientId, clientId).map(toMessage),
        groupMemberships: v.members.all(clientId).map(toMember),
        groupReads: v.reads.all(clientId).map((row) => ({ fp: row.fp, readAt: row.read_at })),
        complaints: v.complaints.all(clientId).map(toComplaint),
        leaveMessages: v.leaves.all(clientId).map(toLeaveMessage),
        uploadedFiles: v.files.all(clientId).map(rows.toUploadedFile),
        chunkedUploads: v.uploads.all(clientId).map(toUpload),
        keySessions: v.keySessions.get(clientId)?.n ?? 0,
        uploadUsage: v.usage.all(clientId),
        arrivals: v.arrivals.all(clientId).map(toArrival),
        member: mapRow(v.member.get(clientId), toMemberVisitor),
      };
    },
    deleteVisitor: (clientId, tombstone) => deleteVisitor(clientId, tombstone),
    isDeleted: (idHash) => q.isDeleted.get(idHash) !== undefined,
    forgetDeletedBefore: (before) => q.forgetDeleted.run(before).changes,
    addUploadedFile: (file) => {
      q.addFile.run(rows.uploadedFileRow(file));
    },
    filesInUse: (storedNames) =>
      storedNames.length === 0 ? [] : rows.namedAmong(storedNames, q.fileMessages.iterate(), q.complaintFiles.iterate()),
    uploadedFilesBefore: (before, afterName, limit) => q.filesBefore.all(before, afterName, limit).map(rows.toUploadedFile),
    deleteUploadedFile: (storedName) => q.deleteFile.run(storedName).changes === 1,
    expireBefore: (cutoff, limit) => expireBefore(cutoff, limit),
    claimRetentionRun: (run) => q.claimRun.run(run.period, run.node, run.cutoff, run.startedAt).changes === 1,
    finishRetentionRun: (period, finishedAt, deleted) => {
      q.finishRun.run(finishedAt, JSON.stringify(deleted), period);
    },
    retentionRuns: (limit) => q.runs.all(limit).map(rows.toRetentionRun),
    forgetRetentionRuns: (period) => q.forgetRuns.run(period).changes,
  };
}
