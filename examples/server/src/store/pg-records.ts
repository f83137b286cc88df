/**
 * {@link RecordRepo} on PostgreSQL: complaints, left messages, chunked uploads, with the same
 * answers as `sqlite-records.ts`. Every statement is parameterised.
 * @module
 */

import { allRows, firstRow, type Queryable } from './pg-queryable.js';
import type { Async, Complaint, LeaveMessage, RecordRepo, UploadRecord } from './types.js';

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

/** A complaint's image list: the strings of a JSON array, or none. */
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
 * Creates the record repository over a queryable.
 * @internal
 */
export function pgRecordRepo(db: Queryable): Async<RecordRepo> {
  return {
    addComplaint: async (c) => {
      // Inserts when the fp is new; either way answers the stored complaint.
      const row = await firstRow<ComplaintRow>(
        db,
        `WITH added AS (
           INSERT INTO complaints (fp, client_id, mch_id, platform_id, account, description, occurred_at, images, video, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (fp) DO NOTHING RETURNING *)
         SELECT * FROM added UNION ALL SELECT * FROM complaints WHERE fp = $1 LIMIT 1`,
        [c.fp, c.clientId, c.mchId, c.platformId, c.account, c.description, c.occurredAt, JSON.stringify(c.images), c.video, c.createdAt],
      );
      return row ? toComplaint(row) : c;
    },
    complaints: async (clientId) =>
      (await allRows<ComplaintRow>(db, 'SELECT * FROM complaints WHERE client_id = $1 ORDER BY created_at', [clientId])).map(toComplaint),
    addLeaveMessage: async (m) => {
      const row = await firstRow<LeaveRow>(
        db,
        `WITH added AS (
           INSERT INTO leave_messages (fp, client_id, mch_id, platform_id, contact, content, name, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (fp) DO NOTHING RETURNING *)
         SELECT * FROM added UNION ALL SELECT * FROM leave_messages WHERE fp = $1 LIMIT 1`,
        [m.fp, m.clientId, m.mchId, m.platformId, m.contact, m.content, m.name, m.createdAt],
      );
      return row ? toLeave(row) : m;
    },
    leaveMessages: async (clientId) =>
      (await allRows<LeaveRow>(db, 'SELECT * FROM leave_messages WHERE client_id = $1 ORDER BY created_at', [clientId])).map(toLeave),
    putUpload: async (u) => {
      await db.query(
        `INSERT INTO uploads (upload_id, client_key, file_name, file_size, mime, chunk_size, chunk_count, created_at, file_url)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (upload_id) DO UPDATE SET file_url = EXCLUDED.file_url`,
        [u.uploadId, u.clientKey, u.fileName, u.fileSize, u.mime, u.chunkSize, u.chunkCount, u.createdAt, u.fileUrl],
      );
    },
    upload: async (uploadId) => {
      const r = await firstRow<UploadRow>(db, 'SELECT * FROM uploads WHERE upload_id = $1', [uploadId]);
      return r ? toUpload(r) : undefined;
    },
    resumableUpload: async (clientKey, fileName, fileSize, mime) => {
      const r = await firstRow<UploadRow>(
        db,
        `SELECT * FROM uploads WHERE client_key = $1 AND file_name = $2 AND file_size = $3 AND mime = $4 AND file_url IS NULL
         ORDER BY created_at DESC LIMIT 1`,
        [clientKey, fileName, fileSize, mime],
      );
      return r ? toUpload(r) : undefined;
    },
    deleteUpload: async (uploadId) => {
      await db.query('DELETE FROM uploads WHERE upload_id = $1', [uploadId]);
    },
    staleUploads: async (before) =>
      (await allRows<UploadRow>(db, 'SELECT * FROM uploads WHERE file_url IS NULL AND created_at < $1', [before])).map(toUpload),
  };
}
