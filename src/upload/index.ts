/**
 * `@kefu-im/sdk/upload`: the upload queue ({@link Uploader}, or {@link createUploader} bound to a
 * client), chunked uploads, file-type checks and the complaint attachment limits. Kept out of the
 * headless client's start-up: a visitor may never send a file. (The client's own `sendFile` of a
 * picked file loads what it needs on first use.)
 * @packageDocumentation
 */
export { createUploader } from './create-uploader.js';
export type { UploaderHost } from './create-uploader.js';
export { Uploader } from './uploader.js';
export type {
  AddFilesResult,
  UploaderEvents,
  UploaderMessages,
  UploaderOptions,
  UploaderTranslate,
  UploadRejection,
  UploadRejectReason,
} from './uploader.js';
export { splitIntoChunks } from './chunk-ranges.js';
export type { ChunkRange } from './chunk-ranges.js';
export { uploadChunked } from './load-chunked.js';
export type { ChunkedUploadOptions } from './chunked.js';
export { checkComplaintAttachments, COMPLAINT_ATTACHMENT_LIMITS } from './complaint.js';
export type {
  ComplaintAttachmentCheck,
  ComplaintAttachmentCounts,
  ComplaintAttachmentError,
  ComplaintAttachmentErrorReason,
  ComplaintAttachmentLimits,
} from './complaint.js';
export { isUploadSource, matchesAccept, mimeOf, uploadKindOf } from './file-type.js';
export type { FileTypeInfo } from './file-type.js';
export type * from './types.js';
