/**
 * File type rules: the MIME type of a file (guessed from its extension when the browser gives
 * none), whether it matches an `<input accept>`-style list, and what it becomes in the chat.
 * @module
 */
import type { UploadKind, UploadSource } from './types.js';

/** The parts of a file these rules look at. */
export interface FileTypeInfo {
  /** File name (a `Blob` has none). */
  readonly name?: string;
  /** MIME type as the browser gives it (may be empty). */
  readonly type?: string;
}

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  heic: 'image/heic',
  avif: 'image/avif',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
  '3gp': 'video/3gpp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  zip: 'application/zip',
};

/** The extension of a file name, lower-case and without the dot; `''` when there is none. */
function extensionOf(name: string | undefined): string {
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  return dot < 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * The MIME type of a file: its own `type` when set, else a guess from the extension of its name,
 * else `application/octet-stream`.
 * @param file - the file (or its name and type)
 */
export function mimeOf(file: FileTypeInfo): string {
  const own = typeof file.type === 'string' ? file.type.trim().toLowerCase() : '';
  if (own) return own;
  return MIME_BY_EXTENSION[extensionOf(file.name)] ?? 'application/octet-stream';
}

/**
 * What a file becomes in the chat: `image` (type 101), `video` (type 103) or `file` (type 102).
 * @param file - the file (or its name and type)
 */
export function uploadKindOf(file: FileTypeInfo): UploadKind {
  const mime = mimeOf(file);
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  return 'file';
}

/**
 * Whether a file matches an `<input accept>`-style list: comma-separated MIME types
 * (`image/png`), MIME wildcards (`image/*`) and extensions (`.pdf`). An empty list or `*`
 * accepts everything.
 * @param file - the file (or its name and type)
 * @param accept - the accept list, e.g. `image/*,.pdf`
 */
export function matchesAccept(file: FileTypeInfo, accept: string): boolean {
  const patterns = accept
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '');
  if (patterns.length === 0) return true;
  const mime = mimeOf(file);
  const ext = extensionOf(file.name);
  return patterns.some((p) => {
    if (p === '*' || p === '*/*') return true;
    if (p.startsWith('.')) return ext !== '' && p.slice(1) === ext;
    if (p.endsWith('/*')) return mime.startsWith(p.slice(0, -1));
    return mime === p;
  });
}

/**
 * Whether a value can be uploaded: a `Blob` or `File` (or anything with a byte `size` and
 * `slice`, such as a `Blob` from another realm).
 * @param value - anything
 */
export function isUploadSource(value: unknown): value is UploadSource {
  if (typeof Blob !== 'undefined' && value instanceof Blob) return true;
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { size?: unknown; slice?: unknown; type?: unknown };
  return typeof v.size === 'number' && typeof v.slice === 'function' && typeof v.type === 'string';
}
