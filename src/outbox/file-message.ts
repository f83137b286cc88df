/**
 * File messages: their content, and staging a picked file (pending at once, kept in the durable
 * outbox) before the lazily loaded {@link FileSender} uploads it.
 * @module
 * @internal
 */
import type { ClientContext } from '../client-context.js';
import { MessageType, type ChatMessage, type FileContent, type StoredMessage } from '../messages/types.js';
import type { UploadedFile } from '../upload/types.js';
import type { DurableOutbox } from './durable.js';
import type { MessageSender, SendInput } from './sender.js';
import type { PendingFile } from './storage.js';

/** Which message a file becomes. */
export type FileKind = PendingFile['kind'];

/** What {@link sendFile} takes besides the file: recipient, extra fields, and a name for a Blob. @internal */
export type FileSendInput = Omit<SendInput, 'dataContent' | 'type'> & { name?: string };

/** A picked file staged for upload. @internal */
export interface StagedFile {
  wire: ChatMessage & { fp: string };
  file: PendingFile;
}

const TYPE_OF: Readonly<Record<FileKind, number>> = { image: MessageType.Image, file: MessageType.File, video: MessageType.Video };

/** The content of a file message: the URL for an image, the JSON {@link FileContent} otherwise. @internal */
export function fileContent(kind: FileKind, file: { name: string; size: number; url: string; mime: string }): string {
  if (kind === 'image') return file.url;
  const content: FileContent = { name: file.name, size: file.size, url: file.url, mime: file.mime };
  return JSON.stringify(content);
}

/** Shows a file message in the list with a sending state. @internal */
export function showFile(deps: Pick<ClientContext, 'messages' | 'events'>, wire: ChatMessage & { fp: string }, state: 'pending' | 'failed', reason?: string): StoredMessage {
  const message = deps.messages.upsert({ ...wire, sendState: state, failReason: reason });
  deps.events.emit('send state', { fp: wire.fp, state, message, ...(reason ? { reason } : {}) });
  return message;
}

/**
 * Sends an uploaded file's message at once; stages a picked file (a Blob): its message is pending
 * now (content without URL) and it is kept in the durable outbox (the bytes only under the cap),
 * and `upload` is called to upload it and send the message.
 * @internal
 */
export function sendFile(
  deps: Pick<ClientContext, 'messages' | 'events'> & { sender: MessageSender; durable: DurableOutbox },
  file: UploadedFile | Blob,
  kind: FileKind,
  input: FileSendInput,
  upload: (staged: StagedFile) => void,
): StoredMessage {
  if (!TYPE_OF[kind]) throw new TypeError(`sendFile: unknown kind ${String(kind)}`);
  const { name: _name, ...rest } = input;
  if (typeof Blob === 'undefined' || !(file instanceof Blob)) {
    return deps.sender.send({ ...rest, type: TYPE_OF[kind], dataContent: fileContent(kind, file as UploadedFile) });
  }
  const name = input.name ?? (file as Blob & { name?: string }).name ?? 'file';
  const pending: PendingFile = { blob: file, name, size: file.size, mime: file.type || 'application/octet-stream', kind };
  const wire = deps.sender.compose({ ...rest, type: TYPE_OF[kind], dataContent: fileContent(kind, { ...pending, url: '' }) });
  const stored = showFile(deps, wire, 'pending');
  deps.durable.keep(wire, deps.durable.fits(wire.fp, file.size) ? pending : { ...pending, blob: undefined });
  upload({ wire, file: pending });
  return stored;
}
