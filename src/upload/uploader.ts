/**
 * The upload queue (spec §3 "Upload item", §4, §5 "Uploader"): a framework-agnostic store of
 * upload items (`subscribe` / `getSnapshot`, usable with React's `useSyncExternalStore`) that
 * checks count, size and type limits and uploads whole or in chunks.
 * @module
 */
import { Emitter } from '../state/emitter.js';
import { lazy } from '../lazy.js';
import { Listeners } from '../state/subscribable.js';
import { isUploadSource, matchesAccept, mimeOf, uploadKindOf } from './file-type.js';
import type { UploadItem, UploadedFile, UploadSource, UploadTransport } from './types.js';

/** The network half loads on the first upload (a visitor may never send a file). */
const loadTransfer = lazy(() => import('./transfer.js'));

/** The texts the uploader shows. */
export interface UploaderMessages {
  /** Message of a failed item (spec §8 "Upload failed"). */
  uploadFailed: string;
}

/** A translate function for {@link UploaderMessages} keys, called when the text is needed. */
export type UploaderTranslate = (key: keyof UploaderMessages) => string;

/** Options of {@link Uploader}. */
export interface UploaderOptions {
  /** The upload calls (e.g. the client's `PermitApi`). */
  transport: UploadTransport;
  /** Chunk size of chunked uploads, bytes (spec §9 default of the client: 8 MiB). */
  chunkSize: number;
  /** Files larger than this many bytes are uploaded in chunks (default: `chunkSize`). */
  chunkThreshold?: number;
  /** Maximum number of items in the list (default unlimited, spec §5). */
  maxCount?: number;
  /** Maximum file size in bytes (default unlimited, spec §5); larger files raise `oversize`. */
  maxSize?: number;
  /** Accepted types, like an `<input accept>`: MIME types, `type/*`, `.ext` (default `image/*`, spec §5). */
  accept?: string;
  /** How many items upload at the same time (default 3); the others wait, status `uploading`. */
  concurrency?: number;
  /** Start uploading as soon as files are added (default false: call `start` / `startAll`). */
  autoStart?: boolean;
  /** Makes a preview URL (default `URL.createObjectURL`, looked up at call time; `''` if missing). */
  createObjectURL?: (file: Blob) => string;
  /** Releases a preview URL (default `URL.revokeObjectURL`, looked up at call time). */
  revokeObjectURL?: (url: string) => void;
  /** Called for every file over `maxSize` (as is the `oversize` event). */
  onOversize?: (file: UploadSource) => void;
  /** Texts, or a translate function called each time a text is needed (wins over `translate`). */
  messages?: UploaderMessages | UploaderTranslate;
  /** A translate function called each time a text is needed (e.g. the client's `t`). */
  translate?: UploaderTranslate;
}

/** Why {@link Uploader.add} refused a file. */
export type UploadRejectReason = 'oversize' | 'type' | 'count';

/** A refused file. */
export interface UploadRejection {
  /** The file. */
  file: UploadSource;
  /** Why: over `maxSize`, not in `accept`, or over `maxCount`. */
  reason: UploadRejectReason;
}

/** Result of {@link Uploader.add}. */
export interface AddFilesResult {
  /** New items, status `''` (or `uploading` with `autoStart`). */
  added: UploadItem[];
  /** Refused files, in order. */
  rejected: UploadRejection[];
}

/** Events of {@link Uploader}. */
export interface UploaderEvents {
  /** A file over `maxSize` was refused (spec §5 "An oversize file raises an oversize event"). */
  oversize: (ctx: { file: UploadSource; maxSize: number }) => void;
  /** An item finished uploading; `item.content` is the chat message's `dataContent`. */
  uploaded: (ctx: { item: UploadItem; file: UploadedFile }) => void;
  /** An item failed; it stays in the list with status `failed` and its message. */
  failed: (ctx: { item: UploadItem; error: Error }) => void;
}

interface Task {
  controller: AbortController;
  done: Promise<UploadItem | null>;
  resolve: (item: UploadItem | null) => void;
}

function checkLimit(value: number | undefined, name: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || (Number.isFinite(value) && !Number.isInteger(value))) {
    throw new RangeError(`Uploader: ${name} must be an integer >= ${min} or Infinity, got ${String(value)}`);
  }
  return value;
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The chat message's `dataContent` for an uploaded file (protocol §5). */
function contentOf(item: UploadItem, up: UploadedFile): string {
  if (item.kind === 'image') return up.url;
  return JSON.stringify({
    name: up.name || item.file.name || 'blob',
    size: typeof up.size === 'number' ? up.size : item.file.size,
    url: up.url,
    mime: up.mime || mimeOf(item.file),
  });
}

/**
 * The upload queue. Add files, start them, and render `getSnapshot()`; the snapshot is a new
 * frozen array after every change and the same array otherwise.
 *
 * ```ts
 * const uploader = new Uploader({ transport: client.api, chunkSize: 8 << 20, messages: client.t });
 * uploader.on('uploaded', ({ item }) => client.sendImage(item.content));
 * uploader.add(input.files ?? []);
 * uploader.startAll();
 * ```
 */
export class Uploader extends Emitter<UploaderEvents> {
  private items: readonly UploadItem[] = Object.freeze([]);
  private readonly storeListeners = new Listeners();
  private readonly tasks = new Map<string, Task>();
  private readonly waiting: string[] = [];
  private running = 0;
  private nextId = 1;
  private destroyed = false;
  private readonly opts: Required<Omit<UploaderOptions, 'createObjectURL' | 'revokeObjectURL' | 'onOversize' | 'translate'>> &
    Pick<UploaderOptions, 'createObjectURL' | 'revokeObjectURL' | 'onOversize'>;

  /** @throws TypeError / RangeError for a missing transport, bad limits or neither messages nor translate */
  constructor(options: UploaderOptions) {
    super();
    const t = options?.transport;
    if (!t || typeof t.uploadFile !== 'function' || typeof t.chunkInit !== 'function') {
      throw new TypeError('Uploader: options.transport must implement UploadTransport');
    }
    const m = options.messages ?? options.translate;
    if (typeof m !== 'function' && (typeof m !== 'object' || m === null || typeof m.uploadFailed !== 'string')) {
      throw new TypeError('Uploader: options.messages must be { uploadFailed } or a translate function (or give options.translate)');
    }
    const chunkSize = checkLimit(options.chunkSize, 'chunkSize', 1, Number.NaN);
    if (!Number.isFinite(chunkSize)) throw new RangeError('Uploader: chunkSize must be a finite integer >= 1');
    this.opts = {
      ...options,
      messages: m,
      chunkSize,
      chunkThreshold: checkLimit(options.chunkThreshold, 'chunkThreshold', 0, chunkSize),
      maxCount: checkLimit(options.maxCount, 'maxCount', 0, Infinity),
      maxSize: checkLimit(options.maxSize, 'maxSize', 0, Infinity),
      concurrency: checkLimit(options.concurrency, 'concurrency', 1, 3),
      accept: typeof options.accept === 'string' ? options.accept : 'image/*',
      autoStart: options.autoStart === true,
    };
  }

  /** Registers a listener called after every change; returns its remover. */
  subscribe = (listener: () => void): (() => void) => this.storeListeners.subscribe(listener);

  /** The current items, in the order they were added. Same array until something changes. */
  getSnapshot = (): readonly UploadItem[] => this.items;

  /** The item with this id, if it is in the list. */
  get(id: string): UploadItem | undefined {
    return this.items.find((i) => i.id === id);
  }

  /**
   * Adds files. Each is checked against `accept`, then `maxSize` (raising `oversize`, spec §5),
   * then `maxCount`; accepted files become items with status `''`.
   * @throws TypeError when `files` is not an iterable of File or Blob, Error after destroy()
   */
  add(files: Iterable<UploadSource>): AddFilesResult {
    if (this.destroyed) throw new Error('Uploader: add() after destroy()');
    if (files === null || typeof files !== 'object' || typeof (files as Iterable<unknown>)[Symbol.iterator] !== 'function') {
      throw new TypeError('Uploader.add: expected an iterable of File or Blob (e.g. input.files)');
    }
    const list = [...files];
    list.forEach((f, i) => {
      if (!isUploadSource(f)) throw new TypeError(`Uploader.add: entry ${i} is not a File or Blob`);
    });
    const added: UploadItem[] = [];
    const rejected: UploadRejection[] = [];
    const { accept, maxSize, maxCount } = this.opts;
    for (const file of list) {
      if (!matchesAccept(file, accept)) rejected.push({ file, reason: 'type' });
      else if (file.size > maxSize) rejected.push({ file, reason: 'oversize' });
      else if (this.items.length + added.length >= maxCount) rejected.push({ file, reason: 'count' });
      else added.push(this.createItem(file));
    }
    if (added.length > 0) this.commit([...this.items, ...added]);
    for (const r of rejected) {
      if (r.reason !== 'oversize') continue;
      this.opts.onOversize?.(r.file);
      this.emit('oversize', { file: r.file, maxSize });
    }
    if (this.opts.autoStart) for (const item of added) void this.start(item.id);
    return { added: added.map((i) => this.get(i.id) ?? i), rejected };
  }

  /**
   * Starts (or restarts, when failed) an item. Resolves with the item once done or failed, or
   * `null` when it was cancelled or removed; never rejects for an upload error.
   * @throws Error when no item has this id
   */
  start(id: string): Promise<UploadItem | null> {
    const item = this.get(id);
    if (!item) throw new Error(`Uploader: no item with id "${String(id)}"`);
    const task = this.tasks.get(id);
    if (task) return task.done;
    if (item.status === 'done') return Promise.resolve(item);
    let resolve: (value: UploadItem | null) => void = () => undefined;
    const done = new Promise<UploadItem | null>((r) => {
      resolve = r;
    });
    this.tasks.set(id, { controller: new AbortController(), done, resolve });
    this.patch(id, { status: 'uploading', message: '', progress: 0 });
    this.waiting.push(id);
    this.pump();
    return done;
  }

  /** Starts every item with status `''` (failed items wait for {@link Uploader.retry}). */
  startAll(): Promise<(UploadItem | null)[]> {
    return Promise.all(this.items.filter((i) => i.status === '').map((i) => this.start(i.id)));
  }

  /**
   * Uploads a failed item again; a chunked upload resumes from the chunks the server holds.
   * @throws Error when no item has this id or it has not failed
   */
  retry(id: string): Promise<UploadItem | null> {
    const item = this.get(id);
    if (item && item.status !== 'failed') throw new Error(`Uploader: item "${id}" has not failed (status "${item.status}")`);
    return this.start(id);
  }

  /**
   * Cancels an item: its request is aborted (a chunked upload's parts are deleted on the server),
   * the item is removed from the list and no error is shown. Returns false for an unknown id.
   */
  cancel(id: string): boolean {
    const item = this.get(id);
    if (!item) return false;
    this.stop(id);
    this.release(item);
    this.commit(this.items.filter((i) => i.id !== id));
    return true;
  }

  /** Removes an item and revokes its preview URL (cancelling it if it is uploading). */
  remove(id: string): boolean {
    return this.cancel(id);
  }

  /** Cancels every upload, revokes every preview URL and drops all listeners. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const id of [...this.tasks.keys()]) this.stop(id);
    for (const item of this.items) this.release(item);
    this.commit(Object.freeze([]));
    this.storeListeners.clear();
    this.removeAllListeners();
  }

  private createItem(file: UploadSource): UploadItem {
    let objectUrl = '';
    try {
      const create = this.opts.createObjectURL ?? globalThis.URL?.createObjectURL?.bind(globalThis.URL);
      objectUrl = create ? String(create(file)) : '';
    } catch {
      objectUrl = '';
    }
    return Object.freeze({
      id: `upload-${this.nextId++}`,
      file,
      status: '',
      message: '',
      objectUrl,
      content: '',
      url: '',
      progress: 0,
      kind: uploadKindOf(file),
    });
  }

  private release(item: UploadItem): void {
    if (!item.objectUrl) return;
    try {
      const revoke = this.opts.revokeObjectURL ?? globalThis.URL?.revokeObjectURL?.bind(globalThis.URL);
      revoke?.(item.objectUrl);
    } catch {
      // A preview URL that cannot be revoked is only a small leak; nothing to show.
    }
  }

  /** Aborts and forgets an item's task; its promise resolves to null. */
  private stop(id: string): void {
    const task = this.tasks.get(id);
    if (!task) return;
    this.tasks.delete(id);
    const w = this.waiting.indexOf(id);
    if (w >= 0) this.waiting.splice(w, 1);
    task.controller.abort();
    task.resolve(null);
  }

  private pump(): void {
    while (this.running < this.opts.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift();
      const task = id === undefined ? undefined : this.tasks.get(id);
      if (id === undefined || !task) continue;
      this.running++;
      void this.run(id, task).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(id: string, task: Task): Promise<void> {
    const signal = task.controller.signal;
    let uploaded: UploadedFile | undefined;
    let failure: Error | undefined;
    try {
      uploaded = await this.transfer(id, signal);
    } catch (error) {
      failure = toError(error);
    }
    if (signal.aborted || this.tasks.get(id) !== task) return;
    this.tasks.delete(id);
    const item = this.get(id);
    if (!item) return task.resolve(null);
    if (uploaded) {
      const done = this.patch(id, { status: 'done', progress: 1, url: uploaded.url, content: contentOf(item, uploaded), message: '' });
      task.resolve(done ?? null);
      if (done) this.emit('uploaded', { item: done, file: uploaded });
    } else {
      const failed = this.patch(id, { status: 'failed', message: this.text('uploadFailed') });
      task.resolve(failed ?? null);
      if (failed) this.emit('failed', { item: failed, error: failure ?? new Error('Upload failed') });
    }
  }

  private async transfer(id: string, signal: AbortSignal): Promise<UploadedFile> {
    const item = this.get(id);
    if (!item) throw new Error(`Uploader: no item with id "${id}"`);
    const { transport, chunkSize, chunkThreshold } = this.opts;
    const { transferFile } = await loadTransfer();
    return transferFile(transport, item.file, {
      chunkSize,
      chunkThreshold,
      signal,
      onProgress: ({ loaded, total }) => {
        if (this.tasks.has(id)) this.patch(id, { progress: total > 0 ? Math.min(1, loaded / total) : 0 });
      },
    });
  }

  private text(key: keyof UploaderMessages): string {
    const m = this.opts.messages;
    return typeof m === 'function' ? m(key) : m[key];
  }

  private patch(id: string, change: Partial<Omit<UploadItem, 'id' | 'file' | 'kind'>>): UploadItem | undefined {
    const index = this.items.findIndex((i) => i.id === id);
    const current = this.items[index];
    if (!current) return undefined;
    const keys = Object.keys(change) as (keyof typeof change)[];
    if (keys.every((k) => current[k] === change[k])) return current;
    const next: UploadItem = Object.freeze({ ...current, ...change });
    const items = [...this.items];
    items[index] = next;
    this.commit(items);
    return next;
  }

  private commit(items: readonly UploadItem[]): void {
    this.items = Object.isFrozen(items) ? items : Object.freeze(items);
    this.storeListeners.notify();
  }
}
