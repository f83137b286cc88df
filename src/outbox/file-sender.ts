/**
 * Uploading picked files (loaded on demand): the staged file is uploaded, then its message goes
 * out with the URL. Until then the file stays in the durable outbox (under a total cap), so its
 * upload restarts after a reload.
 * @module
 */
import type { ClientContext } from '../client-context.js';
import { ImError } from '../errors.js';
import type { ChatMessage, StoredMessage } from '../messages/types.js';
import { uploadChunked } from '../upload/load-chunked.js';
import type { UploadedFile } from '../upload/types.js';
import type { DurableOutbox } from './durable.js';
import { fileContent, showFile, type StagedFile } from './file-message.js';
import type { MessageSender } from './sender.js';
import type { OutboxRecord, PendingFile } from './storage.js';

/** What the file sender needs. @internal */
export type FileSenderDeps = Pick<ClientContext, 'messages' | 'events' | 'api' | 'limits'> & {
  sender: MessageSender;
  durable: DurableOutbox;
};

interface Upload extends StagedFile {
  abort: AbortController | null;
}

/** Uploads picked files and sends their messages. @internal */
export class FileSender {
  private readonly uploads = new Map<string, Upload>();
  private disposed = false;

  /** @param deps - the list, the permit API, the sender and the durable outbox */
  constructor(private readonly deps: FileSenderDeps) {}

  /** Uploads a staged file, then sends its message. */
  upload(staged: StagedFile): void {
    if (!this.disposed) this.start({ ...staged, abort: null });
  }

  /** True while `fp` names a file message whose upload has not finished. */
  has(fp: string): boolean {
    return this.uploads.has(fp);
  }

  /**
   * Restarts the upload of a file message that failed to upload.
   * @throws {@link ImError} `not-found` when `fp` is no such message
   */
  retry(fp: string): StoredMessage {
    const upload = this.uploads.get(fp);
    if (!upload) throw new ImError('not-found', `No file upload with fp ${fp}.`);
    if (!upload.abort) this.start(upload);
    return this.show(upload.wire, 'pending');
  }

  /**
   * Takes over the files of an earlier page: kept ones are pending again and their uploads
   * restart; one over the cap (not kept) shows failed with `too-large-to-keep` and is forgotten.
   */
  restore(records: readonly OutboxRecord[]): void {
    for (const { fp, message, file } of records) {
      if (!file || this.uploads.has(fp)) continue;
      const wire = { ...message, fp };
      if (!file.blob) {
        this.show(wire, 'failed', 'too-large-to-keep');
        this.deps.durable.drop(fp);
        continue;
      }
      this.show(wire, 'pending');
      this.start({ wire, file, abort: null });
    }
  }

  /** Aborts the uploads in flight (the client is destroyed; kept files stay for the next page). */
  dispose(): void {
    this.disposed = true;
    for (const upload of this.uploads.values()) upload.abort?.abort();
  }

  private show(wire: ChatMessage & { fp: string }, state: 'pending' | 'failed', reason?: string): StoredMessage {
    return showFile(this.deps, wire, state, reason);
  }

  private start(upload: Upload): void {
    const abort = new AbortController();
    upload.abort = abort;
    this.uploads.set(upload.wire.fp, upload);
    void this.run(upload, abort.signal);
  }

  private async run(upload: Upload, signal: AbortSignal): Promise<void> {
    const { wire, file } = upload;
    try {
      const up = await this.transfer(file, signal);
      if (this.disposed) return;
      this.uploads.delete(wire.fp);
      // The same fp: the outbox replaces the kept file with the message, in its composition place.
      this.deps.sender.dispatch({ ...wire, dataContent: fileContent(file.kind, { ...file, ...up, name: up.name || file.name, mime: up.mime || file.mime }) });
    } catch {
      upload.abort = null;
      if (this.disposed) return;
      this.show(wire, 'failed', 'upload-failed');
    }
  }

  private async transfer(file: PendingFile, signal: AbortSignal): Promise<UploadedFile> {
    const { api, limits } = this.deps;
    const blob = file.blob as Blob;
    let up: UploadedFile;
    if (blob.size > limits.chunkSize) {
      up = await uploadChunked(api, blob, { chunkSize: limits.chunkSize, signal });
    } else {
      up = await api.uploadFile(blob, file.name, { signal });
    }
    if (typeof up?.url !== 'string' || up.url === '') throw new Error('Upload: the server answered without a file URL');
    return up;
  }
}
