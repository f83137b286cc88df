import { createDecipheriv } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../options.js';
import { defaultTimers } from '../timers.js';
import { ApiError, isCancelledError, RequestCancelledError } from './errors.js';
import { HttpClient, type HttpClientOptions } from './http-client.js';

const USER_KEY = 'u'.repeat(16) + 'K'.repeat(16);

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  signal: AbortSignal | undefined;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(respond: (call: Call) => Response | Promise<Response> = () => json({ code: 0, message: '', data: 'ok' }), over: Partial<HttpClientOptions> = {}) {
  const calls: Call[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body,
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    return Promise.resolve(respond(call));
  });
  const notify = vi.fn();
  const session: { saltKey?: string; userKey?: string } = {};
  const http = new HttpClient({
    baseUrl: 'https://im.test/',
    fetch,
    timers: defaultTimers,
    limits: DEFAULT_LIMITS,
    getLanguage: () => 'zh',
    getSession: () => session,
    notify,
    ...over,
  });
  return { http, fetch, calls, notify, session };
}

/** A fetch answer that never comes, except that it rejects when the request's signal aborts. */
function hanging(call: Call): Promise<Response> {
  return new Promise((_resolve, reject) => {
    call.signal?.addEventListener('abort', () => reject(call.signal?.reason));
  });
}

function decryptValue(value: string): unknown {
  const d = createDecipheriv('aes-256-ecb', Buffer.from(USER_KEY), null);
  const text = Buffer.concat([d.update(Buffer.from(decodeURIComponent(value), 'base64')), d.final()]).toString('utf8');
  return JSON.parse(text);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('All HTTP calls go through a client with base path /im', () => {
  it('prefixes /im to the path on the host', async () => {
    const { http, calls } = setup();
    await expect(http.get('/api/permit/switchAES')).resolves.toBe('ok');
    expect(calls[0]?.url).toBe('https://im.test/im/api/permit/switchAES');
    expect(calls[0]?.method).toBe('GET');
  });
  it('root calls (translate, uploads) use the host root as base', async () => {
    const { http, calls } = setup();
    await http.post('/translate/google/translate', { text: 'x' }, { root: true });
    expect(calls[0]?.url).toBe('https://im.test/translate/google/translate');
  });
  it('a path without a leading slash is joined with one', async () => {
    const { http, calls } = setup();
    await http.get('api/x');
    expect(calls[0]?.url).toBe('https://im.test/im/api/x');
  });
  it('plain query values are URL-encoded and undefined ones left out', async () => {
    const { http, calls } = setup();
    await http.get('/api/permit/decodeParam', { query: { param: 'a+b/c=', skip: undefined, n: 1, f: false } });
    expect(calls[0]?.url).toBe('https://im.test/im/api/permit/decodeParam?param=a%2Bb%2Fc%3D&n=1&f=false');
  });
});

describe('Every request carries an Accept-Language header taken from the current language', () => {
  it('reads the language at call time', async () => {
    let lang = 'zh';
    const { http, calls } = setup(undefined, { getLanguage: () => lang });
    await http.get('/a');
    lang = 'vi';
    await http.get('/a');
    expect(calls.map((c) => c.headers.get('accept-language'))).toEqual(['zh', 'vi']);
  });
});

describe('X-Salt-Key is sent once the salt key is known', () => {
  it('is absent before and present after', async () => {
    const { http, calls, session } = setup();
    await http.get('/a');
    session.saltKey = 'salt-1';
    await http.get('/a');
    expect(calls[0]?.headers.has('x-salt-key')).toBe(false);
    expect(calls[1]?.headers.get('x-salt-key')).toBe('salt-1');
  });
});

describe('(enc) calls send the JSON of the payload, encrypted with the user token and URL-encoded', () => {
  it('an encrypted GET has exactly ?data=<value>, the value not encoded twice', async () => {
    const { http, calls, session } = setup();
    session.userKey = USER_KEY;
    await http.get('/api/permit/getGroupInfo', { enc: true, query: { groupId: 'g1', clientId: 'c+1' } });
    const url = calls[0]?.url ?? '';
    const match = /^https:\/\/im\.test\/im\/api\/permit\/getGroupInfo\?data=([^&]+)$/.exec(url);
    expect(match).not.toBeNull();
    const value = match?.[1] ?? '';
    expect(value).not.toMatch(/%25/); // encoded once only
    expect(value).not.toMatch(/[+/=]/);
    expect(decryptValue(value)).toEqual({ groupId: 'g1', clientId: 'c+1' });
  });
  it('an encrypted POST has the JSON body {"data": value}', async () => {
    const { http, calls, session } = setup();
    session.userKey = USER_KEY;
    await http.post('/api/permit/markScore', { score: 5, remark: '很好' }, { enc: true });
    const call = calls[0];
    expect(call?.headers.get('content-type')).toBe('application/json');
    const body = JSON.parse(String(call?.body)) as { data: string };
    expect(Object.keys(body)).toEqual(['data']);
    expect(decryptValue(body.data)).toEqual({ score: 5, remark: '很好' });
    expect(body.data).toBe(encodeURIComponent(decodeURIComponent(body.data)));
  });
  it('FormData bodies pass through unencrypted (multipart)', async () => {
    const { http, calls, session } = setup();
    session.userKey = USER_KEY;
    const form = new FormData();
    form.append('uploadId', 'u1');
    await http.post('/oss/unifiedOss/chunk/abort', form, { enc: true, root: true });
    expect(calls[0]?.body).toBe(form);
  });
  it('an (enc) call before the user token is loaded fails with a clear error and sends nothing', async () => {
    const { http, fetch, notify } = setup();
    await expect(http.post('/api/permit/createMsg', {}, { enc: true })).rejects.toThrow(/user token is not loaded/);
    expect(fetch).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('A response is accepted when code equals 0', () => {
  it('resolves the envelope data', async () => {
    const { http, notify } = setup(() => json({ code: 0, message: 'ok', data: { a: 1 } }));
    await expect(http.get('/a')).resolves.toEqual({ a: 1 });
    expect(notify).not.toHaveBeenCalled();
  });
});

describe("Otherwise a toast shows the server message, or the translated fallback 'request failed', and the call is rejected", () => {
  it('shows the server message and rejects with ApiError', async () => {
    const { http, notify } = setup(() => json({ code: 2001, message: '您已被拉黑', data: { x: 1 } }));
    const err = await http.get('/a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 2001, message: '您已被拉黑', data: { x: 1 }, status: 200 });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error', '您已被拉黑');
  });
  it('uses the fallback key when the server sent no message', async () => {
    const { http, notify } = setup(() => json({ code: 1, data: null }));
    await expect(http.get('/a')).rejects.toBeInstanceOf(ApiError);
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error');
  });
  it('an answer that is no envelope is a failure with code -1', async () => {
    const { http, notify } = setup(() => new Response('<html>oops</html>', { headers: { 'content-type': 'text/html' } }));
    await expect(http.get('/a')).rejects.toMatchObject({ code: -1, name: 'ApiError' });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error');
  });
  it('an HTTP error status with an envelope shows its message', async () => {
    const { http, notify } = setup(() => json({ code: 1001, message: 'bad request' }, 400));
    await expect(http.post('/a', {})).rejects.toMatchObject({ code: 1001, status: 400 });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error', 'bad request');
  });
  it('an HTTP 500 without an envelope uses the fallback', async () => {
    const { http, notify } = setup(() => new Response('', { status: 500 }));
    await expect(http.get('/a')).rejects.toMatchObject({ code: -1, status: 500 });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error');
  });
});

describe('Translate and upload answers are accepted whatever their code', () => {
  it('a root call resolves the whole body with a non-zero code and shows nothing', async () => {
    const { http, notify } = setup(() => json({ code: 2004, message: 'not configured', data: null }));
    await expect(http.post('/translate/google/translate', { text: 'a' }, { root: true })).resolves.toEqual({
      code: 2004,
      message: 'not configured',
      data: null,
    });
    expect(notify).not.toHaveBeenCalled();
  });
  it("accept: 'any' does the same for a /im call", async () => {
    const { http } = setup(() => json({ code: 5, data: 1 }));
    await expect(http.get('/a', { accept: 'any' })).resolves.toEqual({ code: 5, data: 1 });
  });
  it('a root call answered with an HTTP error and no envelope still fails', async () => {
    const { http, notify } = setup(() => new Response('bad gateway', { status: 502, headers: { 'content-type': 'text/plain' } }));
    await expect(http.post('/oss/aws/upload', new FormData(), { root: true })).rejects.toMatchObject({ status: 502 });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error');
  });
});

describe("A binary response containing the text 'code' is parsed as JSON and its message is shown, or the fallback", () => {
  const binary = (text: string, status = 200) =>
    new Response(new TextEncoder().encode(text), { status, headers: { 'content-type': 'application/octet-stream' } });
  it('shows the message of a binary envelope', async () => {
    const { http, notify } = setup(() => binary('{"code":3001,"message":"upload refused"}'));
    await expect(http.get('/file')).rejects.toMatchObject({ code: 3001, message: 'upload refused' });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error', 'upload refused');
  });
  it('uses the fallback when the binary text is not JSON', async () => {
    const { http, notify } = setup(() => binary('code: broken'));
    await expect(http.get('/file')).rejects.toMatchObject({ code: -1 });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error');
  });
  it('a binary answer without that text is resolved as it is', async () => {
    const { http, notify } = setup(() => binary('PNG...'));
    const blob = await http.get<Blob>('/file');
    expect(blob).toBeInstanceOf(Blob);
    await expect(blob.text()).resolves.toBe('PNG...');
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('HTTP status 413 shows "requests too frequent" at most once every 3 s', () => {
  it('throttles the notice with timers.now()', async () => {
    const { http, notify } = setup(() => new Response('', { status: 413 }));
    await expect(http.get('/a')).rejects.toMatchObject({ status: 413, name: 'ApiError' });
    await vi.advanceTimersByTimeAsync(2_999);
    await expect(http.get('/a')).rejects.toMatchObject({ status: 413 });
    expect(notify.mock.calls.filter(([k]) => k === 'requestTooFrequent')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(http.get('/a')).rejects.toMatchObject({ status: 413 });
    expect(notify.mock.calls.filter(([k]) => k === 'requestTooFrequent')).toHaveLength(2);
    expect(notify).not.toHaveBeenCalledWith('requestFailed', expect.anything());
  });
});

describe('Default request timeout 50000 ms; a timeout shows the notice after 500 ms', () => {
  it('rejects at 50 s with an error whose message contains timeout, and notifies 500 ms later', async () => {
    const { http, notify } = setup(hanging);
    let settled: unknown = 'pending';
    http.get('/a').catch((e: unknown) => (settled = e));
    await vi.advanceTimersByTimeAsync(49_999);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeInstanceOf(Error);
    expect((settled as Error).message).toMatch(/timeout/);
    await vi.advanceTimersByTimeAsync(499);
    expect(notify).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(notify).toHaveBeenCalledWith('requestTimeout', 'error');
  });
  it('works even when the fetch ignores the abort signal', async () => {
    const { http } = setup(() => new Promise<Response>(() => undefined));
    const p = http.get('/a', { timeout: 10 });
    const check = expect(p).rejects.toThrow(/timeout/);
    await vi.advanceTimersByTimeAsync(10);
    await check;
  });
  it('an error from fetch whose message contains timeout is handled the same way', async () => {
    const { http, notify } = setup(() => Promise.reject(new Error('Connect timeout error')));
    await expect(http.get('/a')).rejects.toThrow('Connect timeout error');
    await vi.advanceTimersByTimeAsync(500);
    expect(notify).toHaveBeenCalledWith('requestTimeout', 'error');
    expect(notify).not.toHaveBeenCalledWith('networkError', expect.anything());
  });
  it('leaves no timer behind after an answer', async () => {
    const { http } = setup();
    await http.get('/a');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('Upload and translate timeout 90000 ms', () => {
  it('root calls use the long timeout', async () => {
    const { http } = setup(hanging);
    let settled = false;
    http.post('/translate/google/translate', { text: 'a' }, { root: true }).catch(() => (settled = true));
    await vi.advanceTimersByTimeAsync(50_000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(settled).toBe(true);
  });
});

describe("For the aws upload url the message is 'video file too large, upload timed out'", () => {
  it('notifies videoTooLarge instead of requestTimeout', async () => {
    const { http, notify } = setup(hanging);
    http.post('/oss/aws/upload', new FormData(), { root: true }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(90_500);
    expect(notify).toHaveBeenCalledWith('videoTooLarge', 'error');
    expect(notify).not.toHaveBeenCalledWith('requestTimeout', 'error');
  });
});

describe('A cancelled request rejects with RequestCancelledError and shows nothing (deviation from "never settles")', () => {
  it('aborting the signal cancels the request', async () => {
    const { http, notify } = setup(hanging);
    const ctrl = new AbortController();
    const p = http.get('/a', { signal: ctrl.signal });
    ctrl.abort();
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestCancelledError);
    expect(isCancelledError(err)).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(notify).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
  it('an already aborted signal sends nothing', async () => {
    const { http, fetch } = setup();
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(http.post('/a', {}, { signal: ctrl.signal })).rejects.toBeInstanceOf(RequestCancelledError);
    expect(fetch).not.toHaveBeenCalled();
  });
  it('destroy() cancels requests in flight and pending notice timers', async () => {
    const { http, notify } = setup(hanging);
    const p = http.get('/a').catch((e: unknown) => e);
    const q = http.get('/b', { timeout: 5 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5); // /b times out, its notice is pending
    http.destroy();
    expect(await p).toBeInstanceOf(RequestCancelledError);
    expect(await q).toBeInstanceOf(Error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(notify).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('Other errors are rejected unchanged (network errors notify networkError)', () => {
  it('rejects with the very error fetch threw', async () => {
    const failure = new TypeError('fetch failed');
    const { http, notify } = setup(() => Promise.reject(failure));
    await expect(http.get('/a')).rejects.toBe(failure);
    expect(notify).toHaveBeenCalledWith('networkError', 'error');
  });
});

describe('fetch is injectable and otherwise looked up at call time', () => {
  it('uses globalThis.fetch when none is given', async () => {
    const { http } = setup(undefined, { fetch: undefined });
    const global = vi.fn(() => Promise.resolve(json({ code: 0, data: 7 })));
    vi.stubGlobal('fetch', global);
    await expect(http.get('/a')).resolves.toBe(7);
    expect(global).toHaveBeenCalledTimes(1);
  });
  it('gives a clear error when there is no fetch at all', async () => {
    const { http } = setup(undefined, { fetch: undefined });
    vi.stubGlobal('fetch', undefined);
    await expect(http.get('/a')).rejects.toThrow(/No fetch function available/);
  });
  it('rejects a missing baseUrl at construction', () => {
    expect(() => new HttpClient({} as HttpClientOptions)).toThrow(/baseUrl/);
  });
});

