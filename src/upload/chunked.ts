/**
 * Chunked upload (docs/protocol.md §4): init, the missing chunks in order, complete. The server's
 * init answer lists the chunks it already holds, which is how an interrupted upload resumes.
 * @module
 */
import { raceAbort, uploadCancelledError } from './abortable.js';
import { isUploadSource, mimeOf } from './file-type.js';
import { assertSize, splitIntoChunks } from './chunk-ranges.js';
import type { ChunkInitResult, UploadedFile, UploadProgress, UploadSource, UploadTransport } from './types.js';

export { splitIntoChunks } from './chunk-ranges.js';
export type { ChunkRange } from './chunk-ranges.js';

/** Options of {@link uploadChunked}. */
export interface ChunkedUploadOptions {
  /** The chunk size to propose to the server, bytes (the server's answer wins). */
  chunkSize: number;
  /** Aborts the upload: the server's parts are deleted and the promise rejects. */
  signal?: AbortSignal;
  /** Called after init (with what the server already holds) and after each chunk. */
  onProgress?: (p: UploadProgress) => void;
}

/** Checks the shape of the server's init answer. */
function checkInit(answer: ChunkInitResult, fileSize: number): ChunkInitResult {
  const ok =
    typeof answer === 'object' &&
    answer !== null &&
    typeof answer.uploadId === 'string' &&
    answer.uploadId !== '' &&
    Number.isSafeInteger(answer.chunkSize) &&
    answer.chunkSize > 0;
  if (!ok) throw new Error('Chunked upload: the server answered init without a valid uploadId and chunkSize');
  const count = splitIntoChunks(fileSize, answer.chunkSize).length;
  if (typeof answer.chunkCount === 'number' && answer.chunkCount !== count) {
    throw new Error(`Chunked upload: the server expects ${answer.chunkCount} chunks, the file makes ${count}`);
  }
  return answer;
}

/**
 * Uploads a file in chunks: `chunkInit`, then every chunk the server does not hold yet, in index
 * order (reporting progress after each), then `chunkComplete`.
 *
 * A failed chunk rejects with the transport's error and leaves the server's parts in place, so
 * calling again resumes. Aborting through `opts.signal` rejects at once with a
 * `RequestCancelledError` (without waiting for the pending request) and asks the server to delete
 * the parts (`chunkAbort`, whose own failure is ignored).
 * @param transport - the upload calls
 * @param file - the file; its `name` (or `blob`) and type (guessed from the name when empty) are sent
 * @param opts - chunk size, abort signal, progress callback
 * @returns the uploaded file as the server describes it
 */
export async function uploadChunked(
  transport: UploadTransport,
  file: UploadSource,
  opts: ChunkedUploadOptions,
): Promise<UploadedFile> {
  if (!isUploadSource(file)) throw new TypeError('uploadChunked: file must be a Blob or File');
  assertSize(opts.chunkSize, 'chunkSize', 1);
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw uploadCancelledError();
  const total = file.size;
  const initCall = transport.chunkInit({
    fileName: file.name || 'blob',
    fileSize: total,
    mime: mimeOf(file),
    chunkSize: opts.chunkSize,
  });

  let uploadId: string | null = null;
  let abortSent = false;
  const sendAbort = (): void => {
    if (abortSent) return;
    abortSent = true;
    // Once the init answer is known; an init still in flight is aborted when it lands.
    void initCall
      .then((init) => transport.chunkAbort({ uploadId: uploadId ?? init.uploadId }))
      .catch(() => undefined);
  };
  signal?.addEventListener('abort', sendAbort, { once: true });

  try {
    const init = checkInit(await raceAbort(initCall, signal), total);
    uploadId = init.uploadId;
    const held = new Set(Array.isArray(init.uploaded) ? init.uploaded : []);
    const chunks = splitIntoChunks(total, init.chunkSize);
    let loaded = chunks.filter((c) => held.has(c.index)).reduce((sum, c) => sum + (c.end - c.start), 0);
    onProgress?.({ loaded, total });
    for (const c of chunks) {
      if (held.has(c.index)) continue;
      const chunk = file.slice(c.start, c.end);
      await raceAbort(transport.chunkUpload({ uploadId, index: c.index, chunk }, signal ? { signal } : undefined), signal);
      loaded += c.end - c.start;
      onProgress?.({ loaded, total });
    }
    const done = await raceAbort(transport.chunkComplete({ uploadId }), signal);
    return done;
  } catch (error) {
    // An abort that raced a settled call still cancels (and deletes the parts).
    if (signal?.aborted) {
      sendAbort();
      throw uploadCancelledError();
    }
    throw error;
  } finally {
    signal?.removeEventListener('abort', sendAbort);
  }
}
