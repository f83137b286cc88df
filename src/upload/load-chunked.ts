/**
 * {@link uploadChunked} as the package exports it: the chunked upload loads on its first call.
 * @module
 */
import { lazy } from '../lazy.js';
import type { ChunkedUploadOptions } from './chunked.js';
import type { UploadedFile, UploadSource, UploadTransport } from './types.js';

const loadChunked = lazy(() => import('./chunked.js'));

/**
 * Uploads a file in chunks: `chunkInit`, then every chunk the server does not hold yet, in index
 * order (reporting progress after each), then `chunkComplete`. The code loads on the first call
 * (again after a failed load).
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
export async function uploadChunked(transport: UploadTransport, file: UploadSource, opts: ChunkedUploadOptions): Promise<UploadedFile> {
  const chunked = await loadChunked();
  return chunked.uploadChunked(transport, file, opts);
}
