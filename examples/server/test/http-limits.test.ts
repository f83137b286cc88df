import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enc, http, keyExchange, TestSocket, type Msg } from '../../../conformance/src/client/index.js';
import { removeDir, startServer } from './helpers/start.js';

describe('spec §8: HTTP 413 for too many requests', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({}, { RATE_HTTP_MAX: '5', RATE_HTTP_WINDOW_MS: '60000' });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  it('answers HTTP 413 with an envelope once a client passes the limit, per client (salt key)', async () => {
    const session = await keyExchange(server.url); // keyed by address: another bucket
    const call = () => fetch(`${server.url}/im/api/permit/getServerTime`, { headers: { 'x-salt-key': session.saltKey } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await call()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const over = await call();
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ code: 413, message: 'Requests too frequent, please try again later', data: null }); // no Accept-Language: English
    const zh = await fetch(`${server.url}/im/api/permit/getServerTime`, { headers: { 'x-salt-key': session.saltKey, 'accept-language': 'zh-CN' } });
    expect(await zh.json()).toEqual({ code: 413, message: '请求频繁，请稍后再试', data: null });
    // another client (another live key session) is not affected
    const now = Date.now();
    server.store.keys.create({ saltKey: 'another-client', requestKey: 'f'.repeat(32), aesKey: 'a'.repeat(32), token: 't'.repeat(32), createdAt: now, lastUsed: now });
    const other = await fetch(`${server.url}/im/api/permit/getServerTime`, { headers: { 'x-salt-key': 'another-client' } });
    expect(other.status).toBe(200);
    // a made-up salt key does not escape the limit: it counts against the address (4 calls so far)
    const forged = [];
    for (let i = 0; i < 2; i += 1) forged.push((await fetch(`${server.url}/im/api/permit/getServerTime`, { headers: { 'x-salt-key': `made-up-${i}` } })).status);
    expect(forged).toEqual([200, 413]);
  });
});

describe('docs/protocol.md §4: translate', () => {
  let provider: HttpServer;
  let providerUrl = '';
  const seen: unknown[] = [];
  let plain: Awaited<ReturnType<typeof startServer>>;
  let withProvider: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    provider = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const parsed = JSON.parse(body) as { q: string; target: string };
        seen.push(parsed);
        res.setHeader('content-type', 'application/json');
        if (parsed.q === 'fail') {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: 'unsupported language' }));
          return;
        }
        res.end(JSON.stringify({ translatedText: `[${parsed.target}] ${parsed.q}`, detectedLanguage: { language: 'zh', confidence: 90 } }));
      });
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
    providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    plain = await startServer();
    withProvider = await startServer({}, { TRANSLATE_URL: providerUrl });
  });
  afterAll(async () => {
    await Promise.all([plain.close(), withProvider.close()]);
    await new Promise((r) => provider.close(r));
    removeDir(plain.dataDir);
    removeDir(withProvider.dataDir);
  });

  it('answers a clear non-zero code when translation is not configured', async () => {
    const res = await http(`${plain.url}/translate/google/translate`, { body: { text: '你好' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 2004, message: 'Translation is not configured on this server (set TRANSLATE_URL)', data: null });
  });

  it('forwards to the LibreTranslate-compatible provider (target defaults to en-US)', async () => {
    const res = await http(`${withProvider.url}/translate/google/translate`, { body: { text: '你好' } });
    expect(res.body).toEqual({ code: 0, message: 'success', data: { text: '[en] 你好', source: 'zh', target: 'en-US' } });
    expect(seen.at(-1)).toMatchObject({ q: '你好', source: 'auto', target: 'en', format: 'text' });
    const hant = await http(`${withProvider.url}/translate/google/translate`, { body: { text: 'hi', target: 'zh-Hant' } });
    expect(hant.body.data).toMatchObject({ text: '[zt] hi' });
    const failed = await http(`${withProvider.url}/translate/google/translate`, { body: { text: 'fail' } });
    expect(failed.body).toMatchObject({ code: 2004, message: 'Translation failed: unsupported language' });
    const empty = await http(`${withProvider.url}/translate/google/translate`, { body: {} });
    expect(empty.body).toMatchObject({ code: 1001, message: 'text is required' });
  });
});

describe('protocol §1.5 / §4: the AES switch off', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({}, { AES_SWITCH: 'false' });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
  });

  it('reports the switch off and exchanges plain JSON frames', async () => {
    const session = await keyExchange(server.url);
    expect(session.aesSwitch).toBe(false);
    const id = randomUUID();
    const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, id, { mchId: 'M1001', platformId: 'P01' });
    const raw: string[] = [];
    socket.ws.on('message', (d) => raw.push(d.toString()));
    const fp = socket.say(id, 100, 'plain text frame');
    await socket.next((m: Msg) => m.fp === fp);
    expect(raw.every((frame) => frame.startsWith('{'))).toBe(true);
    await socket.close();
    // (enc) calls are still encrypted with the user key
    const history = await enc(server.url, session, 'POST', 'findMsgForCus', { clientId: id, mchId: 'M1001', platformId: 'P01' });
    expect(history.code).toBe(0);
  });
});
