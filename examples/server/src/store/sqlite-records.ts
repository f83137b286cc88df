/**
 * {@link RecordRepo} on better-sqlite3: complaints, left messages, chunked uploads.
 * @module
 */

import type Database from 'better-sqlite3';
import type { Complaint, LeaveMessage, RecordRepo, UploadRecord } from './types.js';

interface ComplaintRow {
  fp: string;
  client_id: string;
  mch_id: string;
  platform_id: string;
  account: string;
  description: string;
  occurred_at: number;
  images: string;
  video: string | null;
  created_at: number;
}
interface LeaveRow {
  fp: string;
  client_id: string;
  mch_id: string;
  platform_id: string;
  contact: string;
  content: string;
  name: string;
  created_at: number;
}
interface UploadRow {
  upload_id: string;
  client_key: string;
  file_name: string;
  file_size: number;
  mime: string;
  chunk_size: number;
  chunk_count: number;
  created_at: number;
  file_url: string | null;
}

function parseImages(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

const toComplaint = (r: ComplaintRow): Complaint => ({
  fp: r.fp,
  clientId: r.client_id,
  mchId: r.mch_id,
  platformId: r.platform_id,
  account: r.account,
  description: r.description,
  occurredAt: r.occurred_at,
  images: parseImages(r.images),
  video: r.video,
  createdAt: r.created_at,
});
const toLeave = (r: LeaveRow): LeaveMessage => ({
  fp: r.fp,
  clientId: r.client_id,
  mchId: r.mch_id,
  platformId: r.platform_id,
  contact: r.contact,
  content: r.content,
  name: r.name,
  createdAt: r.created_at,
});
const toUpload = (r: UploadRow): UploadRecord => ({
  uploadId: r.upload_id,
  clientKey: r.client_key,
  fileName: r.file_name,
  fileSize: r.file_size,
  mime: r.mime,
  chunkSize: r.chunk_size,
  chunkCount: r.chunk_count,
  createdAt: r.created_at,
  fileUrl: r.file_url,
});

/**
 * Creates the record repository.
 * @internal
 */
export function sqliteRecordRepo(db: Database.Database): RecordRepo {
  const q = {
    addComplaint: db.prepare<ComplaintRow>(
      `INSERT INTO complaints (fp, client_id, mch_id, platform_id, account, description, occurred_at, images, video, created_at)
       VALUES (@fp, @client_id, @mch_id, @platform_id, @account, @description, @occurred_at, @images, @video, @created_at)
       ON CONFLICT (fp) DO NOTHING`,
    ),
    complaint: db.prepare<[string], ComplaintRow>('SELECT * FROM complaints WHERE fp = ?'),
    complaints: db.prepare<[string], ComplaintRow>('SELECT * FROM complaints WHERE client_id = ? ORDER BY created_at'),
    addLeave: db.prepare<LeaveRow>(
      `INSERT INTO leave_messages (fp, client_id, mch_id, platform_id, contact, content, name, created_at)
       VALUES (@fp, @client_id, @mch_id, @platform_id, @contact, @content, @name, @created_at)
       ON CONFLICT (fp) DO NOTHING`,
    ),
    leave: db.prepare<[string], LeaveRow>('SELECT * FROM leave_messages WHERE fp = ?'),
    leaves: db.prepare<[string], LeaveRow>('SELECT * FROM leave_messages WHERE client_id = ? ORDER BY created_at'),
    putUpload: db.prepare<UploadRow>(
      `INSERT INTO uploads (upload_id, client_key, file_name, file_size, mime, chunk_size, chunk_count, created_at, file_url)
       VALUES (@upload_id, @client_key, @file_name, @file_size, @mime, @chunk_size, @chunk_count, @created_at, @file_url)
       ON CONFLICT (upload_id) DO UPDATE SET file_url = excluded.file_url`,
    ),
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
      q.addComplaint.run({
        fp: c.fp,
        client_id: c.clientId,
        mch_id: c.mchId,
        platform_id: c.platformId,
        account: c.account,
        description: c.description,
        occurred_at: c.occurredAt,
        images: JSON.stringify(c.images),
        video: c.video,
        created_at: c.createdAt,
      });
      const row = q.complaint.get(c.fp);
      return row ? toComplaint(row) : c;
    },
    complaints: (clientId) => q.complaints.all(clientId).map(toComplaint),
    addLeaveMessage: (m) => {
      q.addLeave.run({
        fp: m.fp,
        client_id: m.clientId,
        mch_id: m.mchId,
        platform_id: m.platformId,
        contact: m.contact,
        content: m.content,
        name: m.name,
        created_at: m.createdAt,
      });
      const row = q.leave.get(m.fp);
      return row ? toLeave(row) : m;
    },
    leaveMessages: (clientId) => q.leaves.all(clientId).map(toLeave),
    putUpload: (u) => {
      q.putUpload.run({
        upload_id: u.uploadId,
        client_key: u.clientKey,
        file_name: u.fileName,
        file_size: u.fileSize,
        mime: u.mime,
        chunk_size: u.chunkSize,
        chunk_count: u.chunkCount,
        created_at: u.createdAt,
        file_url: u.fileUrl,
      });
    },
    upload: (id) => {
      const r = q.upload.get(id);
      return r ? toUpload(r) : undefined;
    },
    resumableUpload: (clientKey, fileName, fileSize, mime) => {
      const r = q.resumable.get(clientKey, fileName, fileSize, mime);
      return r ? toUpload(r) : undefined;
    },
    deleteUpload: (id) => {
      q.deleteUpload.run(id);
    },
    staleUploads: (before) => q.stale.all(before).map(toUpload),
  };
}
