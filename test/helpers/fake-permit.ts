/**
 * A fake permit server for unit tests: answers the start-up key exchange (protocol §1) and any
 * other call from a routing table, implemented independently of the SDK with node:crypto.
 * Integration tests use the real reference server instead.
 */
import { createCipheriv, createDecipheriv, generateKeyPairSync, randomBytes } from 'node:crypto';
import { memoryStorage, type ImClientOptions } from '../../src/index.js';
import { FakeNetwork, FakeWebSocket } from '../../src/socket/test-utils.js';

/** A recorded request. */
export interface RecordedCall {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: string | FormData | null;
  /** The decrypted (enc) payload, when there was one. */
  payload?: unknown;
}

function randomAscii(n: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(n), (b) => chars[b % chars.length]).join('');
}

/** AES-256-ECB/PKCS7 with node:crypto, base64 in/out. */
export function ecbEncrypt(key: string, text: string): string {
  const c = createCipheriv('aes-256-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([c.update(text, 'utf8'), c.final()]).toString('base64');
}

/** Inverse of {@link ecbEncrypt}. */
export function ecbDecrypt(key: string, b64: string): string {
  const d = createDecipheriv('aes-256-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([d.update(Buffer.from(b64, 'base64')), d.final()]).toString('utf8');
}

/** AES-256-GCM with node:crypto: base64(nonce || ciphertext || tag). */
export function gcmEncryptNode(key: Buffer, text: string): string {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const ct = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64');
}

/** Inverse of {@link gcmEncryptNode}. */
export function gcmDecryptNode(key: Buffer, b64: string): string {
  const raw = Buffer.from(b64, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString('utf8');
}

/** An RSA key pair in the socketKey format of protocol §3. */
export function makeSocketKey(secret = 'hmac-secret-for-tests'): { socketKey: string; privatePem: string; secret: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024, publicExponent: 0x10001 });
  const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return { socketKey: `${spki},${secret}`, privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), secret };
}

type Handler = (call: RecordedCall) => unknown | Promise<unknown>;

/** Options of {@link createFakePermit}. */
export interface FakePermitOptions {
  aesSwitch?: boolean;
  serverTime?: () => number;
  /** Extra routes by path (e.g. `/im/api/permit/findMsgForCus`): the returned value is the whole JSON answer. */
  routes?: Record<string, Handler>;
}

/** Creates the fake: `fetch` to inject, the keys it handed out, and the calls it saw. */
export function createFakePermit(opts: FakePermitOptions = {}) {
  const aesKey = randomAscii(32);
  const token = randomAscii(32);
  const saltKey = `salt-${randomAscii(8)}`;
  const calls: RecordedCall[] = [];
  const routes: Record<string, Handler> = {
    '/im/api/permit/getServerTime': () => ({ code: 0, message: 'ok', data: (opts.serverTime ?? Date.now)() }),
    '/im/api/permit/getAesKey': ({ url }) => {
      const r = url.searchParams.get('requestKey') ?? '';
      const bytes = Buffer.from(aesKey, 'ascii').map((b, i) => b ^ r.charCodeAt(i % r.length));
      return { code: 0, message: 'ok', data: Buffer.from(bytes).toString('base64') };
    },
    '/im/api/permit/getUserToken': () => ({
      code: 0,
      message: 'ok',
      data: { userToken: gcmEncryptNode(Buffer.from(aesKey, 'ascii'), token), saltKey },
    }),
    '/im/api/permit/switchAES': () => ({ code: 0, message: 'ok', data: opts.aesSwitch ?? false }),
    ...opts.routes,
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const contentType = request.headers.get('content-type') ?? '';
    let body: string | FormData | null = null;
    if (request.method !== 'GET') body = contentType.includes('multipart') ? await request.formData() : await request.text();
    const call: RecordedCall = { method: request.method, path: url.pathname, url, headers: request.headers, body };
    const encQuery = url.search.startsWith('?data=') ? decodeURIComponent(url.search.slice(6)) : null;
    let encBody: string | null = null;
    if (typeof body === 'string' && body.startsWith('{')) {
      const parsed = JSON.parse(body) as { data?: unknown };
      if (typeof parsed.data === 'string') encBody = decodeURIComponent(parsed.data);
    }
    const enc = encQuery ?? encBody;
    if (enc) {
      try {
        call.payload = JSON.parse(ecbDecrypt(token, enc));
      } catch {
        call.payload = undefined;
      }
    }
    calls.push(call);
    const handler = routes[url.pathname];
    if (!handler) return Response.json({ code: 1003, message: `no route ${url.pathname}`, data: null });
    const answer = await handler(call);
    return answer instanceof Response ? answer : Response.json(answer);
  };
  return { fetch, aesKey, token, saltKey, calls };
}

/**
 * The options of an `ImClient` that talks to a fake permit server (`fetch`) over the scripted
 * `FakeWebSocket`, in a fake window (`online`/`offline`) without a document, with its state in
 * memory; `overrides` win.
 */
export function fakeClientOptions(fetch: typeof globalThis.fetch, socketKey: string, overrides: Partial<ImClientOptions> = {}): ImClientOptions {
  return {
    baseUrl: 'http://im.test',
    socketUrl: 'ws://im.test/ws',
    socketKey,
    connectData: { mchId: 7, platformId: 9 },
    fetch,
    WebSocket: FakeWebSocket,
    storage: memoryStorage(),
    window: new FakeNetwork(),
    document: null,
    ...overrides,
  };
}
