/**
 * The built app is served for the spec's routes, and for any other page path (so that the app's
 * router can show its 404 page); API paths still answer a JSON 404.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawAnswer } from './helpers/raw-http.js';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const INDEX = '<!doctype html><title>kefu app</title><div id="root"></div>';
/** A built chunk with its build's precompressed copies (examples/kefu/vite.config.ts). */
const CHUNK = `${'export const texts = ["kefu", "客服"];\n'.repeat(200)}`;
let server: Awaited<ReturnType<typeof startServer>>;
let appDir: string;

beforeAll(async () => {
  appDir = tempDir();
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'index.html'), INDEX);
  mkdirSync(join(appDir, 'assets'), { recursive: true });
  writeFileSync(join(appDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
  writeFileSync(join(appDir, 'robots.txt'), 'User-agent: *');
  writeFileSync(join(appDir, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(join(appDir, 'index.html.gz'), gzipSync(INDEX));
  writeFileSync(join(appDir, 'assets', 'chunk-Zz9.js'), CHUNK);
  writeFileSync(join(appDir, 'assets', 'chunk-Zz9.js.br'), brotliCompressSync(CHUNK));
  writeFileSync(join(appDir, 'assets', 'chunk-Zz9.js.gz'), gzipSync(CHUNK));
  server = await startServer({ appDir });
});

afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
  removeDir(appDir);
  expect(server.errors).toEqual([]);
});

const page = (path: string) => fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });

describe('"any other path: redirects to /404" (the app decides, so the server serves it)', () => {
  it('serves the app for the spec routes', async () => {
    for (const path of ['/', '/kefu/abc', '/group/1/name', '/redirect/a/b', '/404', '/401', '/agent']) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves the app for an unknown page path asked for by a browser', async () => {
    const res = await page('/no/such/page');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
  });

  it('keeps a JSON 404 envelope for unknown API paths and non-browser requests', async () => {
    const api = await page('/im/api/permit/nope');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 1003 });
    const plain = await fetch(`${server.url}/no/such/page`);
    expect(plain.status).toBe(404);
    expect(await plain.json()).toMatchObject({ code: 1003 });
  });
});

describe('hashed assets are cached for a year, the page is revalidated', () => {
  it('serves /assets/* as public, a year, immutable', async () => {
    const res = await fetch(`${server.url}/assets/index-AbC123.js`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('console.log(1)');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers the page with no-cache on every app route and at /index.html', async () => {
    for (const path of ['/', '/kefu/abc', '/agent', '/index.html']) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
  });

  it('leaves other files outside assets/ without the year-long policy', async () => {
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).not.toContain('immutable');
  });
});

/** A raw GET (Node's fetch would decode the body itself): status, headers and the bytes as sent. */
function rawGet(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return rawRequest(`${server.url}${path}`, { headers });
}

describe("the build's precompressed copies go to browsers that accept them", () => {
  it('sends the Brotli copy of an asset to a browser that accepts br, with the asset policy', async () => {
    const res = await rawGet('/assets/chunk-Zz9.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.length).toBeLessThan(CHUNK.length / 5);
    expect(brotliDecompressSync(res.body).toString('utf8')).toBe(CHUNK);
  });

  it('sends the gzip copy to a client that accepts only gzip, and the file as it is to one that accepts none', async () => {
    const gz = await rawGet('/assets/chunk-Zz9.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(CHUNK);
    const plain = await rawGet('/assets/chunk-Zz9.js', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    expect(plain.body.toString('utf8')).toBe(CHUNK);
  });

  it('answers the page compressed on the app routes, still revalidated each time', async () => {
    for (const path of ['/', '/kefu/abc', '/index.html']) {
      const res = await rawGet(path, { accept: 'text/html', 'accept-encoding': 'br' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expect(brotliDecompressSync(res.body).toString('utf8'), path).toBe(INDEX);
    }
  });

  it('a hostile Accept-Encoding or a path out of the app gets nothing it should not', async () => {
    const odd = await rawGet('/assets/chunk-Zz9.js', { 'accept-encoding': `${'x'.repeat(8000)}, br;q=0, gzip;q=0` });
    expect(odd.status).toBe(200);
    expect(odd.body.toString('utf8')).toBe(CHUNK);
    for (const path of ['/assets/..%2f..%2fpackage.json', '/assets/%2e%2e/%2e%2e/package.json', '/..%2fpackage.json']) {
      const res = await rawGet(path, { 'accept-encoding': 'br, gzip' });
      expect([400, 403, 404], path).toContain(res.status);
      expect(res.headers['content-encoding'], path).toBeUndefined();
    }
  });

  it('serves a file without compressed copies as it is, whatever the browser accepts', async () => {
    const res = await rawGet('/assets/index-AbC123.js', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString('utf8')).toBe('console.log(1)');
  });
});

describe('user-facing failure messages follow Accept-Language', () => {
  it('languageOf reads the first tag', async () => {
    const { languageOf, localizedMessage } = await import('../src/http/localize.js');
    expect(languageOf('zh-CN,zh;q=0.9')).toBe('zh');
    expect(languageOf('zh-TW')).toBe('zh-Hant');
    expect(languageOf('pt-BR')).toBe('en');
    expect(languageOf(undefined)).toBe('en');
    expect(localizedMessage(2002, 'zh', 'x')).toBe('您已经评价过了');
    expect(localizedMessage(2002, 'en', 'x')).toBe('You have commented already');
    expect(localizedMessage(1001, 'zh', 'kept')).toBe('kept');
    expect(localizedMessage(1002, 'zh', 'x')).toBe('会话已过期，请刷新页面');
  });
});
