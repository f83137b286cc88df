/**
 * Uploads (docs/protocol.md §4): `/oss/aws/upload` (multipart `file`) and the chunked
 * `/oss/unifiedOss/chunk/{init,upload,complete,abort}` with resume. Limits give clear 3001 errors.
 * @module
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CHUNK_BOUNDS } from '../services/uploads.js';
import { requireCaller } from './caller.js';
import type { HttpDeps } from './deps.js';
import { ApiError, Code, malformedBody, ok } from './envelope.js';
import { checkMime, cleanName, FileStore, type UploadedFile } from './files.js';
import { asPayload, reqInt, reqStr, type Payload } from './validate.js';

/**
 * Runs a step that reads a multipart body; the parser's own failures (no or bad boundary, a body
 * cut short, a malformed part header) become a 400 envelope instead of an internal error. Limit
 * errors (`FST_...`) and refusals ({@link ApiError}) pass through unchanged.
 */
async function readingMultipart<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('FST_')) throw error;
    const reason = error instanceof Error ? error.message : 'unreadable multipart data';
    throw malformedBody(reason.slice(0, 200));
  }
}

async function multipartFields(request: FastifyRequest, maxFile: number): Promise<{ fields: Payload; data?: Buffer }> {
  if (!request.isMultipart()) throw new ApiError(Code.Upload, 'Upload failed: send multipart/form-data', 415);
  const fields: Payload = {};
  let data: Buffer | undefined;
  await readingMultipart(async () => {
    for await (const part of request.parts({ limits: { fileSize: maxFile, files: 1, fields: 10, fieldSize: 1024 } })) {
      if (part.type === 'file') data = await part.toBuffer();
      else fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
    }
  });
  return data === undefined ? { fields } : { fields, data };
}

/**
 * Registers the upload routes; files are served by the static plugin at `/files/`. Every route
 * needs a bound key session (protocol §3a: 4003 otherwise); a chunked upload belongs to the
 * identity that started it (resumable from any of its key sessions, invisible to others), and
 * every upload counts toward the identity's daily quota (the rules live in `services/uploads.ts`;
 * the bytes are the {@link FileStore}'s).
 */
export function registerUploadRoutes(app: FastifyInstance, deps: HttpDeps, files: FileStore): void {
  const { rate } = deps.config;
  const routeOptions: RouteOptions = { config: { rateLimit: { max: Math.max(rate.httpMax, 1000), timeWindow: rate.httpWindowMs } } };
  registerSingleUpload(app, deps, files, routeOptions);
  registerChunkedUploads(app, deps, files, routeOptions);
}

/** Upload routes' own rate limit (uploads come in bursts of chunks). */
interface RouteOptions {
  config: { rateLimit: { max: number; timeWindow: number } };
}

/** `/oss/aws/upload`: one multipart file, saved, then charged (deleted again when over the quota). */
function registerSingleUpload(app: FastifyInstance, deps: HttpDeps, files: FileStore, uploadConfig: RouteOptions): void {
  const uploads = deps.services.uploads;
  const limits = deps.config.upload;
  const urlOf = (request: FastifyRequest, stored: string): string => `${deps.baseUrl(request)}/files/${stored}`;

  app.post('/oss/aws/upload', uploadConfig, async (request) => {
    const caller = await requireCaller(request, deps);
    await uploads.requireQuota(caller.identity);
    if (!request.isMultipart()) throw new ApiError(Code.Upload, 'Upload failed: send multipart/form-data with a "file" field', 415);
    const part = await readingMultipart(() => request.file({ limits: { fileSize: limits.maxBytes, files: 1 } }));
    if (!part) throw new ApiError(Code.Upload, 'Upload failed: the "file" field is missing', 400);
    let mime: string;
    try {
      mime = checkMime(limits, part.mimetype);
    } catch (error) {
      part.file.resume();
      throw error;
    }
    const name = cleanName(part.filename);
    const saved = await readingMultipart(() => files.saveStream(part.file, name, () => part.file.truncated, limits.maxBytes));
    try {
      await uploads.chargeSaved(caller.identity, saved.size);
    } catch (error) {
      await unlink(join(files.filesDir, saved.stored)).catch(() => undefined);
      throw error;
    }
    await uploads.recordFile({ storedName: saved.stored, owner: caller.identity, name, size: saved.size, mime });
    const answer: UploadedFile = { url: urlOf(request, saved.stored), name, size: saved.size, mime };
    return ok(answer);
  });
}

/** `/oss/unifiedOss/chunk/{init,upload,complete,abort}`: chunked uploads with resume. */
function registerChunkedUploads(app: FastifyInstance, deps: HttpDeps, files: FileStore, uploadConfig: RouteOptions): void {
  const uploads = deps.services.uploads;
  const limits = deps.config.upload;

  app.post('/oss/unifiedOss/chunk/init', uploadConfig, async (request) => {
    const caller = await requireCaller(request, deps);
    const p = asPayload(request.body, 'body');
    const fileName = cleanName(reqStr(p, 'fileName', 255));
    const fileSize = reqInt(p, 'fileSize', 1, Number.MAX_SAFE_INTEGER);
    if (fileSize > limits.maxBytes) {
      throw new ApiError(Code.Upload, `Upload failed: the file is larger than ${limits.maxBytes} bytes`);
    }
    const mime = checkMime(limits, reqStr(p, 'mime', 255));
    const requested = reqInt(p, 'chunkSize', 1, Number.MAX_SAFE_INTEGER);
    const { upload, resumed } = await uploads.startChunked(caller.identity, { fileName, fileSize, mime, chunkSize: requested });
    const uploaded = resumed ? [...(await files.parts(upload.uploadId)).keys()].filter((i) => i < upload.chunkCount) : [];
    return ok({ uploadId: upload.uploadId, chunkSize: upload.chunkSize, chunkCount: upload.chunkCount, uploaded });
  });

  // two completes racing assemble the file once
  const completing = new Map<string, Promise<string>>();
  app.post('/oss/unifiedOss/chunk/upload', uploadConfig, async (request) => {
    const caller = await requireCaller(request, deps);
    const { fields, data } = await multipartFields(request, CHUNK_BOUNDS.max);
    const upload = await uploads.owned(reqStr(fields, 'uploadId'), caller.identity);
    if (upload.fileUrl !== null) throw new ApiError(Code.Upload, 'Upload failed: this upload is already complete');
    const index = reqInt(fields, 'index', 0, upload.chunkCount - 1);
    if (!data) throw new ApiError(Code.Upload, 'Upload failed: the "file" field is missing', 400);
    const expected = index === upload.chunkCount - 1 ? upload.fileSize - upload.chunkSize * (upload.chunkCount - 1) : upload.chunkSize;
    if (data.length !== expected) {
      throw new ApiError(Code.Upload, `Upload failed: chunk ${index} must be ${expected} bytes, got ${data.length}`);
    }
    await files.writePart(upload.uploadId, index, data);
    return ok({ index, size: data.length });
  });

  app.post('/oss/unifiedOss/chunk/complete', uploadConfig, async (request) => {
    const caller = await requireCaller(request, deps);
    const p = asPayload(request.body, 'body');
    let upload = await uploads.owned(reqStr(p, 'uploadId'), caller.identity);
    if (upload.fileUrl === null) {
      const held = await files.parts(upload.uploadId);
      const missing: number[] = [];
      for (let i = 0; i < upload.chunkCount; i += 1) if (!held.has(i)) missing.push(i);
      if (missing.length > 0) {
        throw new ApiError(Code.Upload, `Upload failed: chunks missing: ${missing.slice(0, 20).join(', ')}`);
      }
      const { uploadId } = upload;
      let assembling = completing.get(uploadId);
      if (!assembling) {
        assembling = files.assemble(uploadId, upload.chunkCount, upload.fileName).finally(() => completing.delete(uploadId));
        completing.set(uploadId, assembling);
      }
      const stored = await assembling;
      upload = await uploads.completed(upload, `/files/${stored}`);
      await uploads.recordFile({ storedName: stored, owner: upload.clientKey, name: upload.fileName, size: upload.fileSize, mime: upload.mime });
    }
    const answer: UploadedFile = {
      url: `${deps.baseUrl(request)}${upload.fileUrl}`,
      name: upload.fileName,
      size: upload.fileSize,
      mime: upload.mime,
    };
    return ok(answer);
  });

  app.post('/oss/unifiedOss/chunk/abort', uploadConfig, async (request) => {
    const caller = await requireCaller(request, deps);
    const p = request.isMultipart() ? (await multipartFields(request, 1)).fields : asPayload(request.body, 'body');
    const upload = await uploads.owned(reqStr(p, 'uploadId'), caller.identity);
    await files.deleteParts(upload.uploadId);
    await uploads.aborted(upload);
    return ok(null);
  });
}
