/** The upload service: chunked uploads belong to their owner, and every byte counts toward the daily quota. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { CHUNK_BOUNDS, Uploads } from '../../src/services/uploads.js';
import { refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
let uploads: Uploads;
beforeEach(async () => {
  fx = await serviceFixture();
  uploads = new Uploads(fx.store, 10_000, () => Date.UTC(2026, 10, 26, 12));
});
afterEach(async () => {
  await fx.close();
});

const file = { fileName: 'a.png', fileSize: 3000, mime: 'image/png', chunkSize: 1 };

describe('chunked uploads', () => {
  it('starts one (chunk size clamped), resumes it for its owner, refuses it to others (4003)', async () => {
    const started = await uploads.startChunked('v1', file);
    expect(started).toMatchObject({ resumed: false, upload: { clientKey: 'v1', chunkSize: CHUNK_BOUNDS.min, chunkCount: 3, fileUrl: null } });
    const resumed = await uploads.startChunked('v1', file);
    expect(resumed).toMatchObject({ resumed: true, upload: { uploadId: started.upload.uploadId } });
    await expect(uploads.owned(started.upload.uploadId, 'v1')).resolves.toMatchObject({ fileName: 'a.png' });
    expect(await refusalOf(uploads.owned(started.upload.uploadId, 'v2'))).toEqual({ code: Code.Forbidden, message: 'Forbidden: this upload belongs to someone else' });
    expect((await refusalOf(uploads.owned('none', 'v1'))).code).toBe(Code.Upload);
  });

  it('charges the declared size at start, once; an abort refunds it; a completed one is not refunded', async () => {
    const a = await uploads.startChunked('v1', file);
    await uploads.startChunked('v1', file); // resumed: not charged again
    await uploads.chargeSaved('v1', 7000); // 3000 + 7000 = the whole quota
    expect((await refusalOf(uploads.requireQuota('v1'))).code).toBe(Code.UploadQuota);
    await uploads.aborted(a.upload);
    await expect(uploads.requireQuota('v1')).resolves.toBeUndefined();
    expect(await fx.store.records.upload(a.upload.uploadId)).toBeUndefined();

    const b = await uploads.startChunked('v1', file);
    const done = await uploads.completed(b.upload, '/files/b.png');
    expect(await fx.store.records.upload(b.upload.uploadId)).toMatchObject({ fileUrl: '/files/b.png' });
    await uploads.aborted(done);
    expect((await refusalOf(uploads.chargeSaved('v1', 1))).code).toBe(Code.UploadQuota);
  });

  it('refuses a start over the quota and stores nothing', async () => {
    expect((await refusalOf(uploads.startChunked('v1', { ...file, fileSize: 10_001 }))).code).toBe(Code.UploadQuota);
    expect(await uploads.stale(Number.MAX_SAFE_INTEGER)).toEqual([]);
  });
});
