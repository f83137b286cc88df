import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { boundSession, enc, http, type Envelope, type Session } from '../../../conformance/src/client/index.js';
import { serverForFile } from './helpers/file-server.js';

const server = serverForFile({}, { UPLOAD_MAX_BYTES: String(200 * 1024), UPLOAD_ALLOWED_MIME: 'image/*,video/mp4,application/pdf' });
let session: Session & { clientId: string };

beforeAll(async () => {
  session = await boundSession(server);
});

interface Uploaded {
  url: string;
  name: string;
  size: number;
  mime: string;
}

async function post<T>(path: string, form: FormData): Promise<Envelope<T>> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', body: form, headers: { 'x-salt-key': session.saltKey } });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope<T>;
}

function fileForm(bytes: Buffer, name: string, mime: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([bytes], { type: mime }), name);
  return form;
}

const json = (path: string, body: unknown) => http(`${server.url}${path}`, { body, headers: { 'x-salt-key': session.saltKey } });

describe('docs/protocol.md §4: single upload', () => {
  it('stores a multipart file and serves it back by URL', async () => {
    const bytes = randomBytes(3000);
    const res = await post<Uploaded>('/oss/aws/upload', fileForm(bytes, 'photo.png', 'image/png'));
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ name: 'photo.png', size: 3000, mime: 'image/png' });
    expect(res.data.url).toMatch(new RegExp(`^${server.url}/files/[0-9a-f-]+\\.png$`));
    const served = await fetch(res.data.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a file over the size limit and a type that is not allowed with 3001 and a clear message', async () => {
    const big = await post('/oss/aws/upload', fileForm(randomBytes(200 * 1024 + 1), 'big.png', 'image/png'));
    expect(big.code).toBe(3001);
    expect(big.message).toMatch(/too large|larger than/);
    const html = await post('/oss/aws/upload', fileForm(Buffer.from('<script>'), 'x.html', 'text/html'));
    expect(html).toMatchObject({ code: 3001, message: 'Upload failed: the file type "text/html" is not allowed' });
    const none = await fetch(`${server.url}/oss/aws/upload`, { method: 'POST', body: JSON.stringify({}), headers: { 'content-type': 'application/json', 'x-salt-key': session.saltKey } });
    expect(((await none.json()) as Envelope).code).toBe(3001);
    // nothing was left behind
    expect(readdirSync(join(server.dataDir, 'files')).length).toBe(1);
  });
});

describe('docs/protocol.md §4: chunked upload with resume and abort', () => {
  it('an interrupted upload resumes: init again returns the same uploadId and the chunks already held', async () => {
    const bytes = randomBytes(5000);
    const meta = { fileName: 'clip.mp4', fileSize: bytes.length, mime: 'video/mp4', chunkSize: 2048 };
    const init = await json('/oss/unifiedOss/chunk/init', meta);
    const { uploadId, chunkSize, chunkCount, uploaded } = init.body.data as { uploadId: string; chunkSize: number; chunkCount: number; uploaded: number[] };
    expect({ chunkSize, chunkCount, uploaded }).toEqual({ chunkSize: 2048, chunkCount: 3, uploaded: [] });
    const chunk = (i: number) => bytes.subarray(i * chunkSize, Math.min(bytes.length, (i + 1) * chunkSize));
    const part0 = await post<{ index: number; size: number }>('/oss/unifiedOss/chunk/upload', fileForm(chunk(0), 'blob', 'application/octet-stream', { uploadId, index: '0' }));
    expect(part0).toMatchObject({ code: 0, data: { index: 0, size: 2048 } });
    await post('/oss/unifiedOss/chunk/upload', fileForm(chunk(2), 'blob', 'application/octet-stream', { uploadId, index: '2' }));
    // "interrupted": the client starts again
    const resumed = await json('/oss/unifiedOss/chunk/init', meta);
    expect(resumed.body.data).toMatchObject({ uploadId, uploaded: [0, 2] });
    // completing with a chunk missing is refused and names it
    const early = await json('/oss/unifiedOss/chunk/complete', { uploadId });
    expect(early.body).toMatchObject({ code: 3001, message: 'Upload failed: chunks missing: 1' });
    // a wrong-sized chunk is refused
    const wrong = await post('/oss/unifiedOss/chunk/upload', fileForm(randomBytes(10), 'blob', 'application/octet-stream', { uploadId, index: '1' }));
    expect(wrong.code).toBe(3001);
    await post('/oss/unifiedOss/chunk/upload', fileForm(chunk(1), 'blob', 'application/octet-stream', { uploadId, index: '1' }));
    const done = await json('/oss/unifiedOss/chunk/complete', { uploadId });
    const file = done.body.data as Uploaded;
    expect(file).toMatchObject({ name: 'clip.mp4', size: 5000, mime: 'video/mp4' });
    const served = Buffer.from(await (await fetch(file.url)).arrayBuffer());
    expect(served.equals(bytes)).toBe(true);
    expect(existsSync(join(server.dataDir, 'parts', uploadId))).toBe(false);
    // completing again answers the same file; a new init starts a new upload
    expect((await json('/oss/unifiedOss/chunk/complete', { uploadId })).body.data).toEqual(file);
    expect((await json('/oss/unifiedOss/chunk/init', meta)).body.data).toMatchObject({ uploaded: [] });
  });

  it('abort deletes the parts and forgets the upload', async () => {
    const init = await json('/oss/unifiedOss/chunk/init', { fileName: 'doc.pdf', fileSize: 3000, mime: 'application/pdf', chunkSize: 1024 });
    const { uploadId } = init.body.data as { uploadId: string };
    await post('/oss/unifiedOss/chunk/upload', fileForm(randomBytes(1024), 'blob', 'application/octet-stream', { uploadId, index: '0' }));
    expect(existsSync(join(server.dataDir, 'parts', uploadId, '0'))).toBe(true);
    const form = new FormData();
    form.append('uploadId', uploadId);
    expect(await post('/oss/unifiedOss/chunk/abort', form)).toMatchObject({ code: 0, data: null });
    expect(existsSync(join(server.dataDir, 'parts', uploadId))).toBe(false);
    const after = await post('/oss/unifiedOss/chunk/upload', fileForm(randomBytes(1024), 'blob', 'application/octet-stream', { uploadId, index: '0' }));
    expect(after).toMatchObject({ code: 3001, message: 'Upload failed: unknown or aborted upload' });
  });

  it('refuses an init over the size limit or of a type not allowed', async () => {
    const big = await json('/oss/unifiedOss/chunk/init', { fileName: 'a.mp4', fileSize: 10 ** 9, mime: 'video/mp4', chunkSize: 4096 });
    expect(big.body.code).toBe(3001);
    const exe = await json('/oss/unifiedOss/chunk/init', { fileName: 'a.exe', fileSize: 10, mime: 'application/x-msdownload', chunkSize: 4096 });
    expect(exe.body.code).toBe(3001);
  });
});

describe('spec §3: complaint with attachments and leave messages (createMsg)', () => {
  it('stores a complaint with up to 5 images and 1 video, once per fp', async () => {
    const images: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      images.push((await post<Uploaded>('/oss/aws/upload', fileForm(randomBytes(100), `p${i}.jpg`, 'image/jpeg'))).data.url);
    }
    const video = (await post<Uploaded>('/oss/aws/upload', fileForm(randomBytes(100), 'v.mp4', 'video/mp4'))).data.url;
    const clientId = session.clientId;
    const fp = randomUUID();
    const complaint = { account: 'member001', description: 'The deposit did not arrive', occurredAt: Date.now() - 60_000, images, video };
    const message = { type: 400, from: clientId, fp, mchId: 'M1001', platformId: 'P01', dataContent: JSON.stringify(complaint) };
    const res = await enc<{ fp: string; createTime: number; dataContent: string }>(server.url, session, 'POST', 'createMsg', message);
    expect(res.code).toBe(0);
    expect(res.data.fp).toBe(fp);
    expect(JSON.parse(res.data.dataContent)).toEqual(complaint);
    const again = await enc<{ createTime: number }>(server.url, session, 'POST', 'createMsg', message);
    expect(again.data.createTime).toBe(res.data.createTime);
    expect(await server.store.records.complaints(clientId)).toHaveLength(1);
    expect((await server.store.records.complaints(clientId))[0]?.images).toEqual(images);
  });

  it('refuses a sixth image, a second video, and missing required fields', async () => {
    const base = { account: 'm', description: 'd', occurredAt: Date.now() };
    const send = (c: Record<string, unknown>) =>
      enc(server.url, session, 'POST', 'createMsg', { type: 400, from: session.clientId, fp: randomUUID(), mchId: 'M1001', dataContent: JSON.stringify(c) });
    expect((await send({ ...base, images: Array.from({ length: 6 }, () => '/files/x.png') })).message).toBe('At most 5 images allowed');
    expect((await send({ ...base, video: ['/files/a.mp4', '/files/b.mp4'] })).message).toBe('At most 1 video allowed');
    expect((await send({ account: 'm', occurredAt: Date.now() })).message).toBe('description is required');
  });

  it('stores a left message', async () => {
    const clientId = session.clientId;
    const res = await enc(server.url, session, 'POST', 'createMsg', {
      type: 401,
      from: clientId,
      fp: randomUUID(),
      mchId: 'M1001',
      dataContent: JSON.stringify({ contact: '+86 138 0000 0000', content: 'Please call me back', name: 'Li' }),
    });
    expect(res.code).toBe(0);
    expect(await server.store.records.leaveMessages(clientId)).toMatchObject([{ contact: '+86 138 0000 0000', content: 'Please call me back', name: 'Li' }]);
  });
});
