import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryUploadTransport } from './memory-transport.fixture.js';
import type { UploadItem } from './types.js';
import { Uploader, type UploaderOptions } from './uploader.js';

const image = (name = 'a.png', size = 10): File => new File([new Uint8Array(size)], name, { type: 'image/png' });
const video = (name = 'v.mp4', size = 10): File => new File([new Uint8Array(size)], name, { type: 'video/mp4' });
const pdf = (name = 'doc.pdf', size = 10): File => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

function setup(overrides: Partial<Omit<UploaderOptions, 'transport'>> & { transport?: MemoryUploadTransport } = {}) {
  const transport = overrides.transport ?? new MemoryUploadTransport();
  const urls = { created: [] as string[], revoked: [] as string[] };
  let n = 0;
  const uploader = new Uploader({
    transport,
    chunkSize: 4,
    chunkThreshold: 16,
    messages: { uploadFailed: '上传失败' },
    createObjectURL: () => {
      const url = `blob:test/${++n}`;
      urls.created.push(url);
      return url;
    },
    revokeObjectURL: (url) => urls.revoked.push(url),
    ...overrides,
  });
  return { uploader, transport, urls };
}

const statuses = (items: readonly UploadItem[]) => items.map((i) => i.status);

afterEach(() => {
  vi.useRealTimers();
});

describe('Uploader limits (spec §5): maximum count default unlimited, maximum size default unlimited, accepted type defaults to images', () => {
  it('accepts only images by default', () => {
    const { uploader } = setup();
    const { added, rejected } = uploader.add([image(), pdf(), video()]);
    expect(added.map((i) => i.file.name)).toEqual(['a.png']);
    expect(rejected.map((r) => [r.file.name, r.reason])).toEqual([
      ['doc.pdf', 'type'],
      ['v.mp4', 'type'],
    ]);
  });

  it('accepts what the accept list names (MIME wildcards and extensions)', () => {
    const { uploader } = setup({ accept: 'video/*,.pdf' });
    const { added } = uploader.add([image(), pdf(), video()]);
    expect(added.map((i) => [i.file.name, i.kind])).toEqual([
      ['doc.pdf', 'file'],
      ['v.mp4', 'video'],
    ]);
  });

  it('has no count or size limit unless set', () => {
    const { uploader } = setup();
    const files = Array.from({ length: 30 }, (_, i) => image(`${i}.png`, 1_000_000));
    expect(uploader.add(files).added).toHaveLength(30);
  });

  it('refuses files past maxCount, counting the items already in the list', () => {
    const { uploader } = setup({ maxCount: 3 });
    uploader.add([image('1.png'), image('2.png')]);
    const { added, rejected } = uploader.add([image('3.png'), image('4.png')]);
    expect(added.map((i) => i.file.name)).toEqual(['3.png']);
    expect(rejected).toEqual([{ file: expect.objectContaining({ name: '4.png' }), reason: 'count' }]);
    expect(uploader.getSnapshot()).toHaveLength(3);
  });

  it('an oversize file raises the oversize event and the onOversize callback', () => {
    const onOversize = vi.fn();
    const { uploader } = setup({ maxSize: 100, onOversize });
    const event = vi.fn();
    uploader.on('oversize', event);
    const big = image('big.png', 101);
    const { added, rejected } = uploader.add([big, image('ok.png', 100)]);
    expect(added).toHaveLength(1);
    expect(rejected).toEqual([{ file: big, reason: 'oversize' }]);
    expect(onOversize).toHaveBeenCalledWith(big);
    expect(event).toHaveBeenCalledWith({ file: big, maxSize: 100 });
  });

  it('refuses bad input with a clear error and adds nothing', () => {
    const { uploader } = setup();
    expect(() => uploader.add(null as unknown as File[])).toThrow(/iterable of File or Blob/);
    expect(() => uploader.add([image(), 'x' as unknown as File])).toThrow(/entry 1 is not a File or Blob/);
    expect(uploader.getSnapshot()).toEqual([]);
  });

  it('refuses bad options with a clear error', () => {
    const transport = new MemoryUploadTransport();
    const messages = { uploadFailed: 'x' };
    expect(() => new Uploader({ transport, chunkSize: 0, messages })).toThrow(/chunkSize/);
    expect(() => new Uploader({ transport, chunkSize: 4, maxCount: -1, messages })).toThrow(/maxCount/);
    expect(() => new Uploader({ transport: {} as MemoryUploadTransport, chunkSize: 4, messages })).toThrow(/transport/);
    expect(() => new Uploader({ transport, chunkSize: 4, messages: {} as typeof messages })).toThrow(/messages/);
  });
});

describe('Upload item status (spec §4): empty, then uploading, then done or failed', () => {
  it('goes from empty to uploading to done; an image content is its URL', async () => {
    const { uploader } = setup();
    const seen: string[][] = [];
    uploader.subscribe(() => seen.push(statuses(uploader.getSnapshot())));
    const [item] = uploader.add([image()]).added;
    expect(item).toMatchObject({ status: '', message: '', url: '', content: '', progress: 0, kind: 'image', objectUrl: 'blob:test/1' });
    const done = await uploader.start(item!.id);
    expect(seen).toEqual([[''], ['uploading'], ['done']]);
    expect(done).toMatchObject({ status: 'done', progress: 1 });
    expect(done!.url).toMatch(/^memory:\/\//);
    expect(done!.content).toBe(done!.url);
  });

  it('a file or video content is the JSON { name, size, url, mime } (protocol §5)', async () => {
    const { uploader } = setup({ accept: '*' });
    uploader.add([pdf('report.pdf', 7), video('clip.mp4', 20)]);
    const [file, clip] = await uploader.startAll();
    expect(JSON.parse(file!.content)).toEqual({ name: 'report.pdf', size: 7, url: file!.url, mime: 'application/pdf' });
    expect(JSON.parse(clip!.content)).toEqual({ name: 'clip.mp4', size: 20, url: clip!.url, mime: 'video/mp4' });
  });

  it('emits uploaded with the finished item', async () => {
    const { uploader } = setup();
    const uploaded = vi.fn();
    uploader.on('uploaded', uploaded);
    const [item] = uploader.add([image()]).added;
    await uploader.start(item!.id);
    expect(uploaded).toHaveBeenCalledWith({ item: uploader.get(item!.id), file: expect.objectContaining({ name: 'a.png' }) });
  });

  it('reports chunk progress from 0 to 1 for a chunked upload (files over the threshold)', async () => {
    const { uploader, transport } = setup({ accept: '*' });
    const progress: number[] = [];
    uploader.subscribe(() => progress.push(uploader.getSnapshot()[0]!.progress));
    const [item] = uploader.add([video('big.mp4', 20)]).added;
    await uploader.start(item!.id);
    expect(transport.calls.filter((c) => c.method === 'chunkUpload')).toHaveLength(5);
    expect(progress).toEqual([0, 0, 0.2, 0.4, 0.6, 0.8, 1, 1]);
  });

  it('uploads a file at or under the threshold in one request', async () => {
    const { uploader, transport } = setup();
    const [item] = uploader.add([image('a.png', 16)]).added;
    await uploader.start(item!.id);
    expect(transport.calls.map((c) => c.method)).toEqual(['uploadFile']);
  });

  it('autoStart starts files as they are added', async () => {
    const { uploader } = setup({ autoStart: true });
    const { added } = uploader.add([image()]);
    expect(added[0]!.status).toBe('uploading');
  });
});

describe('A failed item shows an error mark and its message (spec §4)', () => {
  it('keeps the failed item with status failed and the translated message, and emits failed', async () => {
    const translate = vi.fn((key: 'uploadFailed') => `t:${key}`);
    const { uploader, transport } = setup({ messages: translate });
    const failed = vi.fn();
    uploader.on('failed', failed);
    transport.failNext('uploadFile');
    const [item] = uploader.add([image()]).added;
    const result = await uploader.start(item!.id);
    expect(result).toMatchObject({ status: 'failed', message: 't:uploadFailed', url: '', content: '' });
    expect(uploader.getSnapshot()).toEqual([result]);
    expect(failed).toHaveBeenCalledWith({ item: result, error: expect.objectContaining({ message: 'uploadFile failed (simulated)' }) });
  });

  it('takes the text from options.translate when no messages are given', async () => {
    const transport = new MemoryUploadTransport();
    transport.failNext('uploadFile');
    const uploader = new Uploader({ transport, chunkSize: 4, chunkThreshold: 100, createObjectURL: () => '', translate: (key) => `tr:${key}` });
    const [item] = uploader.add([image()]).added;
    expect(await uploader.start(item!.id)).toMatchObject({ status: 'failed', message: 'tr:uploadFailed' });
  });

  it('fails an answer without a URL', async () => {
    const { uploader, transport } = setup();
    vi.spyOn(transport, 'uploadFile').mockResolvedValueOnce({ url: '', name: 'a', size: 1, mime: 'image/png' });
    const [item] = uploader.add([image()]).added;
    expect(await uploader.start(item!.id)).toMatchObject({ status: 'failed', message: '上传失败' });
  });

  it('retry uploads a failed chunked item again, resuming from the chunks the server holds', async () => {
    const { uploader, transport } = setup({ accept: '*' });
    transport.failNext('chunkUpload', 3);
    const [item] = uploader.add([video('big.mp4', 20)]).added;
    expect((await uploader.start(item!.id))?.status).toBe('failed');
    expect(uploader.get(item!.id)?.progress).toBe(0.4);
    transport.calls.length = 0;
    const done = await uploader.retry(item!.id);
    expect(done).toMatchObject({ status: 'done', message: '' });
    expect(transport.calls.filter((c) => c.method === 'chunkUpload').map((c) => c.index)).toEqual([2, 3, 4]);
  });

  it('retry of an item that has not failed, and start of an unknown id, are clear errors', () => {
    const { uploader } = setup();
    const [item] = uploader.add([image()]).added;
    expect(() => uploader.retry(item!.id)).toThrow(/has not failed/);
    expect(() => uploader.start('nope')).toThrow(/no item with id "nope"/);
  });
});

describe('Cancel: the upload is aborted, the item removed and no error shown', () => {
  it('cancels a chunked upload in flight: chunkAbort deletes the server parts, no failed event', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 50, onAbort: 'hang' });
    const { uploader, urls } = setup({ transport, accept: '*' });
    const failed = vi.fn();
    uploader.on('failed', failed);
    const [item] = uploader.add([video('big.mp4', 20)]).added;
    const result = uploader.start(item!.id);
    await vi.advanceTimersByTimeAsync(120);
    expect(uploader.cancel(item!.id)).toBe(true);
    expect(await result).toBeNull();
    await vi.advanceTimersByTimeAsync(500);
    expect(uploader.getSnapshot()).toEqual([]);
    expect(failed).not.toHaveBeenCalled();
    expect(transport.calls.filter((c) => c.method === 'chunkAbort')).toHaveLength(1);
    expect(transport.openUploads).toEqual([]);
    expect(urls.revoked).toEqual(['blob:test/1']);
  });

  it('cancels a single upload in flight even when the request never settles', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 50, onAbort: 'hang' });
    const { uploader } = setup({ transport });
    const [item] = uploader.add([image()]).added;
    const result = uploader.start(item!.id);
    uploader.cancel(item!.id);
    expect(await result).toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    expect(transport.stored.size).toBe(0);
  });

  it('cancel of an unknown id returns false', () => {
    const { uploader } = setup();
    expect(uploader.cancel('nope')).toBe(false);
  });
});

describe('Remove and destroy release everything', () => {
  it('remove revokes the item object URL and drops it from the list', () => {
    const { uploader, urls } = setup();
    const [a, b] = uploader.add([image('a.png'), image('b.png')]).added;
    uploader.remove(a!.id);
    expect(urls.revoked).toEqual([a!.objectUrl]);
    expect(uploader.getSnapshot().map((i) => i.id)).toEqual([b!.id]);
  });

  it('destroy cancels every upload, revokes every object URL and leaves no listener', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 50 });
    const { uploader, urls } = setup({ transport, accept: '*' });
    uploader.add([image('a.png'), video('big.mp4', 20), pdf()]);
    const results = uploader.startAll();
    const listener = vi.fn();
    uploader.subscribe(listener);
    uploader.destroy();
    expect(await results).toEqual([null, null, null]);
    expect(urls.revoked).toEqual(urls.created);
    expect(uploader.getSnapshot()).toEqual([]);
    expect(uploader.listenerCount('uploaded')).toBe(0);
    listener.mockClear();
    await vi.advanceTimersByTimeAsync(1000);
    expect(listener).not.toHaveBeenCalled();
    expect(transport.stored.size).toBe(0);
    expect(() => uploader.add([image()])).toThrow(/after destroy/);
  });

  it('uses URL.createObjectURL looked up at call time when none is given', () => {
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:global/1');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const uploader = new Uploader({ transport: new MemoryUploadTransport(), chunkSize: 4, messages: { uploadFailed: 'x' } });
    const [item] = uploader.add([image()]).added;
    expect(item!.objectUrl).toBe('blob:global/1');
    uploader.remove(item!.id);
    expect(revoke).toHaveBeenCalledWith('blob:global/1');
    create.mockRestore();
    revoke.mockRestore();
  });
});

describe('Store contract: the snapshot changes identity only on change (useSyncExternalStore)', () => {
  it('returns the same array until something changes, and unsubscribe stops notifications', async () => {
    const { uploader } = setup();
    const first = uploader.getSnapshot();
    expect(uploader.getSnapshot()).toBe(first);
    const listener = vi.fn();
    const off = uploader.subscribe(listener);
    uploader.add([pdf()]); // refused: no change
    expect(uploader.getSnapshot()).toBe(first);
    expect(listener).not.toHaveBeenCalled();
    uploader.add([image()]);
    const second = uploader.getSnapshot();
    expect(second).not.toBe(first);
    expect(Object.isFrozen(second)).toBe(true);
    off();
    await uploader.startAll();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('Queue: at most `concurrency` uploads run at once', () => {
  it('runs two at a time with concurrency 2', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 100 });
    const { uploader } = setup({ transport, concurrency: 2 });
    uploader.add([image('1.png'), image('2.png'), image('3.png')]);
    const all = uploader.startAll();
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.calls).toHaveLength(2);
    expect(statuses(uploader.getSnapshot())).toEqual(['uploading', 'uploading', 'uploading']);
    await vi.advanceTimersByTimeAsync(100);
    expect(transport.calls).toHaveLength(3);
    expect(statuses(uploader.getSnapshot())).toEqual(['done', 'done', 'uploading']);
    await vi.advanceTimersByTimeAsync(100);
    expect((await all).map((i) => i?.status)).toEqual(['done', 'done', 'done']);
  });

  it('a waiting item that is cancelled never reaches the server', async () => {
    vi.useFakeTimers();
    const transport = new MemoryUploadTransport({ latency: 100 });
    const { uploader } = setup({ transport, concurrency: 1 });
    const [a, b] = uploader.add([image('1.png'), image('2.png')]).added;
    void uploader.startAll();
    uploader.cancel(b!.id);
    await vi.advanceTimersByTimeAsync(300);
    expect(transport.calls.map((c) => c.name)).toEqual(['1.png']);
    expect(uploader.get(a!.id)?.status).toBe('done');
  });
});
