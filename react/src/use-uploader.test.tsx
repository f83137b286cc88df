// @vitest-environment happy-dom
import type { UploadItem, UploadedFile } from '@kefu-im/sdk';
import { act, cleanup, renderHook } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordedCall } from '../../test/helpers/fake-permit.js';
import { FakeWebSocket, makeClient, withClient } from './test-utils.js';
import { useUploader } from './use-uploader.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

const png = (name: string, bytes = 8) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

function uploadRoutes(gate?: Promise<void>) {
  let chunks = 0;
  return {
    '/oss/aws/upload': async (call: RecordedCall) => {
      await gate;
      const file = (call.body as FormData).get('file') as File;
      return { code: 0, message: 'ok', data: { url: `http://im.test/f/${file.name}`, name: file.name, size: file.size, mime: file.type } };
    },
    '/oss/unifiedOss/chunk/init': (call: RecordedCall) => {
      const q = JSON.parse(call.body as string) as { chunkSize: number; fileSize: number };
      return { code: 0, message: 'ok', data: { uploadId: 'up1', chunkSize: q.chunkSize, chunkCount: Math.ceil(q.fileSize / q.chunkSize), uploaded: [] } };
    },
    '/oss/unifiedOss/chunk/upload': async () => {
      await gate;
      chunks += 1;
      return { code: 0, message: 'ok', data: { index: chunks - 1, size: 4 } };
    },
    '/oss/unifiedOss/chunk/complete': () => ({ code: 0, message: 'ok', data: { url: 'http://im.test/f/big.png', name: 'big.png', size: 12, mime: 'image/png' } }),
    '/oss/unifiedOss/chunk/abort': () => ({ code: 0, message: 'ok', data: null }),
  };
}

describe('useUploader: uploads with progress, cancel and retry', () => {
  it('uploads an added image: uploading, then done with its URL, and calls onUploaded', async () => {
    const { client } = makeClient({ routes: uploadRoutes() });
    await client.start();
    const uploaded: [UploadItem, UploadedFile][] = [];
    const { result } = renderHook(() => useUploader({ onUploaded: (item, file) => uploaded.push([item, file]) }), { wrapper: withClient(client) });
    let id = '';
    act(() => {
      id = result.current.add([png('a.png')]).added[0]?.id ?? '';
    });
    expect(result.current.items).toMatchObject([{ id, status: '', progress: 0 }]);
    let done: Promise<unknown> = Promise.resolve();
    act(() => {
      done = result.current.start(id);
    });
    expect(result.current.items[0]?.status).toBe('uploading');
    await act(() => done);
    expect(result.current.items[0]).toMatchObject({ status: 'done', progress: 1, url: 'http://im.test/f/a.png', content: 'http://im.test/f/a.png' });
    expect(uploaded.map(([item, file]) => [item.id, file.url])).toEqual([[id, 'http://im.test/f/a.png']]);
    client.destroy();
  });

  it('shows the progress of a chunked upload, chunk by chunk', async () => {
    const waiting: (() => void)[] = [];
    const routes = uploadRoutes();
    const { client } = makeClient({
      routes: {
        ...routes,
        '/oss/unifiedOss/chunk/upload': async () => {
          await new Promise<void>((r) => waiting.push(r));
          return routes['/oss/unifiedOss/chunk/upload']();
        },
      },
    });
    await client.start();
    const { result } = renderHook(() => useUploader({ chunkSize: 4, autoStart: true }), { wrapper: withClient(client) });
    act(() => void result.current.add([png('big.png', 12)]));
    const progress = () => result.current.items[0]?.progress;
    expect(progress()).toBe(0);
    for (const expected of [1 / 3, 2 / 3]) {
      await vi.waitFor(() => expect(waiting).toHaveLength(1));
      await act(async () => waiting.shift()?.());
      await vi.waitFor(() => expect(progress()).toBeCloseTo(expected));
    }
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    await act(async () => waiting.shift()?.());
    await vi.waitFor(() => expect(result.current.items[0]).toMatchObject({ status: 'done', progress: 1, url: 'http://im.test/f/big.png' }));
    client.destroy();
  });

  it('cancel removes an uploading item without an error', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { client } = makeClient({ routes: uploadRoutes(gate) });
    await client.start();
    const failed = vi.fn();
    const { result } = renderHook(() => useUploader({ autoStart: true, onFailed: failed }), { wrapper: withClient(client) });
    act(() => void result.current.add([png('slow.png')]));
    const id = result.current.items[0]?.id ?? '';
    expect(result.current.items[0]?.status).toBe('uploading');
    act(() => void result.current.cancel(id));
    expect(result.current.items).toEqual([]);
    release();
    await act(async () => undefined);
    expect(failed).not.toHaveBeenCalled();
    client.destroy();
  });

  it('a failed item keeps its message, calls onFailed, and retry uploads it again', async () => {
    let fail = true;
    const routes = uploadRoutes();
    const { client } = makeClient({
      routes: { ...routes, '/oss/aws/upload': (call) => (fail ? { code: 9, message: 'disk full', data: null } : routes['/oss/aws/upload'](call)) },
    });
    await client.start();
    const failed: string[] = [];
    const { result } = renderHook(() => useUploader({ onFailed: (item) => failed.push(item.id) }), { wrapper: withClient(client) });
    let id = '';
    act(() => {
      id = result.current.add([png('f.png')]).added[0]?.id ?? '';
    });
    await act(() => result.current.start(id));
    expect(result.current.items[0]).toMatchObject({ status: 'failed', message: client.t('uploadFailed') });
    expect(failed).toEqual([id]);
    fail = false;
    await act(() => result.current.retry(id));
    expect(result.current.items[0]?.status).toBe('done');
    client.destroy();
  });
});

describe('useUploader: the spec’s limits (count, size, images by default)', () => {
  it('refuses another type, a file over maxSize (oversize event) and files over maxCount', () => {
    const { client } = makeClient();
    const oversize = vi.fn();
    const { result } = renderHook(() => useUploader({ maxSize: 10, maxCount: 1, onOversize: oversize }), { wrapper: withClient(client) });
    let reasons: string[] = [];
    act(() => {
      const r = result.current.add([new File(['x'], 'a.txt', { type: 'text/plain' }), png('big.png', 11), png('ok.png'), png('more.png')]);
      reasons = r.rejected.map((x) => x.reason);
    });
    expect(reasons).toEqual(['type', 'oversize', 'count']);
    expect(oversize).toHaveBeenCalledTimes(1);
    expect(result.current.items.map((i) => i.file.name)).toEqual(['ok.png']);
    client.destroy();
  });
});

describe('useUploader: destroyed on unmount', () => {
  it('keeps one uploader through StrictMode’s double effects and destroys it on unmount', async () => {
    const { client } = makeClient();
    const Wrapper = withClient(client);
    const wrapper = ({ children }: { children?: ReactNode }) => (
      <StrictMode>
        <Wrapper>{children}</Wrapper>
      </StrictMode>
    );
    const { result, unmount } = renderHook(() => useUploader(), { wrapper });
    await act(async () => undefined);
    const uploader = result.current.uploader;
    act(() => void result.current.add([png('a.png')]));
    expect(result.current.items).toHaveLength(1);
    expect(result.current.uploader).toBe(uploader);
    unmount();
    await act(async () => undefined);
    expect(() => uploader.add([png('b.png')])).toThrow(/after destroy/);
    client.destroy();
  });
});
