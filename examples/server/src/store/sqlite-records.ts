/**
 * {@link RecordRepo} on better-sqlite3: complaints, left messages, chunked uploads.
 * @module
 */

import type Database from 'better-sqlite3';
import { mapRow } from './rows.js';
import {
  COMPLAINT_COLUMNS,
  complaintRow,
  LEAVE_MESSAGE_COLUMNS,
  leaveMessageRow,
  toComplaint,
  toLeaveMessage,
  toUpload,
  UPLOAD_COLUMNS,
  uploadRow,
  type ComplaintRow,
  type LeaveMessageRow,
  type UploadRow,
} from './rows-records.js';
import { insertInto } from './sqlite-params.js';
import type { RecordRepo } from './types.js';

/**
 * Creates the record repository.
 * @internal
 */
export function sqliteRecordRepo(db: Database.Database): RecordRepo {
  const q = {
    addComplaint: db.prepare<ComplaintRow>(`${insertInto('complaints', COMPLAINT_COLUMNS)} ON CONFLICT (fp) DO NOTHING`),
    complaint: db.prepare<[string], ComplaintRow>('SELECT * FROM complaints WHERE fp = ?'),
    complaints: db.prepare<[string], ComplaintRow>('SELECT * FROM complaints WHERE client_id = ? ORDER BY created_at'),
    addLeave: db.prepare<LeaveMessageRow>(`${insertInto('leave_messages', LEAVE_MESSAGE_COLUMNS)} ON CONFLICT (fp) DO NOTHING`),
    leave: db.prepare<[string], LeaveMessageRow>('SELECT * FROM leave_messages WHERE fp = ?'),
    leaves: db.prepare<[string], LeaveMessageRow>('SELECT * FROM leave_messages WHERE client_id = ? ORDER BY created_at'),
    putUpload: db.prepare<UploadRow>(`${insertInto('uploads', UPLOAD_COLUMNS)} ON CONFLICT (upload_id) DO UPDATE SET file_url = excluded.file_url`),
    upload: db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE upload_id = ?'),
    resumable: db.prepare<[string, string, number, string], UploadRow>(
      `SELECT * FROM uploads WHERE client_key = ? AND file_name = ? AND file_size = ? AND mime = ? AND file_url IS NULL
       ORDER BY created_at DESC LIMIT 1`,
    ),
    deleteUpload: db.prepare<[string]>('DELETE FROM uploads WHERE upload_id = ?'),
    stale: db.prepare<[number], UploadRow>('SELECT * FROM uploads WHERE file_url IS NULL AND created_at < ?'),
  };
  return {
    addComplaint: (c) => {
      q.addComplaint.run(complaintRow(c));
      return mapRow(q.complaint.get(c.fp), toComplaint) ?? c;
    },
    complaints: (clientId) => q.complaints.all(clientId).map(toComplaint),
    addLeaveMessage: (m) => {
      q.addLeave.run(leaveMessageRow(m));
      return mapRow(q.leave.get(m.fp), toLeaveMessage) ?? m;
    },
    leaveMessages: (clientId) => q.leaves.all(clientId).map(toLeaveMessage),
    putUpload: (u) => {
      q.putUpload.run(uploadRow(u));
    },
    upload: (uploadId) => mapRow(q.upload.get(uploadId), toUpload),
    resumableUpload: (clientKey, fileName, fileSize, mime) => mapRow(q.resumable.get(clientKey, fileName, fileSize, mime), toUpload),
    deleteUpload: (uploadId) => {
      q.deleteUpload.run(uploadId);
    },
    staleUploads: (before) => q.stale.all(before).map(toUpload),
  };
}
