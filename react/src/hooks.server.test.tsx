// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
/**
 * The hooks that talk to the network, driving a real ImClient against the reference server
 * (examples/server, `createServer(config)`) over loopback: start-up, encrypted connect, session
 * events, sending with acknowledgements, history paging and uploads. In Node the socket is the
 * `ws` package; fetch is happy-dom's, with its same-origin policy off (the server sends no CORS
 * headers; a page served by the server itself needs none).
 */
import { memoryStorage, type ImClientOptions, type StorageLike } from '@kefu-im/sdk';
import { act, cleanup, renderHook } from '@testing-library/react';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { ImProvider } from './provider.js';
import { useConnection } from './use-connection.js';
import { useMessages } from './use-messages.js';
import { useSend } from './use-send.js';
import { useMerchantInfo, useSession } from './use-client-state.js';
import { useServerClock } from './use-clock.js';
import { useUploader } from './use-uploader.js';
import { useImClient } from './context.js';

interface PublicConfig {
  baseUrl: string;
  socketUrl: string;
  socketKey: string;
}

const where = { mchId: 'M1001', platformId: 'P01' };
let serverProcess: ChildProcessWithoutNullStreams;
let serverLog = '';
let publicConfig: PublicConfig;

/**
 * Starts `createServer(config)` of examples/server in a child process (react/scripts/
 * reference-server.mjs): this file runs in a DOM environment whose URL and fetch globals a Node
 * server must not share. Resolves with the server's URL.
 */
function startReferenceServer(): Promise<string> {
  const script = join(import.meta.dirname, '../scripts/reference-server.mjs');
  serverProcess = spawn(process.execPath, ['--import', 'tsx', script], { cwd: join(import.meta.dirname, '../..') });
  return new Promise((resolve, reject) => {
    let out = '';
    serverProcess.stderr.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    serverProcess.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve((JSON.parse(line) as { url: string }).url);
    });
    serverProcess.on('exit', (code) => reject(new Error(`reference server exited (${String(code)}): ${serverLog}`)));
  });
}

beforeAll(async () => {
  const url = await startReferenceServer();
  const answer = (await (await fetch(`${url}/im/api/public/config`)).json()) as { code: number; data: PublicConfig };
  expect(answer.code).toBe(0);
  publicConfig = answer.data;
});

afterAll(async () => {
  const exited = new Promise((resolve) => serverProcess.once('exit', resolve));
  serverProcess.stdin.end();
  await exited;
  expect(serverLog).toBe('');
});

afterEach(cleanup);

/** A provider creating a client for the reference server; the client connects on mount. */
function provider(storage: StorageLike = memoryStorage(), extra: Partial<ImClientOptions> = {}) {
  const options: ImClientOptions = {
    ...publicConfig,
    connectData: { ...where, name: 'React test' },
    WebSocket,
    storage,
    window: null,
    document: null,
    ...extra,
  };
  return function Wrapper({ children }: { children?: ReactNode }) {
    return <ImProvider options={options}>{children}</ImProvider>;
  };
}

const open = { timeout: 10_000 };

describe('against the reference server: connect, log in, session start', () => {
  it('connects once, logs in with a user id, syncs the clock and shows the session start with suggestions', async () => {
    const { result } = renderHook(
      () => ({ connection: useConnection(), session: useSession(), now: useServerClock() }),
      { wrapper: provider() },
    );
    await vi.waitFor(() => expect(result.current.connection).toMatchObject({ state: 'open', loggedIn: true }), open);
    await vi.waitFor(() => expect(result.current.connection.userId).toEqual(expect.any(String)), open);
    await vi.waitFor(() => expect(result.current.session.sessionId).toEqual(expect.any(String)), open);
    await vi.waitFor(() => expect(result.current.session.suggestions.length).toBeGreaterThan(0), open);
    expect(Math.abs(result.current.now - Date.now())).toBeLessThan(5_000);
  });
});

describe('against the reference server: merchant info', () => {
  it('shows the merchant info once the client loaded it', async () => {
    const { result } = renderHook(() => ({ merchant: useMerchantInfo(), client: useImClient() }), { wrapper: provider() });
    expect(result.current.merchant).toBeNull();
    await act(async () => {
      await result.current.client.start();
      await result.current.client.loadMerchantInfo();
    });
    expect(result.current.merchant).toMatchObject({ mchId: where.mchId });
  });
});

describe('against the reference server: sending with per-message state', () => {
  it('a text goes pending, then sent with the server’s createTime, and the robot answers', async () => {
    const { result } = renderHook(
      () => ({ connection: useConnection(), send: useSend(), list: useMessages().messages }),
      { wrapper: provider() },
    );
    await vi.waitFor(() => expect(result.current.connection.loggedIn).toBe(true), open);
    let fp = '';
    act(() => {
      fp = result.current.send.sendText('充值多久能到账？')?.fp ?? '';
    });
    expect(result.current.list.find((m) => m.fp === fp)?.sendState).toBe('pending');
    await vi.waitFor(() => expect(result.current.list.find((m) => m.fp === fp)).toMatchObject({ sendState: 'sent', createTime: expect.any(Number) }), open);
    await vi.waitFor(() => expect(result.current.list.some((m) => m.type === 200 && m.robot === 1 && m.fp !== fp)).toBe(true), open);
  });
});

describe('against the reference server: history paging, older pages prepended', () => {
  it('a returning visitor pages the stored history from the newest page to the oldest', async () => {
    const storage = memoryStorage();
    const first = renderHook(() => ({ connection: useConnection(), send: useSend(), list: useMessages().messages }), { wrapper: provider(storage) });
    await vi.waitFor(() => expect(first.result.current.connection.loggedIn).toBe(true), open);
    const texts = ['one', 'two', 'three'];
    for (const text of texts) {
      let fp = '';
      act(() => {
        fp = first.result.current.send.sendText(text)?.fp ?? '';
      });
      await vi.waitFor(() => expect(first.result.current.list.find((m) => m.fp === fp)?.sendState).toBe('sent'), open);
    }
    const held = first.result.current.list.length;
    first.unmount();

    // Same storage, so the same client id: the history is this visitor's.
    const second = renderHook(() => ({ connection: useConnection(), paging: useMessages(), client: useImClient() }), { wrapper: provider(storage) });
    await vi.waitFor(() => expect(second.result.current.connection.loggedIn).toBe(true), open);
    act(() => second.result.current.client.messages.clear());
    await act(() => second.result.current.paging.loadOlder(2));
    const newest = second.result.current.paging.messages.map((m) => m.fp);
    // a page of 2 may also hold a session event or suggestions, which stay out of the list
    expect(newest.length).toBeGreaterThan(0);
    expect(newest.length).toBeLessThanOrEqual(2);
    while (second.result.current.paging.hasMore) {
      await act(() => second.result.current.paging.loadOlder(2));
    }
    const all = second.result.current.paging.messages;
    expect(all.length).toBeGreaterThanOrEqual(held);
    // The first page is now at the end: older pages went to the top.
    expect(all.slice(-newest.length).map((m) => m.fp)).toEqual(newest);
    const ours = all.filter((m) => texts.includes(m.dataContent ?? '')).map((m) => m.dataContent);
    expect(ours).toEqual(texts);
  });
});

describe('against the reference server: uploads with progress', () => {
  it('uploads an image and sends it as an image message', async () => {
    const { result } = renderHook(
      () => ({ connection: useConnection(), send: useSend(), uploads: useUploader({ autoStart: true }), list: useMessages().messages }),
      { wrapper: provider() },
    );
    await vi.waitFor(() => expect(result.current.connection.loggedIn).toBe(true), open);
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], 'dot.png', { type: 'image/png' });
    act(() => void result.current.uploads.add([png]));
    await vi.waitFor(() => expect(result.current.uploads.items[0]).toMatchObject({ status: 'done', progress: 1 }), open);
    const item = result.current.uploads.items[0];
    expect(item?.url).toMatch(/^https?:\/\//);
    let fp = '';
    act(() => {
      fp = result.current.send.sendFile({ url: item?.url ?? '', name: 'dot.png', size: png.size, mime: 'image/png' }, 'image')?.fp ?? '';
    });
    await vi.waitFor(() => expect(result.current.list.find((m) => m.fp === fp)).toMatchObject({ type: 101, sendState: 'sent' }), open);
  });
});
