import { beforeAll, describe, expect, it } from 'vitest';
import { enc, http, keyExchange, type Session } from '../../../conformance/src/client/index.js';
import { serverForFile } from './helpers/file-server.js';

const server = serverForFile();
let session: Session;

beforeAll(async () => {
  session = await keyExchange(server.url);
});

describe('protocol §1: the start-up key exchange', () => {
  it('hands out a 32-byte AES key XOR the request key, a GCM user token of 32 ASCII characters and a salt key', async () => {
    expect(session.aesKey).toHaveLength(32);
    expect(session.token).toMatch(/^[\x21-\x7e]{32}$/);
    expect(session.saltKey.length).toBeGreaterThan(8);
    expect(session.aesSwitch).toBe(true);
  });

  it('keeps one key session per requestKey: asking again gives the same key and salt key', async () => {
    const again = await http<{ saltKey: string }>(`${server.url}/im/api/permit/getUserToken?requestKey=${session.requestKey}`);
    expect(again.body.data.saltKey).toBe(session.saltKey);
    const other = await keyExchange(server.url);
    expect(other.saltKey).not.toBe(session.saltKey);
    expect(other.token).not.toBe(session.token);
  });

  it('refuses a malformed requestKey with code 1001', async () => {
    const res = await http(`${server.url}/im/api/permit/getAesKey?requestKey=xyz`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1001);
  });

  it('answers the server time in ms', async () => {
    const before = Date.now();
    const res = await http<number>(`${server.url}/im/api/permit/getServerTime`);
    expect(res.body.data).toBeGreaterThanOrEqual(before - 5);
  });
});

describe('docs/protocol.md §2: the public configuration', () => {
  it('serves baseUrl, socketUrl, socketKey and the AES switch without encryption', async () => {
    const res = await http<{ baseUrl: string; socketUrl: string; socketKey: string; aesSwitch: boolean }>(`${server.url}/im/api/public/config`);
    expect(res.body.code).toBe(0);
    expect(res.body.data.baseUrl).toBe(server.url);
    expect(res.body.data.socketUrl).toBe(`${server.url.replace('http', 'ws')}/ws`);
    expect(res.body.data.socketKey).toBe(server.socketKey);
    expect(res.body.data.socketKey.split(',')).toHaveLength(2);
  });
});

describe('protocol §2: (enc) calls', () => {
  it('decodes an encrypted POST body (getMerchantById) and answers the merchant with kefuAvatar2', async () => {
    const res = await enc<{ mchId: string; name: string; kefuAvatar2: string }>(server.url, session, 'POST', 'getMerchantById', { mchId: 'M1001', platformId: 'P01' });
    expect(res.code).toBe(0);
    expect(res.data.mchId).toBe('M1001');
    expect(res.data.kefuAvatar2).toMatch(/^data:image\//);
  });

  it('decodes an encrypted GET query (checkPlatform, validateMchOrder)', async () => {
    const platform = await enc<{ enabled: boolean }>(server.url, session, 'GET', 'checkPlatform', { mchId: 'M1001', platformId: 'P01' });
    expect(platform).toMatchObject({ code: 0, data: { mchId: 'M1001', platformId: 'P01', enabled: true } });
    const order = await enc(server.url, session, 'GET', 'validateMchOrder', { mchId: 'M1001', orderNo: 'ORD202400001' });
    expect(order).toMatchObject({ code: 0, data: { userAccount: 'demo_member', userMchId: 'M1001', mchOrderNo: 'ORD202400001', amount: '100.00', status: 'SUCCESS' } });
  });

  it('answers a payload that does not decrypt, is not JSON, or lacks fields with 1001 and a clear message, never a 500', async () => {
    const url = `${server.url}/im/api/permit/getMerchantById`;
    const headers = { 'x-salt-key': session.saltKey };
    const cases: unknown[] = [{ data: 'not-base64!!' }, { data: 'QUJD' }, {}, { data: 42 }, 'plain'];
    for (const body of cases) {
      const res = await http(url, { method: 'POST', body, headers });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(1001);
      expect(res.body.message).not.toMatch(/at \w+ \(/);
    }
    const missing = await enc(server.url, session, 'POST', 'getMerchantById', { mchId: 'M1001' });
    expect(missing).toMatchObject({ code: 1001, message: 'platformId is required' });
    const raw = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"data":' });
    // a body that is not JSON at all cannot be read: a 4xx envelope (SECURITY.md, issue 9)
    expect(raw.status).toBe(400);
    expect((await raw.json()) as { code: number }).toMatchObject({ code: 1001 });
  });

  it('answers an unknown or missing salt key with 1002, and a message the visitor can act on in its language', async () => {
    const res = await enc(server.url, { ...session, saltKey: 'nope' }, 'POST', 'getMerchantById', { mchId: 'M1001', platformId: 'P01' });
    expect(res.code).toBe(1002);
    const zh = await fetch(`${server.url}/im/api/permit/getMerchantById`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-salt-key': 'nope', 'accept-language': 'zh-CN' },
      body: '{"data":"x"}',
    });
    expect(await zh.json()).toMatchObject({ code: 1002, message: '会话已过期，请刷新页面' });
  });

  it('answers unknown records with 1003', async () => {
    const res = await enc(server.url, session, 'GET', 'validateMchOrder', { mchId: 'M1001', orderNo: 'missing' });
    expect(res.code).toBe(1003);
  });

  it('lists FAQ categories in the request language and finds questions like a keyword', async () => {
    const cats = await enc<{ id: string; name: string; questions: { id: string; question: string }[] }[]>(server.url, session, 'POST', 'asConfig/categoryInfo', { mchId: 'M1001', platformId: 'P01' });
    expect(cats.code).toBe(0);
    expect(cats.data.map((c) => c.name)).toEqual(['充值问题', '账户问题']);
    expect(cats.data[0]?.questions.length).toBeGreaterThan(0);
    const like = await enc<{ id: string; question: string }[]>(server.url, session, 'POST', 'questionLike', { mchId: 'M1001', platformId: 'P01', keyword: '密码' });
    expect(like.data[0]?.question).toBe('如何修改登录密码？');
  });

  it('decodes an entry param: a stored opaque value or base64url of data3:...', async () => {
    const stored = await http<string>(`${server.url}/im/api/permit/decodeParam?param=demo`);
    expect(stored.body.data).toMatch(/^data3:kefu:M1001:P01:alice:/);
    const param = Buffer.from('data3:x:M1001:P01:alice:en:0:0:G100').toString('base64url');
    const decoded = await http<string>(`${server.url}/im/api/permit/decodeParam?param=${param}`);
    expect(decoded.body.data).toBe('data3:x:M1001:P01:alice:en:0:0:G100');
    const broken = await http(`${server.url}/im/api/permit/decodeParam?param=%%%`);
    expect(broken.body.code).not.toBe(0);
  });

  it('answers unknown paths with a 404 envelope', async () => {
    const res = await http(`${server.url}/im/api/permit/nothing`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1003);
  });
});

describe('serving the app', () => {
  it('serves a placeholder page at / and /kefu/* until the app is built', async () => {
    for (const path of ['/', `${server.entryPath}`, '/group/G100/x', '/agent']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('/im/api/public/config');
    }
  });
});
