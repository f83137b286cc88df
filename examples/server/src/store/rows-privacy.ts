/**
 * The rows of visitor privacy, written once for both stores (see `rows.ts` for the conventions):
 * stored files with their owners, retention runs, and the pure rules both stores follow: which
 * stored files a row names, and which conversation counters a visitor has.
 * @module
 */

import type { ColumnsOf } from './rows.js';
import { conversationKey } from './rows-chat.js';
import type { DeletedRows, RetentionRun, UploadedFile } from './privacy-types.js';

/** A row of `uploaded_files`. */
export interface UploadedFileRow {
  stored_name: string;
  owner: string;
  name: string;
  size: number;
  mime: string;
  created_at: number;
}

/** The columns a stored file is written with. */
export const UPLOADED_FILE_COLUMNS = ['stored_name', 'owner', 'name', 'size', 'mime', 'created_at'] as const satisfies ColumnsOf<UploadedFileRow>;

/** A stored file from its row. */
export const toUploadedFile = (r: UploadedFileRow): UploadedFile => ({
  storedName: r.stored_name,
  owner: r.owner,
  name: r.name,
  size: r.size,
  mime: r.mime,
  createdAt: r.created_at,
});

/** The row of a stored file. */
export const uploadedFileRow = (f: UploadedFile): UploadedFileRow => ({
  stored_name: f.storedName,
  owner: f.owner,
  name: f.name,
  size: f.size,
  mime: f.mime,
  created_at: f.createdAt,
});

/** A row of `retention_runs` (`deleted` is JSON text). */
export interface RetentionRunRow {
  period: number;
  node: string;
  cutoff: number;
  started_at: number;
  finished_at: number | null;
  deleted: string;
}

/** A retention run from its row. */
export function toRetentionRun(r: RetentionRunRow): RetentionRun {
  let deleted: DeletedRows = {};
  try {
    const parsed: unknown = JSON.parse(r.deleted);
    if (typeof parsed === 'object' && parsed !== null) {
      deleted = Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === 'number'));
    }
  } catch {
    // a row written by hand: no counts
  }
  return { period: r.period, node: r.node, cutoff: r.cutoff, startedAt: r.started_at, finishedAt: r.finished_at, deleted };
}

/** The message types whose `dataContent` names an uploaded file (image: the URL; file, video: JSON with `url`). */
export const FILE_MESSAGE_TYPES = [101, 102, 103] as const;

/** A stored file's name in a `/files/` URL (what `FileStore.storedName` makes: no slash, no leading dot). */
const FILE_IN_URL = /\/files\/([A-Za-z0-9][A-Za-z0-9._-]{0,254})/g;

/** The stored files a text names through `/files/<name>` URLs (absolute or not), each once. */
export function storedFilesIn(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(FILE_IN_URL)].map((m) => m[1] ?? '').filter((name) => name !== ''))];
}

/** The stored files a message names: those of an image, file or video message; none for any other type. */
export function storedFilesOfMessage(row: { type: number; data_content: string }): string[] {
  return (FILE_MESSAGE_TYPES as readonly number[]).includes(row.type) ? storedFilesIn(row.data_content) : [];
}

/** The stored files a complaint names (its images, JSON text, and its video). */
export function storedFilesOfComplaint(row: { images: string; video: string | null }): string[] {
  return [...new Set([...storedFilesIn(row.images), ...storedFilesIn(row.video)])];
}

/**
 * The ones of `asked` that the rows name (file messages' content, complaints' images and video),
 * in the order asked.
 */
export function namedAmong(
  asked: readonly string[],
  messages: Iterable<{ type: number; data_content: string }>,
  complaints: Iterable<{ images: string; video: string | null }>,
): string[] {
  const wanted = new Set(asked);
  const found = new Set<string>();
  const look = (names: string[]): void => {
    for (const name of names) if (wanted.has(name)) found.add(name);
  };
  for (const row of messages) if (found.size < wanted.size) look(storedFilesOfMessage(row));
  for (const row of complaints) if (found.size < wanted.size) look(storedFilesOfComplaint(row));
  return asked.filter((name) => found.has(name));
}

/**
 * The conversation counters (`conversation_seq.conv`) of a visitor: one per merchant platform it
 * has messages or sessions with.
 */
export function visitorConversationKeys(clientId: string, places: readonly { mch_id: string; platform_id: string }[]): string[] {
  return [...new Set(places.map((p) => conversationKey({ isGroup: 0, groupId: null, clientId, mchId: p.mch_id, platformId: p.platform_id })))];
}

/** Adds `n` deleted rows of `table` to `rows` (tables with none are left out). */
export function countDeleted(rows: DeletedRows, table: string, n: number): void {
  if (n > 0) rows[table] = (rows[table] ?? 0) + n;
}
