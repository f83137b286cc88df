/**
 * Upload records and their rules: a chunked upload belongs to the identity that started it
 * (resumable from any of its key sessions, invisible to others), and every upload counts toward
 * the identity's daily quota ({@link UploadQuota}). The bytes themselves are the file store's.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { ApiError, Code } from '../http/envelope.js';
import type { UploadedFile } from '../store/privacy-types.js';
import type { Store, UploadRecord } from '../store/types.js';
import { UploadQuota } from './upload-quota.js';

/** Smallest and largest chunk sizes; a requested size outside is clamped (the answer says which). */
export const CHUNK_BOUNDS = { min: 1024, max: 16 * 1024 * 1024 } as const;

/** A chunked upload asked for at `init`. */
export interface ChunkedUploadRequest {
  /** A cleaned file name. */
  fileName: string;
  /** Declared size in bytes. */
  fileSize: number;
  /** Checked MIME type. */
  mime: string;
  /** The chunk size the client asked for (clamped to {@link CHUNK_BOUNDS}). */
  chunkSize: number;
}

/** The upload service. */
export class Uploads {
  private readonly quota: UploadQuota;

  /**
   * @param store - storage
   * @param quotaBytesPerDay - bytes each identity may upload per UTC day
   * @param now - the wall clock
   */
  constructor(
    private readonly store: Store,
    quotaBytesPerDay: number,
    private readonly now: () => number = Date.now,
  ) {
    this.quota = new UploadQuota(store, quotaBytesPerDay, now);
  }

  /** @throws ApiError 3002 when `identity` has nothing left of today's quota. */
  requireQuota(identity: string): Promise<void> {
    return this.quota.requireSome(identity);
  }

  /**
   * Charges a saved single upload.
   * @throws ApiError 3002 (nothing charged) over the quota: the caller deletes the file.
   */
  chargeSaved(identity: string, bytes: number): Promise<void> {
    return this.quota.charge(identity, bytes);
  }

  /**
   * `init`: the caller's unfinished upload of the same file (to resume), or a new one, charged
   * its declared size.
   * @throws ApiError 3002 (nothing stored) over the quota.
   */
  async startChunked(owner: string, request: ChunkedUploadRequest): Promise<{ upload: UploadRecord; resumed: boolean }> {
    const existing = await this.store.records.resumableUpload(owner, request.fileName, request.fileSize, request.mime);
    if (existing) return { upload: existing, resumed: true };
    await this.quota.charge(owner, request.fileSize);
    const chunkSize = Math.min(Math.max(request.chunkSize, CHUNK_BOUNDS.min), CHUNK_BOUNDS.max);
    const upload: UploadRecord = {
      uploadId: randomUUID(),
      clientKey: owner,
      fileName: request.fileName,
      fileSize: request.fileSize,
      mime: request.mime,
      chunkSize,
      chunkCount: Math.ceil(request.fileSize / chunkSize),
      createdAt: this.now(),
      fileUrl: null,
    };
    await this.store.records.putUpload(upload);
    return { upload, resumed: false };
  }

  /**
   * The upload, when it belongs to `owner`.
   * @throws ApiError 3001 when unknown or aborted; 4003 when it belongs to someone else.
   */
  async owned(uploadId: string, owner: string): Promise<UploadRecord> {
    const upload = await this.store.records.upload(uploadId);
    if (!upload) throw new ApiError(Code.Upload, 'Upload failed: unknown or aborted upload');
    if (upload.clientKey !== owner) throw new ApiError(Code.Forbidden, 'Forbidden: this upload belongs to someone else');
    return upload;
  }

  /** Records that `upload` was assembled at `fileUrl` (a path under `/files/`). */
  async completed(upload: UploadRecord, fileUrl: string): Promise<UploadRecord> {
    const done = { ...upload, fileUrl };
    await this.store.records.putUpload(done);
    return done;
  }

  /** Forgets an upload; an unfinished one gives its charge back. */
  async aborted(upload: UploadRecord): Promise<void> {
    await this.store.records.deleteUpload(upload.uploadId);
    if (upload.fileUrl === null) await this.quota.refund(upload.clientKey, upload.fileSize);
  }

  /**
   * Records a finished file (a single upload, or an assembled chunked one) and who uploaded it:
   * what a visitor's export lists, its deletion and retention remove.
   */
  recordFile(file: Omit<UploadedFile, 'createdAt'>): Promise<void> {
    return this.store.privacy.addUploadedFile({ ...file, createdAt: this.now() });
  }

  /** Unfinished uploads created before `before` (housekeeping removes them with their parts). */
  stale(before: number): Promise<UploadRecord[]> {
    return this.store.records.staleUploads(before);
  }

  /** Forgets a stale upload (its parts already deleted). */
  forget(uploadId: string): Promise<void> {
    return this.store.records.deleteUpload(uploadId);
  }
}
