/**
 * Sending a picked file: the message is pending at once, the file is uploaded, then the message
 * goes out with its URL. Until the upload finished the file is kept in the durable outbox (under
 * a total cap), so its upload restarts after a reload.
 * @module
 */
import type { ClientContext } from '../client-context.js';
import { ImError } from '../errors.js';
import { MessageType, type ChatMessage, type FileContent, type StoredMessage } from '../messages/types.js';
import type { UploadedFile } from '../upload/types.js';
import type { DurableOutbox } from './durable.js';
import type { MessageSender, SendInput } from './sender.js';
import type { OutboxRecord, PendingFile } from './storage.js';

/** Which message a file becomes. */
export type FileKind = PendingFile['kind'];

/** What the file sender needs. @internal */
export type FileSenderDeps = Pick<ClientContext, 'messages' | 'events' | 'api' | 'limits'> & {
  sender: MessageSender;
  durable: DurableOutbox;
};

interface Upload {
  wire: ChatMessage & { fp: string };
  file: PendingFile;
  abort: AbortController | null;
}

const TYPE_OF: Readonly<Record<FileKind, number>> = { image: MessageType.Image, file: MessageType.File, video: MessageType.Video };

/**
 * The content of a file message: the URL for an image, the JSON {@link FileContent} otherwise.
 * @internal
 */
export function fileContent(kind: FileKind, file: { name: string; size: number; url: string; mime: string }): string {
  if (kind === 'image') return file.url;
  const content: FileContent = { name: file.name, size: file.size, url: file.url, mime: file.mime };
  return JSON.stringify(content);
}

/** Uploads picked files and sends their messages. @internal */
export class FileSender {
  private readonly uploads = new Map<string, Upload>();
  private disposed = false;

  /** @param deps - the list, the permit API, the sender and the durable outbox */
  constructor(private readonly deps: FileSenderDeps) {}

  /**
   * Sends a picked file: pending now (content without URL), uploaded, then sent.
   * @param blob - the file
   * @param kind - image, file or video
   * @param input - recipient and extra wire fields; `name` for a Blob without one
   */
  send(blob: Blob, kind: FileKind, input: Omit<SendInput, 'dataContent' | 'type'> & { name?: string } = {}): StoredMessage {
    if (!TYPE_OF[kind]) throw new TypeError(`sendFile: unknown kind ${String(kind)}`);
    const name = input.name ?? (blob as Blob & { name?: string }).name ?? 'file';
    const file: PendingFile = { blob, name, size: blob.size, mime: blob.type || 'application/octet-stream', kind };
    const wire = this.deps.sender.compose({ ...input, type: TYPE_OF[kind], dataContent: fileContent(kind, { ...file, url: '' }) });
    const stored = this.show(wire, 'pending');
    // The bytes are kept for a reload only under the cap; over it, the record says so.
    const kept = this.deps.durable.fits(wire.fp, blob.size) ? file : { ...file, blob: undefined };
    this.deps.durable.keep(wire, kept);
    this.start({ wire, file, abort: null });
    return stored;
  }

  /**
   * Sends an uploaded file's message at once, or a picked file (a Blob) through {@link FileSender.send}.
   * @param file - the upload result, or the picked file
   */
  sendFile(file: UploadedFile | Blob, kind: FileKind, input: Omit<SendInput, 'dataContent' | 'type'> & { name?: string } = {}): StoredMessage {
    if (typeof Blob !== 'undefined' && file instanceof Blob) return this.send(file, kind, input);
    const { name: _name, ...rest } = input;
    const up = file as UploadedFile;
    return this.deps.sender.send({ ...rest, type: TYPE_OF[kind], dataContent: fileContent(kind, up) });
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
    const { messages, events } = this.deps;
    const message = messages.upsert({ ...wire, sendState: state, failReason: reason });
    events.emit('send state', { fp: wire.fp, state, message, ...(reason ? { reason } : {}) });
    return message;
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
      const { uploadChunked } = await import('../upload/chunked.js');
      up = await uploadChunked(api, blob, { chunkSize: limits.chunkSize, signal });
    } else {
      up = await api.uploadFile(blob, file.name, { signal });
    }
    if (typeof up?.url !== 'string' || up.url === '') throw new Error('Upload: the server answered without a file URL');
    return up;
  }
}
