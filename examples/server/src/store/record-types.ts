/**
 * The records' storage shapes: complaints, left messages and chunked uploads, kept out of
 * `types.ts` for size (re-exported there).
 * @module
 */

/** A complaint (createMsg type 400). */
export interface Complaint {
  fp: string;
  clientId: string;
  mchId: string;
  platformId: string;
  account: string;
  description: string;
  occurredAt: number;
  images: string[];
  video: string | null;
  createdAt: number;
}

/** A left message (createMsg type 401). */
export interface LeaveMessage {
  fp: string;
  clientId: string;
  mchId: string;
  platformId: string;
  contact: string;
  content: string;
  name: string;
  createdAt: number;
}

/** A chunked upload in progress or completed. */
export interface UploadRecord {
  uploadId: string;
  /** Who started it (salt key or address): resuming is per client. */
  clientKey: string;
  fileName: string;
  fileSize: number;
  mime: string;
  chunkSize: number;
  chunkCount: number;
  createdAt: number;
  /** Set once completed. */
  fileUrl: string | null;
}

/** Complaints, left messages and uploads. */
export interface RecordRepo {
  /** Stores a complaint; returns the stored one (the existing one when the fp is known). */
  addComplaint(complaint: Complaint): Complaint;
  complaints(clientId: string): Complaint[];
  addLeaveMessage(message: LeaveMessage): LeaveMessage;
  leaveMessages(clientId: string): LeaveMessage[];
  putUpload(upload: UploadRecord): void;
  upload(uploadId: string): UploadRecord | undefined;
  resumableUpload(clientKey: string, fileName: string, fileSize: number, mime: string): UploadRecord | undefined;
  deleteUpload(uploadId: string): void;
  /** Unfinished uploads created before `before`. */
  staleUploads(before: number): UploadRecord[];
}
