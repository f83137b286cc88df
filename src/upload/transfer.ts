/**
 * The network half of the uploader: one file up, in one request or in chunks. Loaded on the first
 * upload (a dynamic import from {@link Uploader}), so that a visitor who never sends a file never
 * loads it.
 * @module
 * @internal
 */
import { raceAbort } from './abortable.js';
import { uploadChunked } from './chunked.js';
import type { UploadedFile, UploadProgress, UploadSource, UploadTransport } from './types.js';

/** What {@link transferFile} needs. @internal */
export interface TransferOptions {
  /** Chunk size proposed to the server, bytes. */
  chunkSize: number;
  /** Above this size the file goes up in chunks. */
  chunkThreshold: number;
  /** Aborts the upload. */
  signal: AbortSignal;
  /** Progress of a chunked upload. */
  onProgress: (p: UploadProgress) => void;
}

/**
 * Uploads one file: chunked above `chunkThreshold`, else in one request; checks the answer.
 * @throws Error when the server answers without a file URL, or the transport's error
 * @internal
 */
export async function transferFile(transport: UploadTransport, file: UploadSource, opts: TransferOptions): Promise<UploadedFile> {
  const { chunkSize, chunkThreshold, signal, onProgress } = opts;
  const up =
    file.size > chunkThreshold
      ? await uploadChunked(transport, file, { chunkSize, signal, onProgress })
      : await raceAbort(transport.uploadFile(file, file.name, { signal }), signal);
  if (typeof up !== 'object' || up === null || typeof up.url !== 'string' || up.url === '') {
    throw new Error('Upload: the server answered without a file URL');
  }
  return up;
}

export { uploadChunked };
