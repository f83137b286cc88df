/**
 * The rows of complaints, left messages, chunked uploads and stored agents, written once for both
 * stores: row types, mappers both ways and column lists (see `rows.ts` for the conventions).
 * @module
 */

import type { ColumnsOf } from './rows.js';
import type { Complaint, LeaveMessage, StoredAgent, UploadRecord } from './types.js';

/** A row of `complaints` (`images` is JSON text). */
export interface ComplaintRow {
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

/** The columns a complaint is written with. */
export const COMPLAINT_COLUMNS = [
  'fp', 'client_id', 'mch_id', 'platform_id', 'account', 'description', 'occurred_at', 'images', 'video', 'created_at',
] as const satisfies ColumnsOf<ComplaintRow>;

/** A complaint's image list: the strings of a JSON array, or none. */
function parseImages(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** A complaint from its row. */
export const toComplaint = (r: ComplaintRow): Complaint => ({
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

/** The row of a complaint. */
export const complaintRow = (c: Complaint): ComplaintRow => ({
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

/** A row of `leave_messages`. */
export interface LeaveMessageRow {
  fp: string;
  client_id: string;
  mch_id: string;
  platform_id: string;
  contact: string;
  content: string;
  name: string;
  created_at: number;
}

/** The columns a left message is written with. */
export const LEAVE_MESSAGE_COLUMNS = [
  'fp', 'client_id', 'mch_id', 'platform_id', 'contact', 'content', 'name', 'created_at',
] as const satisfies ColumnsOf<LeaveMessageRow>;

/** A left message from its row. */
export const toLeaveMessage = (r: LeaveMessageRow): LeaveMessage => ({
  fp: r.fp,
  clientId: r.client_id,
  mchId: r.mch_id,
  platformId: r.platform_id,
  contact: r.contact,
  content: r.content,
  name: r.name,
  createdAt: r.created_at,
});

/** The row of a left message. */
export const leaveMessageRow = (m: LeaveMessage): LeaveMessageRow => ({
  fp: m.fp,
  client_id: m.clientId,
  mch_id: m.mchId,
  platform_id: m.platformId,
  contact: m.contact,
  content: m.content,
  name: m.name,
  created_at: m.createdAt,
});

/** A row of `uploads`. */
export interface UploadRow {
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

/** The columns an upload is written with. */
export const UPLOAD_COLUMNS = [
  'upload_id', 'client_key', 'file_name', 'file_size', 'mime', 'chunk_size', 'chunk_count', 'created_at', 'file_url',
] as const satisfies ColumnsOf<UploadRow>;

/** An upload from its row. */
export const toUpload = (r: UploadRow): UploadRecord => ({
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

/** The row of an upload. */
export const uploadRow = (u: UploadRecord): UploadRow => ({
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

/** A row of `agents`. */
export interface AgentRow {
  account: string;
  name: string;
  password_hash: string;
  /** Merchant ids, comma-separated (ids hold no comma). */
  merchants: string;
  created_at: number;
}

/** The columns a stored agent is written with. */
export const AGENT_COLUMNS = ['account', 'name', 'password_hash', 'merchants', 'created_at'] as const satisfies ColumnsOf<AgentRow>;

/** A stored agent from its row. */
export const toAgent = (r: AgentRow): StoredAgent => ({
  account: r.account,
  name: r.name,
  passwordHash: r.password_hash,
  merchants: r.merchants.split(',').filter((id) => id !== ''),
  createdAt: r.created_at,
});

/** The row of a stored agent. */
export const agentRow = (a: StoredAgent): AgentRow => ({
  account: a.account,
  name: a.name,
  password_hash: a.passwordHash,
  merchants: a.merchants.join(','),
  created_at: a.createdAt,
});
