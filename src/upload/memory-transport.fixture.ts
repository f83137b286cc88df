/**
 * An in-memory {@link UploadTransport} that behaves like the reference server's upload calls
 * (docs/protocol.md §4), records every call and can fail chosen calls: for tests and demos.
 * @module
 * @internal
 */
import { defaultTimers, type TimerProvider } from '../timers.js';
import type {
  ChunkInitQuery,
  ChunkInitResult,
  ChunkRef,
  ChunkUploadQuery,
  ChunkUploadResult,
  UploadCallOptions,
  UploadedFile,
  UploadTransport,
} from './types.js';

/** The transport's method names. */
type Method = keyof UploadTransport;

/** One recorded call. @internal */
export interface RecordedCall {
  /** Which method. */
  method: Method;
  /** The upload id (chunk calls). */
  uploadId?: string;
  /** The chunk index (chunkUpload). */
  index?: number;
  /** The file name (uploadFile, chunkInit). */
  name?: string;
}

interface Session {
  query: ChunkInitQuery;
  chunkCount: number;
  parts: Map<number, Blob>;
}

/** Options of {@link MemoryUploadTransport}. @internal */
export interface MemoryUploadTransportOptions {
  /** Delay of every call, ms, through `timers` (default 0: settles on the next microtask). */
  latency?: number;
  /** Timers (default: `globalThis` timers looked up at call time, so fake timers work). */
  timers?: TimerProvider;
  /** What an aborted request does: reject with an AbortError (default) or never settle (like the HTTP layer). */
  onAbort?: 'reject' | 'hang';
}

/**
 * In-memory upload server. `failNext(method, nth)` makes the nth next call of a method fail once.
 * @internal
 */
export class MemoryUploadTransport implements UploadTransport {
  /** Every call in order. */
  readonly calls: RecordedCall[] = [];
  /** Files stored by `uploadFile` and `chunkComplete`, by URL. */
  readonly stored = new Map<string, Blob>();
  private readonly sessions = new Map<string, Session>();
  private readonly failures = new Map<Method, number[]>();
  private readonly counts = new Map<Method, number>();
  private nextId = 1;

  constructor(private readonly options: MemoryUploadTransportOptions = {}) {}

  /** Makes the `nth` (1-based) next call of `method` reject with `error`. */
  failNext(method: Method, nth = 1): void {
    const done = this.counts.get(method) ?? 0;
    this.failures.set(method, [...(this.failures.get(method) ?? []), done + nth]);
  }

  /** Chunk indexes the server holds for an unfinished upload. */
  heldChunks(uploadId: string): number[] {
    return [...(this.sessions.get(uploadId)?.parts.keys() ?? [])].sort((a, b) => a - b);
  }

  /** Ids of unfinished chunked uploads. */
  get openUploads(): string[] {
    return [...this.sessions.keys()];
  }

  uploadFile(file: Blob, name?: string, opts?: UploadCallOptions): Promise<UploadedFile> {
    return this.call('uploadFile', { name: name ?? 'blob' }, opts?.signal, () => this.store(file, name ?? 'blob', file.type));
  }

  chunkInit(q: ChunkInitQuery): Promise<ChunkInitResult> {
    return this.call('chunkInit', { name: q.fileName }, undefined, () => {
      for (const [uploadId, s] of this.sessions) {
        const same = s.query.fileName === q.fileName && s.query.fileSize === q.fileSize && s.query.mime === q.mime;
        if (same) return { uploadId, chunkSize: s.query.chunkSize, chunkCount: s.chunkCount, uploaded: this.heldChunks(uploadId) };
      }
      const uploadId = `up-${this.nextId++}`;
      const chunkCount = Math.ceil(q.fileSize / q.chunkSize);
      this.sessions.set(uploadId, { query: q, chunkCount, parts: new Map() });
      return { uploadId, chunkSize: q.chunkSize, chunkCount, uploaded: [] };
    });
  }

  chunkUpload(q: ChunkUploadQuery, opts?: UploadCallOptions): Promise<ChunkUploadResult> {
    return this.call('chunkUpload', { uploadId: q.uploadId, index: q.index }, opts?.signal, () => {
      this.session(q.uploadId).parts.set(q.index, q.chunk);
      return { index: q.index, size: q.chunk.size };
    });
  }

  chunkComplete(q: ChunkRef): Promise<UploadedFile> {
    return this.call('chunkComplete', { uploadId: q.uploadId }, undefined, () => {
      const s = this.session(q.uploadId);
      const parts: Blob[] = [];
      for (let i = 0; i < s.chunkCount; i++) {
        const part = s.parts.get(i);
        if (!part) throw new Error(`chunk ${i} missing`);
        parts.push(part);
      }
      this.sessions.delete(q.uploadId);
      return this.store(new Blob(parts, { type: s.query.mime }), s.query.fileName, s.query.mime);
    });
  }

  chunkAbort(q: ChunkRef): Promise<unknown> {
    return this.call('chunkAbort', { uploadId: q.uploadId }, undefined, () => {
      this.sessions.delete(q.uploadId);
      return null;
    });
  }

  private session(uploadId: string): Session {
    const s = this.sessions.get(uploadId);
    if (!s) throw new Error(`unknown upload ${uploadId}`);
    return s;
  }

  private store(blob: Blob, name: string, mime: string): UploadedFile {
    const url = `memory://files/${this.nextId++}/${encodeURIComponent(name)}`;
    this.stored.set(url, blob);
    return { url, name, size: blob.size, mime: mime || 'application/octet-stream' };
  }

  private call<T>(method: Method, details: Omit<RecordedCall, 'method'>, signal: AbortSignal | undefined, run: () => T): Promise<T> {
    this.calls.push({ method, ...details });
    const n = (this.counts.get(method) ?? 0) + 1;
    this.counts.set(method, n);
    const planned = this.failures.get(method) ?? [];
    const fail = planned.includes(n);
    if (fail) this.failures.set(method, planned.filter((x) => x !== n));
    const timers = this.options.timers ?? defaultTimers;
    return new Promise<T>((resolve, reject) => {
      const abort = (): void => {
        if (this.options.onAbort !== 'hang') reject(new DOMException('aborted', 'AbortError'));
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      const settle = (): void => {
        if (signal?.aborted) return;
        signal?.removeEventListener('abort', abort);
        if (fail) return reject(new Error(`${method} failed (simulated)`));
        try {
          resolve(run());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      const latency = this.options.latency ?? 0;
      if (latency > 0) timers.setTimeout(settle, latency);
      else queueMicrotask(settle);
    });
  }
}
