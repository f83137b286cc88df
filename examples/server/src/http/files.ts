/**
 * Uploaded files on disk: finished files under `DATA_DIR/files` (served at `/files/...`) and the
 * parts of chunked uploads under `DATA_DIR/parts/<uploadId>/<index>`.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadLimits } from '../config.js';
import { ApiError, Code } from './envelope.js';

/** What an upload answers (docs/protocol.md §4). */
export interface UploadedFile {
  /** Where the file is served. */
  url: string;
  /** The original file name. */
  name: string;
  /** Bytes. */
  size: number;
  /** MIME type. */
  mime: string;
}

/** A stored file's bare name (no path, no leading dot), as {@link FileStore.storedName} makes them. */
const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

const SAFE_EXT = /^\.(png|jpe?g|gif|webp|bmp|svg|ico|mp4|webm|mov|m4v|mp3|ogg|wav|pdf|zip|txt|docx?|xlsx?|csv)$/;

/** A file name safe to show and to store (no path, no control characters, at most 200 chars). */
export function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-200);
  return cleaned === '' ? 'file' : cleaned;
}

/** Throws 3001 unless `mime` is allowed (`image/*` entries accept the family). */
export function checkMime(limits: UploadLimits, mime: string): string {
  const m = mime.trim().toLowerCase();
  const ok = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(m) &&
    limits.allowedMime.some((a) => a === m || (a.endsWith('/*') && m.startsWith(a.slice(0, -1))));
  if (!ok) throw new ApiError(Code.Upload, `Upload failed: the file type "${mime}" is not allowed`);
  return m;
}

/** The files of the server. */
export class FileStore {
  /** Finished files. */
  readonly filesDir: string;
  /** Chunk parts. */
  readonly partsDir: string;

  /**
   * @param filesDir - the finished files (served at `/files/`)
   * @param partsDir - the chunks of uploads in progress; in a cluster, shared like `filesDir`, so
   *   that the parts of one upload may arrive through different nodes
   */
  constructor(filesDir: string, partsDir: string) {
    this.filesDir = filesDir;
    this.partsDir = partsDir;
  }

  /** Creates the directories. */
  async init(): Promise<void> {
    await mkdir(this.filesDir, { recursive: true });
    await mkdir(this.partsDir, { recursive: true });
  }

  /** A fresh stored name keeping a known extension. */
  storedName(original: string): string {
    const ext = extname(original).toLowerCase();
    return `${randomUUID()}${SAFE_EXT.test(ext) ? ext : '.bin'}`;
  }

  /**
   * Streams `source` into a new finished file; removes it again and throws 3001 when the stream
   * was cut at the size limit (`truncated()` answers true).
   */
  async saveStream(source: Readable, original: string, truncated: () => boolean, maxBytes: number): Promise<{ stored: string; size: number }> {
    const stored = this.storedName(original);
    const path = join(this.filesDir, stored);
    try {
      await pipeline(source, createWriteStream(path, { flags: 'wx' }));
    } catch (error) {
      await unlink(path).catch(() => undefined);
      throw error;
    }
    const size = (await stat(path)).size;
    if (truncated() || size > maxBytes) {
      await unlink(path).catch(() => undefined);
      throw new ApiError(Code.Upload, `Upload failed: the file is larger than ${maxBytes} bytes`);
    }
    if (size === 0) {
      await unlink(path).catch(() => undefined);
      throw new ApiError(Code.Upload, 'Upload failed: the file is empty');
    }
    return { stored, size };
  }

  private partDir(uploadId: string): string {
    return join(this.partsDir, uploadId);
  }

  /** Writes one chunk atomically (a rewrite of the same index replaces it). */
  async writePart(uploadId: string, index: number, data: Buffer): Promise<void> {
    const dir = this.partDir(uploadId);
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `${index}.${randomUUID()}.tmp`);
    await writeFile(tmp, data);
    await rename(tmp, join(dir, String(index)));
  }

  /** The chunk indexes held, ascending, with their sizes. */
  async parts(uploadId: string): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    let names: string[];
    try {
      names = await readdir(this.partDir(uploadId));
    } catch {
      return out;
    }
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      out.set(Number(name), (await stat(join(this.partDir(uploadId), name))).size);
    }
    return new Map([...out].sort((a, b) => a[0] - b[0]));
  }

  /** Joins the parts 0..count-1 into a new finished file and deletes the parts. */
  async assemble(uploadId: string, count: number, original: string): Promise<string> {
    const stored = this.storedName(original);
    const path = join(this.filesDir, stored);
    const out = createWriteStream(path, { flags: 'wx' });
    try {
      for (let i = 0; i < count; i += 1) {
        // Stream each part in turn, honouring back-pressure (one pipeline per part would pile
        // listeners onto the shared output stream).
        for await (const chunk of createReadStream(join(this.partDir(uploadId), String(i)))) {
          if (!out.write(chunk)) await once(out, 'drain');
        }
      }
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    } catch (error) {
      out.destroy();
      await unlink(path).catch(() => undefined);
      throw error;
    }
    await this.deleteParts(uploadId);
    return stored;
  }

  /**
   * Deletes a finished file by its stored name (a bare name: anything with a path, or starting
   * with a dot, is refused and nothing is touched).
   * @returns false when there was no such file (or the name was refused)
   */
  async deleteFile(storedName: string): Promise<boolean> {
    if (!STORED_NAME.test(storedName)) return false;
    try {
      await unlink(join(this.filesDir, storedName));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Deletes an upload's parts. */
  async deleteParts(uploadId: string): Promise<void> {
    await rm(this.partDir(uploadId), { recursive: true, force: true });
  }
}
