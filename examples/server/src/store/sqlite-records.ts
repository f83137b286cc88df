/**
 * {@link RecordRepo} on better-sqlite3: complaints, left messages, chunked uploads.
 * @module
 */

import type Database from 'better-sqlite3';
import { mapRow } from './rows.js';
import * as rows from './rows-records.js';
import { insertInto } from './sqlite-params.js';
import type { RecordRepo } from './types.js';

/**
 * Creates the record repository.
 * @internal
 */
export function sqliteRecordRepo(db: Database.Database): RecordRepo {
  const q = {
    addComplaint: db.prepare<rows.ComplaintRow>(`${insertInto('complaints', rows.COMPLAINT_COLUMNS)} ON CONFLICT (fp) DO NOTHING`),
    complaint: db.prepare<[string], rows.ComplaintRow>('SELECT * FROM complaints WHERE fp = ?'),
    complaints: db.prepare<[string], rows.ComplaintRow>('SELECT * FROM complaints WHERE client_id = ? ORDER BY created_at'),
    addLeave: db.prepare<rows.LeaveMessageRow>(`${insertInto('leave_messages', rows.LEAVE_MESSAGE_COLUMNS)} ON CONFLICT (fp) DO NOTHING`),
    leave: db.prepare<[string], rows.LeaveMessageRow>('SELECT * FROM leave_messages WHERE fp = ?'),
    leaves: db.prepare<[string], rows.LeaveMessageRow>('SELECT * FROM leave_messages WHERE client_id = ? ORDER BY created_at'),
    putUpload: db.prepare<rows.UploadRow>(`${insertInto('uploads', rows.UPLOAD_COLUMNS)} ON CONFLICT (upload_id) DO UPDATE SET file_url = excluded.file_url`),
    upload: db.prepare<[string], rows.UploadRow>('SELECT * FROM uploads WHERE upload_id = ?'),
    resumable: db.prepare<[string, string, number, string], rows.UploadRow>(
      `SELECT * FROM uploads WHERE client_key = ? AND file_name = ? AND file_size = ? AND mime = ? AND file_url IS NULL
       ORDER BY created_at DESC LIMIT 1`,
    ),
    deleteUpload: db.prepare<[string]>('DELETE FROM uploads WHERE upload_id = ?'),
    stale: db.prepare<[number], rows.UploadRow>('SELECT * FROM uploads WHERE file_url IS NULL AND created_at < ?'),
  };
  return {
    addComplaint: (c) => {
      q.addComplaint.run(rows.complaintRow(c));
      return mapRow(q.complaint.get(c.fp), rows.toComplaint) ?? c;
    },
    complaints: (clientId) => q.complaints.all(clientId).map(rows.toComplaint),
    addLeaveMessage: (m) => {
      q.addLeave.run(rows.leaveMessageRow(m));
      return mapRow(q.leave.get(m.fp), rows.toLeaveMessage) ?? m;
    },
    leaveMessages: (clientId) => q.leaves.all(clientId).map(rows.toLeaveMessage),
    putUpload: (u) => {
      q.putUpload.run(rows.uploadRow(u));
    },
    upload: (uploadId) => mapRow(q.upload.get(uploadId), rows.toUpload),
    resumableUpload: (clientKey, fileName, fileSize, mime) => mapRow(q.resumable.get(clientKey, fileName, fileSize, mime), rows.toUpload),
    deleteUpload: (uploadId) => {
      q.deleteUpload.run(uploadId);
    },
    staleUploads: (before) => q.stale.all(before).map(rows.toUpload),
  };
}
