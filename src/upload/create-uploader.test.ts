import { describe, expect, it } from 'vitest';
import { ImClient } from '../client.js';
import { memoryStorage } from '../state/storage.js';
import { createUploader } from './create-uploader.js';
import { MemoryUploadTransport } from './memory-transport.fixture.js';

const png = (size: number): File => new File([new Uint8Array(size)], 'a.png', { type: 'image/png' });

describe('createUploader: an upload queue bound to a client', () => {
  it("uses the client's upload calls, its chunk size and its texts in the current language", async () => {
    const api = new MemoryUploadTransport();
    const texts: string[] = [];
    const host = { api, limits: { chunkSize: 4 }, t: (key: 'uploadFailed') => (texts.push(key), `t:${key}`) };
    const uploader = createUploader(host, { chunkThreshold: 8 });
    const [small, large] = uploader.add([png(3), png(10)]).added;
    await uploader.startAll();
    expect(uploader.get(small!.id)?.status).toBe('done');
    expect(uploader.get(large!.id)?.status).toBe('done');
    // 10 bytes in chunks of the client's 4: three parts
    expect(api.calls.filter((c) => c.method === 'chunkUpload')).toHaveLength(3);
    api.failNext('uploadFile');
    const [failing] = uploader.add([png(2)]).added;
    await uploader.start(failing!.id);
    expect(uploader.get(failing!.id)?.message).toBe('t:uploadFailed');
    expect(texts).toEqual(['uploadFailed']);
    uploader.destroy();
  });

  it('takes a real ImClient and the spec §5 defaults (images only)', () => {
    const client = new ImClient({ baseUrl: 'http://x', socketUrl: 'ws://x', socketKey: 'a,b', storage: memoryStorage() });
    const uploader = createUploader(client);
    const { added, rejected } = uploader.add([png(1), new File(['x'], 'doc.pdf', { type: 'application/pdf' })]);
    expect(added).toHaveLength(1);
    expect(rejected.map((r) => r.reason)).toEqual(['type']);
    uploader.destroy();
    client.destroy();
  });

  it('spec §9 "chunking helper default: 8 per chunk": a client cuts files in 8 MiB chunks; 8 MiB itself goes whole', async () => {
    const client = new ImClient({ baseUrl: 'http://x', socketUrl: 'ws://x', socketKey: 'a,b', storage: memoryStorage() });
    const MiB = 1024 * 1024;
    expect(client.limits.chunkSize).toBe(8 * MiB);
    const api = new MemoryUploadTransport();
    const inits: number[] = [];
    const init = api.chunkInit.bind(api);
    api.chunkInit = (q) => (inits.push(q.chunkSize), init(q));
    const uploader = createUploader({ api, limits: client.limits, t: (key) => client.t(key) });
    const [whole, chunked] = uploader.add([png(8 * MiB), png(8 * MiB + 1)]).added;
    await uploader.startAll();
    expect(uploader.get(whole!.id)?.status).toBe('done');
    expect(uploader.get(chunked!.id)?.status).toBe('done');
    expect(api.calls.map((c) => c.method)).toEqual(['uploadFile', 'chunkInit', 'chunkUpload', 'chunkUpload', 'chunkComplete']);
    expect(inits).toEqual([8 * MiB]);
    uploader.destroy();
    client.destroy();
  });

  it('refuses something that is not a client with a clear error', () => {
    expect(() => createUploader(null as never)).toThrow(/expected an ImClient/);
    expect(() => createUploader({} as never)).toThrow(/expected an ImClient/);
  });
});
