import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestCancelledError } from '../http/errors.js';
import { splitIntoChunks, uploadChunked } from './chunked.js';
import { MemoryUploadTransport } from './memory-transport.fixture.js';
import type { UploadProgress } from './types.js';

function bytes(n: number): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length: n }, (_, i) => i % 251);
}

function fileOf(n: number, name = 'movie.mp4', type = 'video/mp4'): File {
  return new File([bytes(n)], name, { type });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('splitIntoChunks: a file is cut into chunkSize pieces, the last one shorter', () => {
  it('cuts 10 bytes by 4 into 0-4, 4-8, 8-10', () => {
    expect(splitIntoChunks(10, 4)).toEqual([
      { index: 0, start: 0, end: 4 },
      { index: 1, start: 4, end: 8 },
      { index: 2, start: 8, end: 10 },
    ]);
  });

  it('gives one chunk when the size is an exact multiple or smaller, none for 0 bytes', () => {
    expect(splitIntoChunks(8, 8)).toEqual([{ index: 0, start: 0, end: 8 }]);
    expect(splitIntoChunks(3, 8)).toEqual([{ index: 0, start: 0, end: 3 }]);
    expect(splitIntoChunks(0, 8)).toEqual([]);
  });

  it('refuses bad input with a clear RangeError', () => {
    expect(() => splitIntoChunks(10, 0)).toThrow(/chunkSize must be an integer >= 1/);
    expect(() => splitIntoChunks(-1, 4)).toThrow(/size must be an integer >= 0/);
    expect(() => splitIntoChunks(10, 2.5)).toThrow(RangeError);
    expect(() => splitIntoChunks(Number.NaN, 4)).toThrow(RangeError);
  });
});

describe('uploadChunked: init, the chunks in order with progress after each, complete (protocol §4)', () => {
  it('uploads every chunk in index order and the server gets the same bytes', async () => {
    const transport = new MemoryUploadTransport();
    const progress: UploadProgress[] = [];
    const file = fileOf(10);
    const done = await uploadChunked(transport, file, { chunkSize: 4, onProgress: (p) => progress.push(p) });

    expect(transport.calls.map((c) => (c.method === 'chunkUpload' ? `chunk${c.index}` : c.method))).toEqual([
      'chunkInit',
      'chunk0',
      'chunk1',
      'chunk2',
      'chunkComplete',
    ]);
    expect(progress).toEqual([
      { loaded: 0, total: 10 },
      { loaded: 4, total: 10 },
      { loaded: 8, total: 10 },
      { loaded: 10, total: 10 },
    ]);
    expect(done).toMatchObject({ name: 'movie.mp4', size: 10, mime: 'video/mp4' });
    const stored = transport.stored.get(done.url);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes(10));
  });

  it('sends the file name, size, mime (guessed from the name when empty) and proposed chunk size', async () => {
    const transport = new MemoryUploadTransport();
    const spy = vi.spyOn(transport, 'chunkInit');
    await uploadChunked(transport, new File([bytes(5)], 'clip.mov'), { chunkSize: 2 });
    expect(spy).toHaveBeenCalledWith({ fileName: 'clip.mov', fileSize: 5, mime: 'video/quicktime', chunkSize: 2 });
  });

  it('cuts by the chunk size the server settled on', async () => {
    const transport = new MemoryUploadTransport();
    const real = transport.chunkInit.bind(transport);
    vi.spyOn(transport, 'chunkInit').mockImplementation((q) => real({ ...q, chunkSize: 5 }));
    await uploadChunked(transport, fileOf(10), { chunkSize: 2 });
    expect(transport.calls.filter((c) => c.method === 'chunkUpload')).toHaveLength(2);
  });

  it('rejects an init answer without an uploadId, and one whose chunk count does not fit the file', async () => {
    const transport = new MemoryUploadTransport();
    vi.spyOn(transport, 'chunkInit').mockResolvedValueOnce({ uploadId: '', chunkSize: 4, chunkCount: 3, uploaded: [] });
    await expect(uploadChunked(transport, fileOf(10), { chunkSize: 4 })).rejects.toThrow(/without a valid uploadId/);
    vi.spyOn(transport, 'chunkInit').mockResolvedValueOnce({ uploadId: 'x', chunkSize: 4, chunkCount: 7, uploaded: [] });
    await expect(uploadChunked(transport, fileOf(10), { chunkSize: 4 })).rejects.toThrow(/expects 7 chunks, the file makes 3/);
  });

  it('refuses something that is not a Blob, and a bad chunk size, before calling the server', async () => {
    const transport = new MemoryUploadTransport();
    await expect(uploadChunked(transport, 'not a file' as unknown as File, { chunkSize: 4 })).rejects.toThrow(TypeError);
    await expect(uploadChunked(transport, fileOf(10), { chunkSize: 0 })).rejects.toThrow(RangeError);
    expect(transport.calls).toEqual([]);
  });
});

describe('uploadChunked: an interrupted upload resumes from the chunks the server already holds', () => {
  it('after the 3rd chunk fails, a second call uploads only the missing chunks', async () => {
    const transport = new MemoryUploadTransport();
    const file = fileOf(20);
    transport.failNext('chunkUpload', 3);
    await expect(uploadChunked(transport, file, { chunkSize: 4 })).rejects.toThrow(/chunkUpload failed/);
    const [uploadId] = transport.openUploads;
    expect(transport.heldChunks(uploadId!)).toEqual([0, 1]);
    expect(transport.calls.some((c) => c.method === 'chunkAbort')).toBe(false);

    transport.calls.length = 0;
    const progress: UploadProgress[] = [];
    const done = await uploadChunked(transport, file, { chunkSize: 4, onProgress: (p) => progress.push(p) });
    expect(transport.calls.filter((c) => c.method === 'chunkUpload').map((c) => c.index)).toEqual([2, 3, 4]);
    expect(progress[0]).toEqual({ loaded: 8, total: 20 });
    expect(progress.at(-1)).toEqual({ loaded: 20, total: 20 });
    expect(new Uint8Array(await transport.stored.get(done.url)!.arrayBuffer())).toEqual(bytes(20));
  });
});

describe('uploadChunked: aborting rejects with the cancellation error and deletes the server parts', () => {
  it('aborts while a chunk request hangs (a cancelled request never settles): rejects at once, chunkAbort is sent', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 100, onAbort: 'hang' });
    const controller = new AbortController();
    const result = uploadChunked(transport, fileOf(12), { chunkSize: 4, signal: controller.signal });
    const settled = vi.fn();
    result.then(settled, settled);
    await vi.advanceTimersByTimeAsync(150); // init done, chunk 0 done at 200
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toHaveBeenCalledTimes(1);
    await expect(result).rejects.toBeInstanceOf(RequestCancelledError);
    await vi.advanceTimersByTimeAsync(100);
    expect(transport.calls.filter((c) => c.method === 'chunkAbort')).toHaveLength(1);
    expect(transport.openUploads).toEqual([]);
    expect(transport.calls.some((c) => c.method === 'chunkComplete')).toBe(false);
  });

  it('aborts during init: once the init answer arrives its upload is aborted too', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 100 });
    const controller = new AbortController();
    const result = uploadChunked(transport, fileOf(12), { chunkSize: 4, signal: controller.signal });
    controller.abort();
    await expect(result).rejects.toBeInstanceOf(RequestCancelledError);
    await vi.advanceTimersByTimeAsync(300);
    expect(transport.calls.map((c) => c.method)).toEqual(['chunkInit', 'chunkAbort']);
    expect(transport.openUploads).toEqual([]);
  });

  it('an already aborted signal calls nothing', async () => {
    const transport = new MemoryUploadTransport();
    await expect(uploadChunked(transport, fileOf(12), { chunkSize: 4, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      RequestCancelledError,
    );
    expect(transport.calls).toEqual([]);
  });

  it('a failing chunkAbort is ignored: the upload still rejects with the cancellation error', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 10 });
    transport.failNext('chunkAbort');
    const controller = new AbortController();
    const result = uploadChunked(transport, fileOf(12), { chunkSize: 4, signal: controller.signal });
    await vi.advanceTimersByTimeAsync(15);
    controller.abort();
    await expect(result).rejects.toBeInstanceOf(RequestCancelledError);
    await vi.advanceTimersByTimeAsync(50);
    expect(transport.calls.filter((c) => c.method === 'chunkAbort')).toHaveLength(1);
  });
});
