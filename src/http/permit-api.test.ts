import { createDecipheriv } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../options.js';
import { defaultTimers } from '../timers.js';
import { ApiError, RequestCancelledError } from './errors.js';
import { HttpClient } from './http-client.js';
import { PermitApi } from './permit-api.js';

const USER_KEY = 'abcdefghijklmnopqrstuvwxyz012345';

interface Seen {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

function setup(answer: (seen: Seen) => unknown = () => ({ code: 0, message: '', data: 'ANSWER' })) {
  const seen: Seen[] = [];
  const notify = vi.fn();
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const s: Seen = { url: new URL(String(input)), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: init?.body };
    seen.push(s);
    return Promise.resolve(new Response(JSON.stringify(answer(s)), { headers: { 'content-type': 'application/json' } }));
  });
  const http = new HttpClient({
    baseUrl: 'https://im.test',
    fetch,
    timers: defaultTimers,
    limits: DEFAULT_LIMITS,
    getLanguage: () => 'en',
    getSession: () => ({ saltKey: 'salt', userKey: USER_KEY }),
    notify,
  });
  return { api: new PermitApi(http), seen, notify };
}

/** Decrypts an (enc) value with node:crypto: URL-decode, base64-decode, AES-256-ECB, JSON. */
function open(value: string): unknown {
  const d = createDecipheriv('aes-256-ecb', Buffer.from(USER_KEY), null);
  return JSON.parse(Buffer.concat([d.update(Buffer.from(decodeURIComponent(value), 'base64')), d.final()]).toString('utf8'));
}

/** The enc payload of a request: `?data=` for GET (exactly one parameter), `{"data"}` for POST. */
function encPayload(s: Seen): unknown {
  if (s.method === 'GET') {
    const raw = s.url.search;
    expect(raw).toMatch(/^\?data=[^&]+$/);
    return open(raw.slice('?data='.length));
  }
  expect(s.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(String(s.body)) as Record<string, string>;
  expect(Object.keys(body)).toEqual(['data']);
  return open(body.data ?? '');
}

describe('start-up calls (protocol §1): GET, not encrypted', () => {
  it('getServerTime -> GET /im/api/permit/getServerTime, data is the time in ms', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: 1_700_000_000_000 }));
    await expect(api.getServerTime()).resolves.toBe(1_700_000_000_000);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.url.href).toBe('https://im.test/im/api/permit/getServerTime');
  });
  it('getServerTime accepts a numeric string and rejects anything else', async () => {
    await expect(setup(() => ({ code: 0, data: '123' })).api.getServerTime()).resolves.toBe(123);
    await expect(setup(() => ({ code: 0, data: 'soon' })).api.getServerTime()).rejects.toThrow(/getServerTime: unexpected answer/);
  });
  it('getAesKey -> GET getAesKey?requestKey=R, data is the obfuscated key', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: 'b64==' }));
    await expect(api.getAesKey('r1')).resolves.toBe('b64==');
    expect(seen[0]?.url.pathname).toBe('/im/api/permit/getAesKey');
    expect(seen[0]?.url.search).toBe('?requestKey=r1');
  });
  it('getAesKey rejects an answer that is not a string', async () => {
    await expect(setup(() => ({ code: 0, data: 5 })).api.getAesKey('r')).rejects.toBeInstanceOf(ApiError);
  });
  it('getUserToken -> GET getUserToken?requestKey=R, data has userToken and saltKey', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: { userToken: 'tok', saltKey: 'salt', extra: 1 } }));
    await expect(api.getUserToken('r2')).resolves.toEqual({ userToken: 'tok', saltKey: 'salt' });
    expect(seen[0]?.url.pathname).toBe('/im/api/permit/getUserToken');
    expect(seen[0]?.url.search).toBe('?requestKey=r2');
  });
  it('getUserToken rejects an answer without both fields', async () => {
    await expect(setup(() => ({ code: 0, data: { userToken: 'x' } })).api.getUserToken('r')).rejects.toThrow(/userToken and saltKey/);
    await expect(setup(() => ({ code: 0, data: null })).api.getUserToken('r')).rejects.toThrow(/getUserToken/);
  });
  it.each([
    [true, true],
    [1, true],
    ['true', true],
    [false, false],
    [0, false],
    [null, false],
  ])('switchAES -> GET switchAES, data %j is the flag %j', async (data, flag) => {
    const { api, seen } = setup(() => ({ code: 0, data }));
    await expect(api.switchAES()).resolves.toBe(flag);
    expect(seen[0]?.url.href).toBe('https://im.test/im/api/permit/switchAES');
  });
  it('getPublicConfig -> GET /im/api/public/config', async () => {
    const cfg = { baseUrl: 'https://im.test', socketUrl: 'wss://im.test/ws', socketKey: 'pk,s', aesSwitch: true };
    const { api, seen } = setup(() => ({ code: 0, data: cfg }));
    await expect(api.getPublicConfig()).resolves.toEqual(cfg);
    expect(seen[0]?.url.href).toBe('https://im.test/im/api/public/config');
  });
  it('decodeParam -> GET decodeParam?param=..., not encrypted', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: 'data3:x:1:2:3' }));
    await expect(api.decodeParam('a+b')).resolves.toBe('data3:x:1:2:3');
    expect(seen[0]?.url.pathname).toBe('/im/api/permit/decodeParam');
    expect(seen[0]?.url.searchParams.get('param')).toBe('a+b');
    await expect(setup(() => ({ code: 0, data: {} })).api.decodeParam('p')).rejects.toThrow(/decodeParam/);
  });
});

type Case = [name: string, method: 'GET' | 'POST', path: string, call: (api: PermitApi) => Promise<unknown>, payload: unknown];

const mch = { mchId: 1001, platformId: 2 };
const encCases: Case[] = [
  ['findMsgForCus', 'POST', 'findMsgForCus', (a) => a.findMsgForCus({ clientId: 'c', ...mch, before: 5, size: 20 }), { clientId: 'c', ...mch, before: 5, size: 20 }],
  ['markScore', 'POST', 'markScore', (a) => a.markScore({ clientId: 'c', ...mch, score: 5, remark: '好' }), { clientId: 'c', ...mch, score: 5, remark: '好' }],
  ['clientGroupMsgList', 'POST', 'clientGroupMsgList', (a) => a.clientGroupMsgList({ clientId: 'c', groupId: 'g', after: 9 }), { clientId: 'c', groupId: 'g', after: 9 }],
  ['getGroupInfo', 'GET', 'getGroupInfo', (a) => a.getGroupInfo({ groupId: 'g', clientId: 'c' }), { groupId: 'g', clientId: 'c' }],
  ['getGroupUserList', 'GET', 'getGroupUserList', (a) => a.getGroupUserList({ groupId: 7 }), { groupId: 7 }],
  ['createMsg', 'POST', 'createMsg', (a) => a.createMsg({ type: 401, from: 'c', fp: 'f', dataContent: '{"content":"hi"}' }), { type: 401, from: 'c', fp: 'f', dataContent: '{"content":"hi"}' }],
  ['categoryInfo', 'POST', 'asConfig/categoryInfo', (a) => a.categoryInfo(mch), mch],
  ['checkPlatform', 'GET', 'checkPlatform', (a) => a.checkPlatform(mch), mch],
  ['validateMchOrder', 'GET', 'validateMchOrder', (a) => a.validateMchOrder({ mchId: 1001, orderNo: 'O-1' }), { mchId: 1001, orderNo: 'O-1' }],
  ['question', 'POST', 'question', (a) => a.question({ clientId: 'c', ...mch, questionId: 3 }), { clientId: 'c', ...mch, questionId: 3 }],
  ['questionLike', 'POST', 'questionLike', (a) => a.questionLike({ ...mch, keyword: '充值' }), { ...mch, keyword: '充值' }],
  ['triggerUpdate', 'POST', 'triggerUpdate', (a) => a.triggerUpdate({ clientId: 'c', ...mch }), { clientId: 'c', ...mch }],
  ['getMerchantById', 'POST', 'getMerchantById', (a) => a.getMerchantById(mch), mch],
];

describe('(enc) permit calls: method, path and the encrypted payload', () => {
  it.each(encCases)('%s -> %s /im/api/permit/%s (enc)', async (_name, method, path, call, payload) => {
    const { api, seen } = setup(() => ({ code: 0, data: { list: [], hasMore: false } }));
    await call(api);
    const s = seen[0];
    expect(s?.method).toBe(method);
    expect(s?.url.pathname).toBe(`/im/api/permit/${path}`);
    expect(s?.headers.get('x-salt-key')).toBe('salt');
    expect(encPayload(s as Seen)).toEqual(payload);
  });
  it('the answer data is resolved as it is', async () => {
    const info = { groupId: 'g', name: 'G', kind: 'channel', avatar: '', notice: '', memberCount: 3 };
    await expect(setup(() => ({ code: 0, data: info })).api.getGroupInfo({ groupId: 'g', clientId: 'c' })).resolves.toEqual(info);
  });
  it('history pages are normalized: list in order, hasMore a boolean', async () => {
    const list = [{ type: 100, fp: 'a' }, { type: 200, fp: 'b' }];
    await expect(setup(() => ({ code: 0, data: { list, hasMore: true } })).api.findMsgForCus({ clientId: 'c', ...mch })).resolves.toEqual({ list, hasMore: true });
    await expect(setup(() => ({ code: 0, data: null })).api.clientGroupMsgList({ clientId: 'c', groupId: 'g' })).resolves.toEqual({ list: [], hasMore: false });
  });
  it('a refusal shows the server message and rejects with ApiError', async () => {
    const { api, notify } = setup(() => ({ code: 2001, message: 'blacklisted', data: null }));
    await expect(api.markScore({ clientId: 'c', ...mch, score: 1 })).rejects.toMatchObject({ code: 2001, message: 'blacklisted' });
    expect(notify).toHaveBeenCalledWith('requestFailed', 'error', 'blacklisted');
  });
});

describe('host-root calls: translate and uploads (90 s, accepted whatever their code)', () => {
  it("translate -> POST /translate/google/translate JSON { text, target } with target default 'en-US'", async () => {
    const { api, seen } = setup(() => ({ code: 0, data: { text: 'hello', source: 'zh', target: 'en-US' } }));
    await expect(api.translate('你好')).resolves.toEqual({ text: 'hello', source: 'zh', target: 'en-US' });
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.url.href).toBe('https://im.test/translate/google/translate');
    expect(JSON.parse(String(seen[0]?.body))).toEqual({ text: '你好', target: 'en-US' });
  });
  it('translate passes a target and a source', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: {} }));
    await api.translate('hi', 'vi', { source: 'en' });
    expect(JSON.parse(String(seen[0]?.body))).toEqual({ text: 'hi', target: 'vi', source: 'en' });
  });
  it('a non-zero code shows no notice and rejects with the server code and message', async () => {
    const { api, notify } = setup(() => ({ code: 2004, message: 'translation is not configured', data: null }));
    await expect(api.translate('x')).rejects.toMatchObject({ name: 'ApiError', code: 2004, message: 'translation is not configured' });
    expect(notify).not.toHaveBeenCalled();
  });
  it('a non-zero code without message still rejects clearly', async () => {
    await expect(setup(() => ({ code: 3001 })).api.chunkComplete({ uploadId: 'u' })).rejects.toThrow(/chunk\/complete failed \(code 3001\)/);
  });
  it('an answer without an envelope rejects', async () => {
    await expect(setup(() => 'plain').api.chunkInit({ fileName: 'a', fileSize: 1, mime: 'x', chunkSize: 1 })).rejects.toThrow(/no envelope/);
  });
  it('uploadFile -> POST /oss/aws/upload, multipart field file', async () => {
    const uploaded = { url: 'https://cdn/x.png', name: 'x.png', size: 3, mime: 'image/png' };
    const { api, seen } = setup(() => ({ code: 0, data: uploaded }));
    await expect(api.uploadFile(new Blob(['abc'], { type: 'image/png' }), 'x.png')).resolves.toEqual(uploaded);
    expect(seen[0]?.url.href).toBe('https://im.test/oss/aws/upload');
    const form = seen[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    const file = form.get('file') as File;
    expect(file.name).toBe('x.png');
    await expect(file.text()).resolves.toBe('abc');
  });
  it("uploadFile names the part after the File, else 'blob'", async () => {
    const { api, seen } = setup(() => ({ code: 0, data: {} }));
    await api.uploadFile(new File(['a'], 'photo.jpg'));
    await api.uploadFile(new Blob(['a']));
    expect(((seen[0]?.body as FormData).get('file') as File).name).toBe('photo.jpg');
    expect(((seen[1]?.body as FormData).get('file') as File).name).toBe('blob');
  });
  it('uploadFile can be cancelled through its signal', async () => {
    const { api } = setup();
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(api.uploadFile(new Blob(['a']), 'a', { signal: ctrl.signal })).rejects.toBeInstanceOf(RequestCancelledError);
  });
  it('chunkInit -> POST /oss/unifiedOss/chunk/init JSON { fileName, fileSize, mime, chunkSize }', async () => {
    const init = { uploadId: 'u1', chunkSize: 8, chunkCount: 2, uploaded: [0] };
    const { api, seen } = setup(() => ({ code: 0, data: init }));
    const q = { fileName: 'v.mp4', fileSize: 16, mime: 'video/mp4', chunkSize: 8 };
    await expect(api.chunkInit(q)).resolves.toEqual(init);
    expect(seen[0]?.url.href).toBe('https://im.test/oss/unifiedOss/chunk/init');
    expect(JSON.parse(String(seen[0]?.body))).toEqual(q);
  });
  it('chunkUpload -> POST chunk/upload multipart fields uploadId, index, file', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: { index: 1, size: 4 } }));
    await expect(api.chunkUpload({ uploadId: 'u1', index: 1, chunk: new Blob(['abcd']) })).resolves.toEqual({ index: 1, size: 4 });
    expect(seen[0]?.url.href).toBe('https://im.test/oss/unifiedOss/chunk/upload');
    const form = seen[0]?.body as FormData;
    expect(form.get('uploadId')).toBe('u1');
    expect(form.get('index')).toBe('1');
    await expect((form.get('file') as File).text()).resolves.toBe('abcd');
  });
  it('chunkComplete -> POST chunk/complete JSON { uploadId }', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: { url: 'u', name: 'n', size: 1, mime: 'm' } }));
    await api.chunkComplete({ uploadId: 'u1' });
    expect(seen[0]?.url.href).toBe('https://im.test/oss/unifiedOss/chunk/complete');
    expect(JSON.parse(String(seen[0]?.body))).toEqual({ uploadId: 'u1' });
  });
  it('chunkAbort -> POST chunk/abort multipart field uploadId', async () => {
    const { api, seen } = setup(() => ({ code: 0, data: null }));
    await expect(api.chunkAbort({ uploadId: 'u1' })).resolves.toBeNull();
    expect(seen[0]?.url.href).toBe('https://im.test/oss/unifiedOss/chunk/abort');
    expect((seen[0]?.body as FormData).get('uploadId')).toBe('u1');
  });
});
