/**
 * Upload types: the transport the uploader depends on (docs/protocol.md §4) and the upload item
 * (spec §3 "Upload item").
 * @module
 */

/** What the server answers for a finished upload (docs/protocol.md §4). */
export interface UploadedFile {
  /** Where the file is served. */
  url: string;
  /** File name. */
  name: string;
  /** Size in bytes. */
  size: number;
  /** MIME type. */
  mime: string;
}

/** A file as the uploader takes it: a `Blob`, with a name when it is a `File`. */
export type UploadSource = Blob & {
  /** The file name (a `File` has one, a plain `Blob` does not). */
  readonly name?: string;
};

/** Options of a single transport call. */
export interface UploadCallOptions {
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Payload of `POST /oss/unifiedOss/chunk/init`. */
export interface ChunkInitQuery {
  /** File name. */
  fileName: string;
  /** File size in bytes. */
  fileSize: number;
  /** MIME type. */
  mime: string;
  /** The chunk size the client proposes, bytes. */
  chunkSize: number;
}

/** Answer of `chunk/init`: `uploaded` lists the chunk indexes the server already holds. */
export interface ChunkInitResult {
  /** The upload's id on the server. */
  uploadId: string;
  /** The chunk size the server settled on, bytes. */
  chunkSize: number;
  /** How many chunks the file is cut into. */
  chunkCount: number;
  /** Chunk indexes already held (an interrupted upload resumes from here). */
  uploaded: number[];
}

/** Payload of `POST /oss/unifiedOss/chunk/upload` (multipart fields `uploadId`, `index`, `file`). */
export interface ChunkUploadQuery {
  /** The upload's id on the server. */
  uploadId: string;
  /** 0-based chunk index. */
  index: number;
  /** The chunk's bytes. */
  chunk: Blob;
}

/** Answer of `chunk/upload`. */
export interface ChunkUploadResult {
  /** The stored chunk's index. */
  index: number;
  /** The stored chunk's size in bytes. */
  size: number;
}

/** Payload of `chunk/complete` and `chunk/abort`. */
export interface ChunkRef {
  /** The upload's id on the server. */
  uploadId: string;
}

/**
 * The upload calls the uploader needs (docs/protocol.md §4). `PermitApi` satisfies it; tests use an
 * in-memory fake. A call given an aborted `signal` may reject or may never settle: the uploader
 * does not wait for it either way.
 */
export interface UploadTransport {
  /** `POST /oss/aws/upload`: uploads a whole file at once. */
  uploadFile(file: Blob, name?: string, opts?: UploadCallOptions): Promise<UploadedFile>;
  /** `POST /oss/unifiedOss/chunk/init`: starts (or resumes) a chunked upload. */
  chunkInit(q: ChunkInitQuery): Promise<ChunkInitResult>;
  /** `POST /oss/unifiedOss/chunk/upload`: uploads one chunk. */
  chunkUpload(q: ChunkUploadQuery, opts?: UploadCallOptions): Promise<ChunkUploadResult>;
  /** `POST /oss/unifiedOss/chunk/complete`: assembles the chunks. */
  chunkComplete(q: ChunkRef): Promise<UploadedFile>;
  /** `POST /oss/unifiedOss/chunk/abort`: deletes the chunks held so far. */
  chunkAbort(q: ChunkRef): Promise<unknown>;
}

/** Upload progress in bytes. */
export interface UploadProgress {
  /** Bytes the server holds so far. */
  loaded: number;
  /** The file's size. */
  total: number;
}

/**
 * Status of an upload item (spec §4): empty (added, not started), uploading, failed; we add
 * `done`.
 */
export type UploadStatus = '' | 'uploading' | 'done' | 'failed';

/** What the file becomes in the chat: an image (type 101), a video (103) or a file (102). */
export type UploadKind = 'image' | 'video' | 'file';

/**
 * One file in the upload queue's list (`Uploader` in `@kefu-im/sdk/upload`) (spec §3 "Upload item"). Items are immutable: every
 * change makes a new object.
 */
export interface UploadItem {
  /** Identity of the item in the list. */
  readonly id: string;
  /** The file being uploaded. */
  readonly file: UploadSource;
  /** Status (spec §4): `''` added, `uploading`, `done`, `failed`. */
  readonly status: UploadStatus;
  /** The error text of a failed item (translated), else `''`. */
  readonly message: string;
  /** A local `blob:` URL for previews, `''` where object URLs are not available. */
  readonly objectUrl: string;
  /**
   * The `dataContent` of the chat message once done: the URL for images, JSON
   * `{ name, size, url, mime }` for files and videos (protocol §5); `''` before.
   */
  readonly content: string;
  /** The uploaded file's URL once done, else `''`. */
  readonly url: string;
  /** Progress from 0 to 1. */
  readonly progress: number;
  /** Image, video or file. */
  readonly kind: UploadKind;
}
