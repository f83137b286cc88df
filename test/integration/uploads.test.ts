/**
 * Uploads and complaints, SDK against the real reference server over loopback: a complaint with
 * two uploaded images (createMsg type 400), and a chunked upload that resumes after a failed chunk
 * and whose abort deletes the parts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkComplaintAttachments, uploadChunked } from '../../src/upload/index.js';
import {
  isCancelledError,
  type ChunkInitQuery,
  type ChunkInitResult,
  type ChunkRef,
  type ChunkUploadQuery,
  type ChunkUploadResult,
  type UploadCallOptions,
  type UploadedFile,
  type UploadTransport,
} from '../../src/index.js';
import { clientsPerTest, DEMO, DEMO_VISITOR, download, open, pngBytes, sharedServer, type TestServer } from './harness.js';

let server: TestServer;

sharedServer((s) => (server = s));
const clients = clientsPerTest();

/**
 * A connected visitor: uploads and visitor-scoped (enc) calls carry its salt key, which the
 * accepted connect bound to it (protocol §3a).
 */
async function startedVisitor() {
  const rec = clients.make(server, { connectData: DEMO_VISITOR });
  await open(rec);
  return rec;
}

describe('complaint with attachments (createMsg type 400, up to 5 images)', () => {
  it('uploads two images, files the complaint with their URLs, and the server stores it once', async () => {
    const { client, notices } = await startedVisitor();
    const red = new File([pngBytes([255, 0, 0])], 'red.png', { type: 'image/png' });
    const blue = new File([pngBytes([0, 0, 255], 6)], 'blue.png', { type: 'image/png' });
    const check = checkComplaintAttachments([red, blue]);
    expect(check.errors).toEqual([]);
    expect(check.images).toHaveLength(2);

    const uploaded: UploadedFile[] = [];
    for (const file of check.images) uploaded.push(await client.api.uploadFile(file));
    expect(uploaded.map((u) => ({ name: u.name, mime: u.mime, size: u.size }))).toEqual([
      { name: 'red.png', mime: 'image/png', size: red.size },
      { name: 'blue.png', mime: 'image/png', size: blue.size },
    ]);
    // each URL serves back exactly the bytes uploaded
    for (const [i, file] of [red, blue].entries()) {
      const served = await download(uploaded[i]!.url);
      expect(served.status).toBe(200);
      expect(served.type).toBe('image/png');
      expect(Buffer.from(served.bytes).equals(Buffer.from(await file.arrayBuffer()))).toBe(true);
    }

    const occurredAt = Date.now() - 3_600_000;
    const complaint = {
      account: 'demo_member',
      description: 'The deposit ORD202400001 shows success but my balance did not change.',
      occurredAt,
      images: uploaded.map((u) => u.url),
    };
    const fp = randomUUID();
    const message = { type: 400, from: client.clientId, fp, mchId: DEMO.mchId, platformId: DEMO.platformId, dataContent: JSON.stringify(complaint) };
    const answer = await client.api.createMsg(message);
    expect(answer).toMatchObject({ type: 400, from: client.clientId, fp });
    expect(JSON.parse(answer.dataContent ?? '')).toEqual(complaint);

    const stored = await server.store.records.complaints(client.clientId);
    expect(stored).toEqual([
      expect.objectContaining({ fp, account: 'demo_member', description: complaint.description, occurredAt, images: complaint.images, video: null }),
    ]);
    // a resend with the same fp answers the stored record and stores nothing more
    const again = await client.api.createMsg(message);
    expect(again.fp).toBe(fp);
    expect(await server.store.records.complaints(client.clientId)).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('a complaint naming more than 5 images is refused with the server message as a notice', async () => {
    const { client, notices } = await startedVisitor();
    const url = (await client.api.uploadFile(new File([pngBytes([0, 255, 0])], 'g.png', { type: 'image/png' }))).url;
    const dataContent = JSON.stringify({ account: 'demo_member', description: 'too many', occurredAt: Date.now(), images: Array(6).fill(url) });
    const refused = await client.api
      .createMsg({ type: 400, from: client.clientId, fp: randomUUID(), mchId: DEMO.mchId, dataContent })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'ApiError', code: 1001, message: 'At most 5 images allowed' });
    expect(notices.map((n) => n.text)).toEqual(['At most 5 images allowed']);
    expect(await server.store.records.complaints(client.clientId)).toEqual([]);
  });
});

/** The client's upload calls, recorded, with failures injected into `chunkUpload`. */
class RecordingTransport implements UploadTransport {
  readonly inits: ChunkInitResult[] = [];
  readonly sent: number[] = [];
  readonly aborts: Promise<unknown>[] = [];
  failOnce = new Set<number>();
  afterChunk: ((index: number) => void) | undefined;

  constructor(private readonly inner: UploadTransport) {}

  uploadFile(file: Blob, name?: string, opts?: UploadCallOptions): Promise<UploadedFile> {
    return this.inner.uploadFile(file, name, opts);
  }

  async chunkInit(q: ChunkInitQuery): Promise<ChunkInitResult> {
    const result = await this.inner.chunkInit(q);
    this.inits.push(result);
    return result;
  }

  async chunkUpload(q: ChunkUploadQuery, opts?: UploadCallOptions): Promise<ChunkUploadResult> {
    if (this.failOnce.delete(q.index)) throw new TypeError('fetch failed (injected: the network dropped)');
    const result = await this.inner.chunkUpload(q, opts);
    this.sent.push(q.index);
    this.afterChunk?.(q.index);
    return result;
  }

  chunkComplete(q: ChunkRef): Promise<UploadedFile> {
    return this.inner.chunkComplete(q);
  }

  chunkAbort(q: ChunkRef): Promise<unknown> {
    const call = this.inner.chunkAbort(q);
    this.aborts.push(call);
    return call;
  }
}

describe('chunked upload (docs/protocol.md §4): an interrupted upload resumes; abort deletes the parts', () => {
  it('resumes after the 2nd chunk failed: the server reports the chunks it holds and only the missing ones are sent', async () => {
    const { client } = await startedVisitor();
    const bytes = randomBytes(5 * 1024 + 300);
    const file = new File([bytes], 'statement.pdf', { type: 'application/pdf' });
    const transport = new RecordingTransport(client.api);
    transport.failOnce.add(1);

    const firstTry = await uploadChunked(transport, file, { chunkSize: 1024 }).catch((e: unknown) => e);
    expect(firstTry).toBeInstanceOf(TypeError);
    expect(transport.inits[0]).toMatchObject({ chunkSize: 1024, chunkCount: 6, uploaded: [] });
    expect(transport.sent).toEqual([0]);
    const uploadId = transport.inits[0]!.uploadId;
    expect(existsSync(join(server.dataDir, 'parts', uploadId, '0'))).toBe(true);

    transport.sent.length = 0;
    const progress: number[] = [];
    const done = await uploadChunked(transport, file, { chunkSize: 1024, onProgress: (p) => progress.push(p.loaded) });
    expect(transport.inits[1]).toMatchObject({ uploadId, chunkSize: 1024, chunkCount: 6, uploaded: [0] });
    expect(transport.sent).toEqual([1, 2, 3, 4, 5]);
    expect(progress[0]).toBe(1024); // the held chunk counts from the start
    expect(progress.at(-1)).toBe(bytes.length);
    expect(done).toMatchObject({ name: 'statement.pdf', size: bytes.length, mime: 'application/pdf' });

    const served = await download(done.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(served.bytes).equals(bytes)).toBe(true);
    expect(existsSync(join(server.dataDir, 'parts', uploadId))).toBe(false);
  });

  it('abort rejects with a cancellation error and the server deletes the parts', async () => {
    const { client } = await startedVisitor();
    const bytes = randomBytes(4 * 1024);
    const file = new File([bytes], 'video-notes.txt', { type: 'text/plain' });
    const transport = new RecordingTransport(client.api);
    const controller = new AbortController();
    transport.afterChunk = (index) => {
      if (index === 1) controller.abort();
    };

    const aborted = await uploadChunked(transport, file, { chunkSize: 1024, signal: controller.signal }).catch((e: unknown) => e);
    expect(isCancelledError(aborted)).toBe(true);
    expect(transport.sent).toEqual([0, 1]);
    const uploadId = transport.inits[0]!.uploadId;
    expect(transport.aborts).toHaveLength(1);
    await expect(transport.aborts[0]).resolves.toBeNull();
    expect(existsSync(join(server.dataDir, 'parts', uploadId))).toBe(false);
    expect(await server.store.records.upload(uploadId)).toBeUndefined();

    // the same file starts afresh: nothing is held any more
    const fresh = await client.api.chunkInit({ fileName: file.name, fileSize: file.size, mime: file.type, chunkSize: 1024 });
    expect(fresh.uploadId).not.toBe(uploadId);
    expect(fresh.uploaded).toEqual([]);
  });
});
