/**
 * {@link PrivacyRepo} on PostgreSQL, with the same answers as `sqlite-privacy.ts`: a visitor's
 * export and deletion, stored files with their owners, and retention in batches. Every statement
 * is parameterised; every deletion is atomic ({@link Queryable.atomic}).
 * @module
 */

import { insertInto } from './pg-params.js';
import { allRows, changedRows, firstRow, type Queryable } from './pg-queryable.js';
import { mapRow, rowValues } from './rows.js';
import { toMemberVisitor, type MemberVisitorRow } from './rows-members.js';
import { toMessage, toSession, toVisitor, type MessageRow, type SessionRow, type VisitorRow } from './rows-chat.js';
import { toArrival, type ArrivalRow } from './rows-desk.js';
import { toMember, type MemberRow } from './rows-directory.js';
import { toComplaint, toLeaveMessage, toUpload, type ComplaintRow, type LeaveMessageRow, type UploadRow } from './rows-records.js';
import * as rows from './rows-privacy.js';
import type { DeletedRows, ExpiredBatch, PrivacyRepo, Tombstone, VisitorDeletion, VisitorRecords } from './privacy-types.js';
import type { Async } from './types.js';

const FILE_TYPES = rows.FILE_MESSAGE_TYPES.join(', ');

async function visitorRecords(db: Queryable, id: string): Promise<VisitorRecords> {
  const visitor = await firstRow<VisitorRow & { secret_hash: string | null }>(db, 'SELECT * FROM visitors WHERE client_id = $1', [id]);
  const all = <R extends object>(sql: string): Promise<R[]> => allRows<R>(db, sql, [id]);
  return {
    visitor: visitor === undefined ? undefined : toVisitor(visitor),
    claimed: (visitor?.secret_hash ?? null) !== null,
    sessions: (await all<SessionRow>('SELECT * FROM sessions WHERE client_id = $1 ORDER BY created_at, row_order')).map(toSession),
    messages: (
      await all<MessageRow>(
        `SELECT * FROM messages WHERE client_id = $1
         UNION SELECT * FROM messages WHERE is_group = 1 AND from_id = $1
         ORDER BY create_time, id`,
      )
    ).map(toMessage),
    groupMemberships: (await all<MemberRow>('SELECT * FROM group_members WHERE client_id = $1 ORDER BY joined_at, group_id')).map(toMember),
    groupReads: (await all<{ fp: string; read_at: number }>('SELECT fp, read_at FROM group_reads WHERE client_id = $1 ORDER BY read_at, fp')).map(
      (r) => ({ fp: r.fp, readAt: r.read_at }),
    ),
    complaints: (await all<ComplaintRow>('SELECT * FROM complaints WHERE client_id = $1 ORDER BY created_at, fp')).map(toComplaint),
    leaveMessages: (await all<LeaveMessageRow>('SELECT * FROM leave_messages WHERE client_id = $1 ORDER BY created_at, fp')).map(toLeaveMessage),
    uploadedFiles: (await all<rows.UploadedFileRow>('SELECT * FROM uploaded_files WHERE owner = $1 ORDER BY created_at, stored_name')).map(
      rows.toUploadedFile,
    ),
    chunkedUploads: (await all<UploadRow>('SELECT * FROM uploads WHERE client_key = $1 ORDER BY created_at, upload_id')).map(toUpload),
    keySessions: (await firstRow<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM key_sessions WHERE bound_to = $1', [id]))?.n ?? 0,
    uploadUsage: await all<{ day: string; bytes: number }>('SELECT day, bytes FROM upload_usage WHERE identity = $1 ORDER BY day'),
    arrivals: (await all<ArrivalRow>('SELECT * FROM visitor_arrivals WHERE client_id = $1 ORDER BY arrived_at, mch_id, platform_id')).map(toArrival),
    member: mapRow(await firstRow<MemberVisitorRow>(db, 'SELECT * FROM member_visitors WHERE client_id = $1', [id]), toMemberVisitor),
  };
}

async function deleteVisitor(q: Queryable, id: string, tombstone: Tombstone): Promise<VisitorDeletion> {
  await q.query(
    'INSERT INTO deleted_visitors (id_hash, deleted_at) VALUES ($1, $2) ON CONFLICT (id_hash) DO UPDATE SET deleted_at = EXCLUDED.deleted_at',
    [tombstone.idHash, tombstone.at],
  );
  const all = <R extends object>(sql: string): Promise<R[]> => allRows<R>(q, sql, [id]);
  const files = [
    ...(
      await all<{ type: number; data_content: string }>(
        `SELECT type, data_content FROM messages WHERE client_id = $1 AND type IN (${FILE_TYPES})
         UNION ALL SELECT type, data_content FROM messages WHERE is_group = 1 AND from_id = $1 AND type IN (${FILE_TYPES})`,
      )
    ).flatMap(rows.storedFilesOfMessage),
    ...(await all<{ images: string; video: string | null }>('SELECT images, video FROM complaints WHERE client_id = $1')).flatMap(
      rows.storedFilesOfComplaint,
    ),
    ...(await all<{ stored_name: string }>('SELECT stored_name FROM uploaded_files WHERE owner = $1')).map((f) => f.stored_name),
  ];
  const uploads = await all<{ upload_id: string; file_url: string | null }>('SELECT upload_id, file_url FROM uploads WHERE client_key = $1');
  files.push(...uploads.flatMap((u) => rows.storedFilesIn(u.file_url)));
  const places = await all<{ mch_id: string; platform_id: string }>(
    'SELECT mch_id, platform_id FROM messages WHERE client_id = $1 UNION SELECT mch_id, platform_id FROM sessions WHERE client_id = $1',
  );
  const deleted: DeletedRows = {};
  const run = async (table: string, sql: string, param: unknown = id): Promise<void> => {
    rows.countDeleted(deleted, table, await changedRows(q, sql, [param]));
  };
  await run('group_reads', 'DELETE FROM group_reads WHERE client_id = $1');
  await run('group_reads', 'DELETE FROM group_reads WHERE fp IN (SELECT fp FROM messages WHERE is_group = 1 AND from_id = $1)');
  await run('messages', 'DELETE FROM messages WHERE client_id = $1');
  await run('messages', 'DELETE FROM messages WHERE is_group = 1 AND from_id = $1');
  await run('conversation_seq', 'DELETE FROM conversation_seq WHERE conv = ANY($1::text[])', rows.visitorConversationKeys(id, places));
  await run('session_transfers', 'DELETE FROM session_transfers WHERE session_id IN (SELECT session_id FROM sessions WHERE client_id = $1)');
  await run('sessions', 'DELETE FROM sessions WHERE client_id = $1');
  await run('complaints', 'DELETE FROM complaints WHERE client_id = $1');
  await run('leave_messages', 'DELETE FROM leave_messages WHERE client_id = $1');
  await run('uploads', 'DELETE FROM uploads WHERE client_key = $1');
  await run('uploaded_files', 'DELETE FROM uploaded_files WHERE owner = $1');
  await run('upload_usage', 'DELETE FROM upload_usage WHERE identity = $1');
  await run('group_members', 'DELETE FROM group_members WHERE client_id = $1');
  await run('key_sessions', 'DELETE FROM key_sessions WHERE bound_to = $1');
  await run('visitor_arrivals', 'DELETE FROM visitor_arrivals WHERE client_id = $1');
  await run('member_visitors', 'DELETE FROM member_visitors WHERE client_id = $1');
  await run('visitors', 'DELETE FROM visitors WHERE client_id = $1');
  return { rows: deleted, files: [...new Set(files)], uploadIds: uploads.map((u) => u.upload_id) };
}

async function expireBefore(q: Queryable, cutoff: number, limit: number): Promise<ExpiredBatch> {
  const deleted: DeletedRows = {};
  const full: boolean[] = [];
  const files: string[] = [];
  const count = (table: string, n: number): void => {
    rows.countDeleted(deleted, table, n);
    full.push(n >= limit);
  };
  const messages = await allRows<{ fp: string; type: number; data_content: string }>(
    q,
    `DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE create_time < $1 ORDER BY create_time LIMIT $2)
     RETURNING fp, type, data_content`,
    [cutoff, limit],
  );
  files.push(...messages.flatMap(rows.storedFilesOfMessage));
  rows.countDeleted(deleted, 'group_reads', await changedRows(q, 'DELETE FROM group_reads WHERE fp = ANY($1::text[])', [messages.map((m) => m.fp)]));
  count('messages', messages.length);
  count(
    'sessions',
    await changedRows(
      q,
      "DELETE FROM sessions WHERE session_id IN (SELECT session_id FROM sessions WHERE state = 'ended' AND ended_at < $1 LIMIT $2)",
      [cutoff, limit],
    ),
  );
  count(
    'sessions',
    await changedRows(
      q,
      `DELETE FROM sessions WHERE session_id IN (
         SELECT session_id FROM sessions s WHERE s.state = 'robot' AND s.created_at < $1
           AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.session_id AND m.create_time >= $1)
         LIMIT $2)`,
      [cutoff, limit],
    ),
  );
  // what belonged to a deleted session: the old agent's record of its transfer
  count(
    'session_transfers',
    await changedRows(
      q,
      `DELETE FROM session_transfers WHERE (session_id, from_agent) IN (
         SELECT session_id, from_agent FROM session_transfers t WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = t.session_id) LIMIT $1)`,
      [limit],
    ),
  );
  // a member whose visitor row is gone (its connect was refused after the member was made),
  // verified before the cutoff (a connect under way is not yet admitted)
  count(
    'member_visitors',
    await changedRows(
      q,
      `DELETE FROM member_visitors WHERE (mch_id, sub) IN (
         SELECT mch_id, sub FROM member_visitors m WHERE m.verified_at < $1
           AND NOT EXISTS (SELECT 1 FROM visitors v WHERE v.client_id = m.client_id) LIMIT $2)`,
      [cutoff, limit],
    ),
  );
  const complaints = await allRows<{ images: string; video: string | null }>(
    q,
    'DELETE FROM complaints WHERE fp IN (SELECT fp FROM complaints WHERE created_at < $1 LIMIT $2) RETURNING images, video',
    [cutoff, limit],
  );
  files.push(...complaints.flatMap(rows.storedFilesOfComplaint));
  count('complaints', complaints.length);
  count(
    'leave_messages',
    await changedRows(q, 'DELETE FROM leave_messages WHERE fp IN (SELECT fp FROM leave_messages WHERE created_at < $1 LIMIT $2)', [cutoff, limit]),
  );
  count(
    'visitor_arrivals',
    await changedRows(
      q,
      'DELETE FROM visitor_arrivals WHERE (client_id, mch_id, platform_id) IN (SELECT client_id, mch_id, platform_id FROM visitor_arrivals WHERE arrived_at < $1 LIMIT $2)',
      [cutoff, limit],
    ),
  );
  const uploads = await allRows<{ file_url: string | null }>(
    q,
    `DELETE FROM uploads WHERE upload_id IN (SELECT upload_id FROM uploads WHERE file_url IS NOT NULL AND created_at < $1 LIMIT $2)
     RETURNING file_url`,
    [cutoff, limit],
  );
  files.push(...uploads.flatMap((u) => rows.storedFilesIn(u.file_url)));
  count('uploads', uploads.length);
  return { rows: deleted, files: [...new Set(files)], more: full.some(Boolean) };
}

/**
 * Creates the privacy repository over a queryable.
 * @internal
 */
export function pgPrivacyRepo(db: Queryable): Async<PrivacyRepo> {
  return {
    visitorRecords: (clientId) => visitorRecords(db, clientId),
    deleteVisitor: (clientId, tombstone) => db.atomic((q) => deleteVisitor(q, clientId, tombstone)),
    isDeleted: async (idHash) => (await firstRow(db, 'SELECT 1 AS one FROM deleted_visitors WHERE id_hash = $1', [idHash])) !== undefined,
    forgetDeletedBefore: (before) => changedRows(db, 'DELETE FROM deleted_visitors WHERE deleted_at < $1', [before]),
    addUploadedFile: async (file) => {
      await db.query(
        `${insertInto('uploaded_files', rows.UPLOADED_FILE_COLUMNS)} ON CONFLICT (stored_name) DO NOTHING`,
        rowValues(rows.uploadedFileRow(file), rows.UPLOADED_FILE_COLUMNS),
      );
    },
    filesInUse: async (storedNames) => {
      if (storedNames.length === 0) return [];
      const messages = await allRows<{ type: number; data_content: string }>(
        db,
        `SELECT type, data_content FROM messages WHERE type IN (${FILE_TYPES}) AND strpos(data_content, '/files/') > 0`,
      );
      const complaints = await allRows<{ images: string; video: string | null }>(
        db,
        "SELECT images, video FROM complaints WHERE strpos(images, '/files/') > 0 OR strpos(video, '/files/') > 0",
      );
      return rows.namedAmong(storedNames, messages, complaints);
    },
    uploadedFilesBefore: async (before, afterName, limit) =>
      (
        await allRows<rows.UploadedFileRow>(
          db,
          'SELECT * FROM uploaded_files WHERE created_at < $1 AND stored_name COLLATE "C" > $2 ORDER BY stored_name COLLATE "C" LIMIT $3',
          [before, afterName, limit],
        )
      ).map(rows.toUploadedFile),
    deleteUploadedFile: async (storedName) => (await changedRows(db, 'DELETE FROM uploaded_files WHERE stored_name = $1', [storedName])) === 1,
    expireBefore: (cutoff, limit) => db.atomic((q) => expireBefore(q, cutoff, limit)),
    claimRetentionRun: async (run) =>
      (await changedRows(
        db,
        'INSERT INTO retention_runs (period, node, cutoff, started_at) VALUES ($1, $2, $3, $4) ON CONFLICT (period) DO NOTHING',
        [run.period, run.node, run.cutoff, run.startedAt],
      )) === 1,
    finishRetentionRun: async (period, finishedAt, deleted) => {
      await db.query('UPDATE retention_runs SET finished_at = $1, deleted = $2 WHERE period = $3', [finishedAt, JSON.stringify(deleted), period]);
    },
    retentionRuns: async (limit) =>
      (await allRows<rows.RetentionRunRow>(db, 'SELECT * FROM retention_runs ORDER BY period DESC LIMIT $1', [limit])).map(rows.toRetentionRun),
    forgetRetentionRuns: (period) => changedRows(db, 'DELETE FROM retention_runs WHERE period < $1', [period]),
  };
}
