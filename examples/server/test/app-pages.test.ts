/**
 * The built app is served for the spec's routes, and for any other page path (so that the app's
 * router can show its 404 page); API paths still answer a JSON 404.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startServer, tempDir } from './helpers/start.js';

const INDEX = '<!doctype html><title>kefu app</title><div id="root"></div>';
let server: Awaited<ReturnType<typeof startServer>>;
let appDir: string;

beforeAll(async () => {
  appDir = tempDir();
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'index.html'), INDEX);
  mkdirSync(join(appDir, 'assets'), { recursive: true });
  writeFileSync(join(appDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
  writeFileSync(join(appDir, 'robots.txt'), 'User-agent: *');
  server = await startServer({ appDir });
});

afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
  removeDir(appDir);
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
  });
});
