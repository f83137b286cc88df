/**
 * {@link RecordRepo} on PostgreSQL: complaints, left messages, chunked uploads, with the same
 * answers as `sqlite-records.ts`. Every statement is parameterised.
 * @module
 */

import { insertInto } from './pg-params.js';
import { allRows, firstRow, type Queryable, type Row } from './pg-queryable.js';
import { type ColumnsOf, mapRow, rowValues } from './rows.js';
import * as rows from './rows-records.js';
import type { Async, RecordRepo } from './types.js';

/**
 * Inserts a row whose `fp` ($1, its first column) may be known, and answers the stored row: the
 * new one, or the one stored before.
 */
function addOnce<R extends Row & { fp: string }>(db: Queryable, table: string, columns: ColumnsOf<R>, row: R): Promise<R | undefined> {
  return firstRow<R>(
    db,
    `WITH added AS (${insertInto(table, columns)} ON CONFLICT (fp) DO NOTHING RETURNING *)
     SELECT * FROM added UNION ALL SELECT * FROM ${table} WHERE fp = $1 LIMIT 1`,
    rowValues(row, columns),
  );
}

/**
 * Creates the record repository over a queryable.
 * @internal
 */
export function pgRecordRepo(db: Queryable): Async<RecordRepo> {
  return {
    addComplaint: async (c) => mapRow(await addOnce(db, 'complaints', rows.COMPLAINT_COLUMNS, rows.complaintRow(c)), rows.toComplaint) ?? c,
    complaints: async (clientId) =>
      (await allRows<rows.ComplaintRow>(db, 'SELECT * FROM complaints WHERE client_id = $1 ORDER BY created_at', [clientId])).map(rows.toComplaint),
    addLeaveMessage: async (m) => mapRow(await addOnce(db, 'leave_messages', rows.LEAVE_MESSAGE_COLUMNS, rows.leaveMessageRow(m)), rows.toLeaveMessage) ?? m,
    leaveMessages: async (clientId) =>
      (await allRows<rows.LeaveMessageRow>(db, 'SELECT * FROM leave_messages WHERE client_id = $1 ORDER BY created_at', [clientId])).map(rows.toLeaveMessage),
    putUpload: async (u) => {
      await db.query(
        `${insertInto('uploads', rows.UPLOAD_COLUMNS)} ON CONFLICT (upload_id) DO UPDATE SET file_url = EXCLUDED.file_url`,
        rowValues(rows.uploadRow(u), rows.UPLOAD_COLUMNS),
      );
    },
    upload: async (uploadId) => mapRow(await firstRow<rows.UploadRow>(db, 'SELECT * FROM uploads WHERE upload_id = $1', [uploadId]), rows.toUpload),
    resumableUpload: async (clientKey, fileName, fileSize, mime) =>
      mapRow(
        await firstRow<rows.UploadRow>(
          db,
          `SELECT * FROM uploads WHERE client_key = $1 AND file_name = $2 AND file_size = $3 AND mime = $4 AND file_url IS NULL
           ORDER BY created_at DESC LIMIT 1`,
          [clientKey, fileName, fileSize, mime],
        ),
        rows.toUpload,
      ),
    deleteUpload: async (uploadId) => {
      await db.query('DELETE FROM uploads WHERE upload_id = $1', [uploadId]);
    },
    staleUploads: async (before) =>
      (await allRows<rows.UploadRow>(db, 'SELECT * FROM uploads WHERE file_url IS NULL AND created_at < $1', [before])).map(rows.toUpload),
  };
}
